# SPDX-License-Identifier: MIT
# Installing Carbon3D and packaging it (issue 45; docs/INSTALL.md). GNUInstallDirs places everything under the
# prefix: the two programs in bin, the sample data and the documents under share/carbon3d (where
# app/support/DataDirectory.cpp looks, next to the programs), the desktop entry, AppStream metainfo, a
# hicolor icon set and man pages. `cpack -G DEB` (scripts/package) turns the same rules into a .deb.
include(GNUInstallDirs)
set(CARBON3D_APP_ID io.github.carbon3d.carbon3d)

install(TARGETS carbon3d carbon3d-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The traces keep their SOURCES.md attribution (ODbL) beside them; the Learn page links to the documents.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/sample_data/ DESTINATION ${CMAKE_INSTALL_DATADIR}/carbon3d/sample_data)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/carbon3d/docs)
# Debian names the folder after the package, not the project.
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/carbon3d)

# Desktop integration: the entry and metainfo are named by the application's id, the icon too.
install(FILES ${PROJECT_SOURCE_DIR}/resources/linux/${CARBON3D_APP_ID}.desktop
        DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${PROJECT_SOURCE_DIR}/resources/linux/${CARBON3D_APP_ID}.metainfo.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
set(icon_svg ${PROJECT_SOURCE_DIR}/resources/icons/carbon3d.svg)
install(FILES ${icon_svg} DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps
        RENAME ${CARBON3D_APP_ID}.svg)
set(icon_pngs)
foreach(size 16 24 32 48 64 128 256 512)
    set(png ${PROJECT_BINARY_DIR}/icons/${size}x${size}/${CARBON3D_APP_ID}.png)
    add_custom_command(OUTPUT ${png}
                       COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/icons/${size}x${size}
                       COMMAND render-icon ${icon_svg} ${size} ${png}
                       DEPENDS render-icon ${icon_svg}
                       COMMENT "Rendering the ${size}x${size} icon" VERBATIM)
    list(APPEND icon_pngs ${png})
    install(FILES ${png} DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps)
endforeach()
add_custom_target(carbon3d_icons ALL DEPENDS ${icon_pngs})

# Man pages written by help2man from each program's own --help and --version, so they never drift from it.
find_program(HELP2MAN help2man)
if(HELP2MAN)
    set(man_pages)
    foreach(program carbon3d carbon3d-cli)
        if(program STREQUAL "carbon3d")
            set(summary "what-if studio for carbon-aware training of large models")
        else()
            set(summary "carbon-aware training what-if studio, headless")
        endif()
        set(page ${PROJECT_BINARY_DIR}/man/${program}.1)
        add_custom_command(OUTPUT ${page}.gz
                           COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/man
                           COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ASAN_OPTIONS=detect_leaks=0
                                   ${HELP2MAN} --no-info --section=1 --name=${summary} --output=${page}
                                   $<TARGET_FILE:${program}>
                           COMMAND gzip -9nf ${page}
                           DEPENDS ${program}
                           COMMENT "Writing the man page of ${program}" VERBATIM)
        list(APPEND man_pages ${page}.gz)
        install(FILES ${page}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
    endforeach()
    add_custom_target(carbon3d_man_pages ALL DEPENDS ${man_pages})
else()
    message(WARNING "help2man not found: no man pages will be installed (scripts/packages.txt lists it)")
endif()

# The Debian package. Shared-library dependencies come from dpkg-shlibdeps; Qt's platform plugins and the
# fonts figures are drawn with are loaded at run time, so they are named here.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME carbon3d)
set(CPACK_PACKAGE_VENDOR "The Carbon3D authors")
set(CPACK_PACKAGE_CONTACT "The Carbon3D authors")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DESCRIPTION
    "Carbon3D loads real grid carbon traces and a GPU-cluster profile, takes a training job and shows how "
    "scheduling policies trade emissions against runtime, with every assumption visible and answers as "
    "distributions. carbon3d is the desktop studio, carbon3d-cli its headless twin.")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins, fonts-dejavu-core")
include(CPack)
