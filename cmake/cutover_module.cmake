# cutover_layer(NAME libs...): records module NAME (the current folder) and the cutover_*
# libraries it links, in the order modules are added, for the layer check
# (cmake/check_layers.cmake, run by cutover_check_layers()).
function(cutover_layer name)
  set(deps "")
  foreach(lib IN LISTS ARGN)
    if(lib MATCHES "^cutover_(.+)$")
      list(APPEND deps ${CMAKE_MATCH_1})
    endif()
  endforeach()
  set_property(GLOBAL APPEND PROPERTY CUTOVER_LAYER_MODULES ${name})
  set_property(GLOBAL PROPERTY CUTOVER_LAYER_DIR_${name} ${CMAKE_CURRENT_SOURCE_DIR})
  set_property(GLOBAL PROPERTY CUTOVER_LAYER_DEPS_${name} "${deps}")
endfunction()

# cutover_check_layers(): checks the recorded modules now (a violation fails the configure
# step) and adds the check_layers target, which checks them again whenever a source changes.
function(cutover_check_layers)
  get_property(CUTOVER_LAYER_MODULES GLOBAL PROPERTY CUTOVER_LAYER_MODULES)
  set(layers_file ${CMAKE_BINARY_DIR}/cutover_layers.cmake)
  set(content "set(CUTOVER_LAYER_MODULES \"${CUTOVER_LAYER_MODULES}\")\n")
  set(sources "")
  foreach(module IN LISTS CUTOVER_LAYER_MODULES)
    get_property(CUTOVER_LAYER_DIR_${module} GLOBAL PROPERTY CUTOVER_LAYER_DIR_${module})
    get_property(CUTOVER_LAYER_DEPS_${module} GLOBAL PROPERTY CUTOVER_LAYER_DEPS_${module})
    string(APPEND content "set(CUTOVER_LAYER_DIR_${module} \"${CUTOVER_LAYER_DIR_${module}}\")\n")
    string(APPEND content "set(CUTOVER_LAYER_DEPS_${module} \"${CUTOVER_LAYER_DEPS_${module}}\")\n")
    file(GLOB_RECURSE module_sources CONFIGURE_DEPENDS ${CUTOVER_LAYER_DIR_${module}}/*.h
         ${CUTOVER_LAYER_DIR_${module}}/*.cpp ${CUTOVER_LAYER_DIR_${module}}/*.inl)
    list(APPEND sources ${module_sources})
  endforeach()
  file(WRITE ${layers_file} "${content}")
  include(${PROJECT_SOURCE_DIR}/cmake/check_layers.cmake)
  add_custom_command(
    OUTPUT ${CMAKE_BINARY_DIR}/cutover_layers.stamp
    COMMAND ${CMAKE_COMMAND} -DLAYERS_FILE=${layers_file} -P ${PROJECT_SOURCE_DIR}/cmake/check_layers.cmake
    COMMAND ${CMAKE_COMMAND} -E touch ${CMAKE_BINARY_DIR}/cutover_layers.stamp
    DEPENDS ${sources} ${PROJECT_SOURCE_DIR}/cmake/check_layers.cmake ${layers_file}
    COMMENT "Checking module layers"
    VERBATIM)
  add_custom_target(check_layers ALL DEPENDS ${CMAKE_BINARY_DIR}/cutover_layers.stamp)
endfunction()

# cutover_module(NAME DEPENDS libs...): one static library per src/ folder.
# Every *.cpp in the folder except *_test.cpp goes into cutover_NAME; every *_test.cpp
# goes into one GoogleTest binary NAME_test registered with ctest. Folders below the
# module (e.g. one per RR type or probe) are picked up by the same globs.
function(cutover_module name)
  cmake_parse_arguments(ARG "" "" "DEPENDS" ${ARGN})
  cutover_layer(${name} ${ARG_DEPENDS})
  file(GLOB_RECURSE all_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  set(lib_sources "")
  set(test_sources "")
  foreach(source IN LISTS all_sources)
    if(source MATCHES "_test\\.cpp$")
      list(APPEND test_sources ${source})
    else()
      list(APPEND lib_sources ${source})
    endif()
  endforeach()
  add_library(cutover_${name} STATIC ${lib_sources})
  target_include_directories(cutover_${name} PUBLIC ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(cutover_${name} PUBLIC ${ARG_DEPENDS})
  if(CUTOVER_PCH)
    target_precompile_headers(cutover_${name} REUSE_FROM cutover_pch_lib)
  endif()
  if(CUTOVER_TESTS AND test_sources)
    add_executable(${name}_test ${test_sources})
    target_link_libraries(${name}_test PRIVATE cutover_${name} GTest::gtest_main GTest::gmock)
    target_compile_definitions(${name}_test PRIVATE CUTOVER_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
    if(CUTOVER_PCH)
      target_precompile_headers(${name}_test REUSE_FROM cutover_pch_test)
    endif()
    gtest_discover_tests(${name}_test DISCOVERY_TIMEOUT 60 PROPERTIES LABELS unit)
    set_property(GLOBAL APPEND PROPERTY CUTOVER_UNIT_TESTS ${name}_test)
  endif()
endfunction()
