# The layer check: every src/ module may link and include only modules listed before it in
# src/CMakeLists.txt, and includes only from itself and the modules it links (directly or
# through them). docs/architecture.md draws the same graph.
#
# Runs at configure time (include()d by src/CMakeLists.txt after every module is added) and
# again at build time (`cmake -DLAYERS_FILE=... -P check_layers.cmake`, from the
# check_layers target), so an include line added to an existing file fails the next build
# even though it does not re-run the configure step.
#
# Input: CUTOVER_LAYER_MODULES (module names in layer order) and, for each module M,
# CUTOVER_LAYER_DIR_<M> (its folder) and CUTOVER_LAYER_DEPS_<M> (the modules it links).

if(DEFINED LAYERS_FILE)
  include(${LAYERS_FILE})
endif()

function(_layer_fail message)
  message(FATAL_ERROR "layer check: ${message}\n(the layers are the module order in src/CMakeLists.txt; "
                      "docs/architecture.md says where each kind of code goes)")
endfunction()

# The position of every module, and its direct links checked against it.
set(_position 0)
foreach(module IN LISTS CUTOVER_LAYER_MODULES)
  set(_rank_${module} ${_position})
  math(EXPR _position "${_position} + 1")
endforeach()

foreach(module IN LISTS CUTOVER_LAYER_MODULES)
  foreach(dep IN LISTS CUTOVER_LAYER_DEPS_${module})
    if(NOT DEFINED _rank_${dep})
      _layer_fail("module '${module}' links 'cutover_${dep}', which is not a module")
    endif()
    if(NOT _rank_${dep} LESS _rank_${module})
      _layer_fail("module '${module}' links '${dep}', which is not below it (${module} is layer "
                  "${_rank_${module}}, ${dep} is layer ${_rank_${dep}})")
    endif()
  endforeach()
endforeach()

# The modules each module reaches through its links. Deps come earlier in the order, so one
# pass in order sees every dep's closure complete.
foreach(module IN LISTS CUTOVER_LAYER_MODULES)
  set(_reach_${module} ${module})
  foreach(dep IN LISTS CUTOVER_LAYER_DEPS_${module})
    list(APPEND _reach_${module} ${_reach_${dep}})
  endforeach()
  list(REMOVE_DUPLICATES _reach_${module})
endforeach()

# Every quoted include of another module's header must be of a module the includer reaches.
foreach(module IN LISTS CUTOVER_LAYER_MODULES)
  file(GLOB_RECURSE _sources ${CUTOVER_LAYER_DIR_${module}}/*.h ${CUTOVER_LAYER_DIR_${module}}/*.cpp
       ${CUTOVER_LAYER_DIR_${module}}/*.inl)
  foreach(source IN LISTS _sources)
    file(STRINGS ${source} _includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"[a-z_]+/")
    foreach(line IN LISTS _includes)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([a-z_]+)/.*$" "\\1" included "${line}")
      if(NOT DEFINED _rank_${included})
        continue()  # not a module (a system or third-party path)
      endif()
      list(FIND _reach_${module} ${included} _found)
      if(_found EQUAL -1)
        string(STRIP "${line}" line)
        if(_rank_${included} LESS _rank_${module})
          set(_why "${included} is below ${module} but not among its links: add cutover_${included} to its DEPENDS")
        else()
          set(_why "${included} is above ${module} (layer ${_rank_${included}} > ${_rank_${module}})")
        endif()
        _layer_fail("${source}: ${line}: ${_why}")
      endif()
    endforeach()
  endforeach()
endforeach()
