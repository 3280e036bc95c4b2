# SPDX-License-Identifier: MIT
# cmake -DCLI=carbon3d-validate -DSOURCE_DIR=repo -DEXPECTED=repo/path/file -DACTUAL=build/.../file
#       "-DARGS=report-study-lesson" -P GoldenFile.cmake
# Regenerates a committed generated file (one without a Markdown header: the study lesson) with
# `carbon3d-validate ARGS --out ACTUAL`, run from SOURCE_DIR, and fails with the diff when it differs from EXPECTED.
foreach(var CLI SOURCE_DIR EXPECTED ACTUAL ARGS)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "GoldenFile.cmake: -D${var}=... is required")
    endif()
endforeach()
separate_arguments(arguments UNIX_COMMAND "${ARGS}")
get_filename_component(actual_dir "${ACTUAL}" DIRECTORY)
file(MAKE_DIRECTORY "${actual_dir}")
file(REMOVE "${ACTUAL}")
execute_process(COMMAND "${CLI}" ${arguments} --out "${ACTUAL}" WORKING_DIRECTORY "${SOURCE_DIR}"
                RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE errors)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "carbon3d-validate ${ARGS} failed (${status}):\n${output}\n${errors}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${EXPECTED}" "${ACTUAL}" RESULT_VARIABLE differ)
if(differ)
    execute_process(COMMAND diff -u "${EXPECTED}" "${ACTUAL}" OUTPUT_VARIABLE diff)
    message(FATAL_ERROR "${EXPECTED} is not what `carbon3d-validate ${ARGS}` writes now; regenerate it:\n${diff}")
endif()
