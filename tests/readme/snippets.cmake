# The code blocks of the guides (README.md, examples/README.md), taken out at configure time so that
# tests compile and run them (tests/readme/test_readme.cpp, the readme_* ctests): a guide cannot
# drift from the code.
#
# In a guide, a block that a test uses is preceded by a marker line:
#   <!-- snippet: NAME -->
#   ```cpp
#   ...
#   ```
# Every ```cpp block must carry one (configuring fails otherwise), every name is used once in all
# the guides, and
# every name must be used by a file in tests/readme/. For each block this writes, under OUT_DIR:
#   NAME.txt   the block as written;
#   NAME.inc   a cpp block for #include, after a #line directive pointing into README.md (compiler
#              errors name the README's line), its #include lines blanked;
# and includes.inc (every #include line of every block, once), tutorial.cpp (the tutorial_* blocks
# in order, as written: the whole tutorial program).
# Usage: include(this file) then mcp_readme_snippets(<OUT_DIR> <dir of the tests> <guide.md>...).

# Writes `content` to `path` only when it differs, so an unchanged snippet rebuilds nothing.
function(_mcp_write_if_changed path content)
  file(WRITE "${path}.tmp" "${content}")
  configure_file("${path}.tmp" "${path}" COPYONLY)
  file(REMOVE "${path}.tmp")
endfunction()

function(mcp_readme_snippets out_dir users_dir)
  file(GLOB users CONFIGURE_DEPENDS "${users_dir}/*.cpp" "${users_dir}/*.cmake" "${users_dir}/CMakeLists.txt")
  set(users_text "")
  foreach(user IN LISTS users)
    file(READ "${user}" one)
    string(APPEND users_text "${one}")
  endforeach()

  file(MAKE_DIRECTORY "${out_dir}")
  set(names "")
  set(includes "")
  set(tutorial "")
  foreach(readme IN LISTS ARGN)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${readme}")
    file(READ "${readme}" text)
    # One list element per line: hide what CMake lists treat specially first.
    string(REPLACE "\\" "<mcp-bs>" text "${text}")
    string(REPLACE ";" "<mcp-sc>" text "${text}")
    string(REPLACE "[" "<mcp-lb>" text "${text}")
    string(REPLACE "]" "<mcp-rb>" text "${text}")
    string(REPLACE "\n" ";" lines "${text}")
    set(number 0)
    set(pending "")
    set(in_block OFF)
    foreach(line IN LISTS lines)
      math(EXPR number "${number} + 1")
      if(NOT in_block)
        if(line MATCHES "^<!-- snippet: ([a-z0-9_]+) -->$")
          set(pending "${CMAKE_MATCH_1}")
          set(pending_line ${number})
        elseif(line MATCHES "^```([a-z]*)")
          set(in_block ON)
          set(lang "${CMAKE_MATCH_1}")
          set(name "${pending}")
          set(first ${number})
          math(EXPR first "${first} + 1")
          set(body "")
          set(code "")
          if(lang STREQUAL "cpp" AND name STREQUAL "")
            message(FATAL_ERROR "${readme}:${number}: a cpp block without a marker line before it: "
                                "<!-- snippet: NAME --> (a test in tests/readme must compile it)")
          endif()
        elseif(NOT line STREQUAL "")
          set(pending "")
        endif()
        continue()
      endif()
      if(NOT line MATCHES "^```$")
        string(APPEND body "${line}\n")
        if(line MATCHES "^#include ")
          list(FIND includes "${line}" seen)
          if(seen EQUAL -1)
            list(APPEND includes "${line}")
          endif()
          string(APPEND code "\n")
        else()
          string(APPEND code "${line}\n")
        endif()
        continue()
      endif()
      set(in_block OFF)
      set(pending "")
      if(name STREQUAL "")
        continue()
      endif()
      if(name IN_LIST names)
        message(FATAL_ERROR "${readme}:${pending_line}: the snippet name '${name}' is used twice")
      endif()
      list(APPEND names "${name}")
      string(FIND "${users_text}" "snippets/${name}." used)
      if(used EQUAL -1)
        message(FATAL_ERROR "${readme}:${pending_line}: no file in ${users_dir} uses the snippet '${name}' "
                            "(snippets/${name}.inc or .txt): a README block nothing checks can rot")
      endif()
      set(directive "#line ${first} \"${readme}\"\n")
      foreach(var body code)
        string(REPLACE "<mcp-bs>" "\\" ${var} "${${var}}")
        string(REPLACE "<mcp-sc>" ";" ${var} "${${var}}")
        string(REPLACE "<mcp-lb>" "[" ${var} "${${var}}")
        string(REPLACE "<mcp-rb>" "]" ${var} "${${var}}")
      endforeach()
      _mcp_write_if_changed("${out_dir}/${name}.txt" "${body}")
      if(lang STREQUAL "cpp")
        _mcp_write_if_changed("${out_dir}/${name}.inc" "${directive}${code}")
        if(name MATCHES "^tutorial_")
          string(APPEND tutorial "${directive}${body}")
        endif()
      endif()
    endforeach()
    if(in_block)
      message(FATAL_ERROR "${readme}: a code block is not closed")
    endif()
  endforeach()
  set(all_includes "")
  foreach(line IN LISTS includes)
    string(APPEND all_includes "${line}\n")
  endforeach()
  string(REPLACE "<mcp-bs>" "\\" all_includes "${all_includes}")
  string(REPLACE "<mcp-lb>" "[" all_includes "${all_includes}")
  string(REPLACE "<mcp-rb>" "]" all_includes "${all_includes}")
  _mcp_write_if_changed("${out_dir}/includes.inc" "${all_includes}")
  _mcp_write_if_changed("${out_dir}/tutorial.cpp" "${tutorial}")
endfunction()
