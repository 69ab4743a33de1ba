# What a target links, transitively, and a check that it links no ictk library but the
# allowed ones. The sample's core uses it (sample/CMakeLists.txt) so that the build graph,
# not a symbol scan, keeps the sample from sharing the model's rule, parsing or judging code
# and the codec: a forbidden library in its link closure fails the configure step.

# ictk_link_closure(<target> <out-var>): every target and library name reachable from
# <target> through LINK_LIBRARIES and INTERFACE_LINK_LIBRARIES (aliases resolved,
# $<LINK_ONLY:...> unwrapped, other generator expressions left out), <target> included.
function(ictk_link_closure target out)
  set(seen "")
  set(todo ${target})
  while(todo)
    list(POP_FRONT todo item)
    if(item MATCHES "^\\$<LINK_ONLY:(.*)>$")
      set(item "${CMAKE_MATCH_1}")
    elseif(item MATCHES "^\\$<")
      continue()
    endif()
    if(TARGET ${item})
      get_target_property(aliased ${item} ALIASED_TARGET)
      if(aliased)
        set(item ${aliased})
      endif()
    endif()
    if(item IN_LIST seen)
      continue()
    endif()
    list(APPEND seen ${item})
    if(NOT TARGET ${item})
      continue()
    endif()
    get_target_property(type ${item} TYPE)
    set(deps "")
    if(NOT type STREQUAL "INTERFACE_LIBRARY")
      get_target_property(direct ${item} LINK_LIBRARIES)
      if(direct)
        list(APPEND deps ${direct})
      endif()
    endif()
    get_target_property(iface ${item} INTERFACE_LINK_LIBRARIES)
    if(iface)
      list(APPEND deps ${iface})
    endif()
    list(APPEND todo ${deps})
  endwhile()
  set(${out} ${seen} PARENT_SCOPE)
endfunction()

# ictk_forbid_links(<target> ALLOW <ictk targets...>): a configure error when <target>
# links, directly or through another library, an ictk_* target not in ALLOW.
function(ictk_forbid_links target)
  cmake_parse_arguments(ARG "" "" "ALLOW" ${ARGN})
  ictk_link_closure(${target} closure)
  foreach(item ${closure})
    if(item MATCHES "^ictk_" AND NOT item STREQUAL target AND NOT item IN_LIST ARG_ALLOW)
      message(FATAL_ERROR "${target} links ${item}, which it must not "
        "(it may link only ${ARG_ALLOW} of the kit; link closure: ${closure})")
    endif()
  endforeach()
endfunction()
