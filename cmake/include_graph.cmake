# The include graph of the SDK's headers, checked when the project is configured (so a cycle fails
# the build before anything compiles). Rules:
#   - every `#include <mcp/...>` names a file that exists;
#   - no header reaches itself through its includes (no cycle);
#   - an impl/*.ipp file holds out-of-line bodies of exactly one header: only that header includes
#     it (from its bottom), and it never includes that header back. The one exception is
#     mcp/impl/src.hpp, the compiled mode's source, which includes every .ipp;
#   - folders are layers, lowest first: json, schema, validation, core, tools, ext, transport,
#     stores. A file includes only its own layer or lower ones (config.hpp, error.hpp and
#     version.hpp are below every layer; mcp.hpp, testing.hpp and impl/ above them all).
# Usage: include(cmake/include_graph.cmake) then mcp_check_include_graph(<repo>/include).
# tests/include_graph_check.cmake (ctest include_graph_rules) shows each rule failing on a copy.

set(_mcp_layers json schema validation core tools ext transport stores)

# The layer of `file` (mcp/<folder>/...): its index in _mcp_layers; -1 below them all, 100 above.
function(_mcp_layer_of file out)
  if(file MATCHES "^mcp/(config|error|version)\\.hpp$")
    set(${out} -1 PARENT_SCOPE)
    return()
  endif()
  if(file MATCHES "^mcp/([^/]+)/")
    list(FIND _mcp_layers "${CMAKE_MATCH_1}" index)
    if(index GREATER -1)
      set(${out} ${index} PARENT_SCOPE)
      return()
    endif()
  endif()
  set(${out} 100 PARENT_SCOPE)  # mcp.hpp, testing.hpp, impl/src.hpp: the umbrellas
endfunction()

function(_mcp_includes_of root file out)
  file(STRINGS "${root}/${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*<mcp/")
  set(result "")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*<(mcp/[^>]+)>.*$" "\\1" target "${line}")
    list(APPEND result "${target}")
  endforeach()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# Depth-first search; _mcp_state_<id> is 1 while on the current path, 2 when done.
function(_mcp_visit root file path)
  string(MAKE_C_IDENTIFIER "${file}" id)
  get_property(state GLOBAL PROPERTY _mcp_state_${id})
  if(state STREQUAL "2")
    return()
  endif()
  if(state STREQUAL "1")
    list(APPEND path "${file}")
    string(REPLACE ";" " -> " chain "${path}")
    message(FATAL_ERROR "mcp: include cycle: ${chain}")
  endif()
  set_property(GLOBAL PROPERTY _mcp_state_${id} 1)
  list(APPEND path "${file}")
  get_property(edges GLOBAL PROPERTY _mcp_edges_${id})
  foreach(next IN LISTS edges)
    _mcp_visit("${root}" "${next}" "${path}")
  endforeach()
  set_property(GLOBAL PROPERTY _mcp_state_${id} 2)
endfunction()

function(mcp_check_include_graph root)
  file(GLOB_RECURSE files RELATIVE "${root}" "${root}/mcp/*.hpp" "${root}/mcp/*.ipp")
  foreach(file IN LISTS files)
    _mcp_includes_of("${root}" "${file}" targets)
    string(MAKE_C_IDENTIFIER "${file}" id)
    set_property(GLOBAL PROPERTY _mcp_edges_${id} "${targets}")
    set_property(GLOBAL PROPERTY _mcp_state_${id} 0)
    _mcp_layer_of("${file}" from)
    foreach(target IN LISTS targets)
      if(NOT EXISTS "${root}/${target}")
        message(FATAL_ERROR "mcp: ${file} includes <${target}>, which does not exist")
      endif()
      _mcp_layer_of("${target}" to)
      if(to GREATER from)
        message(FATAL_ERROR "mcp: ${file} includes <${target}>, a layer above its own (layers, lowest first: "
                            "json, schema, validation, core, tools, ext, transport, stores); move the code, or "
                            "give the lower layer a seam the upper one fills")
      endif()
      if(target MATCHES "/impl/[^/]+\\.ipp$" AND NOT file STREQUAL "mcp/impl/src.hpp")
        string(MAKE_C_IDENTIFIER "${target}" tid)
        get_property(owner GLOBAL PROPERTY _mcp_ipp_owner_${tid})
        if(owner AND NOT owner STREQUAL file)
          message(FATAL_ERROR "mcp: ${target} is included by ${owner} and by ${file}; an .ipp belongs to one header")
        endif()
        set_property(GLOBAL PROPERTY _mcp_ipp_owner_${tid} "${file}")
      endif()
    endforeach()
  endforeach()
  foreach(file IN LISTS files)
    if(file MATCHES "\\.ipp$")
      string(MAKE_C_IDENTIFIER "${file}" id)
      get_property(owner GLOBAL PROPERTY _mcp_ipp_owner_${id})
      if(NOT owner)
        message(FATAL_ERROR "mcp: ${file} is included by no header")
      endif()
    endif()
  endforeach()
  foreach(file IN LISTS files)
    _mcp_visit("${root}" "${file}" "")
  endforeach()
endfunction()
