# SPDX-License-Identifier: MIT
# carbon3d_add_test(NAME <name> SOURCES <files...> LIBS <targets...> [LABELS <labels...>])
# One Qt Test executable per test class, registered with ctest. Tests find fixtures through
# CARBON3D_SOURCE_DIR (the repository root) and run on the offscreen Qt platform.
function(carbon3d_add_test)
    cmake_parse_arguments(ARG "" "NAME" "SOURCES;LIBS;LABELS" ${ARGN})
    add_executable(${ARG_NAME} ${ARG_SOURCES})
    target_link_libraries(${ARG_NAME} PRIVATE Qt6::Test ${ARG_LIBS} carbon3d_build_options)
    # Helpers shared by several tests: tests/common, included as "common/...".
    target_include_directories(${ARG_NAME} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
    target_compile_definitions(${ARG_NAME} PRIVATE CARBON3D_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
                               CARBON3D_BINARY_DIR="${PROJECT_BINARY_DIR}")
    add_test(NAME ${ARG_NAME} COMMAND ${ARG_NAME})
    set_tests_properties(${ARG_NAME} PROPERTIES
        ENVIRONMENT "QT_QPA_PLATFORM=offscreen;CARBON3D_SOURCE_DIR=${PROJECT_SOURCE_DIR}"
        LABELS "${ARG_LABELS}" TIMEOUT 600)
endfunction()
