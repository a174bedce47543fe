# Runs the README's build line for people without CMake (the snippet without_cmake, taken out of
# README.md at configure time as snippets/without_cmake.txt) on the README's tutorial (its
# tutorial_* blocks in order, snippets/tutorial.cpp), word for word except the include path, then
# serves one session of the program it built over a pipe and checks the replies.
# Run with: cmake -DSNIPPETS=<dir> -DINCLUDE_DIR=<repo>/include -DWORK_DIR=<scratch dir> [-DSNIPPET=<name>]
#           -P without_cmake.cmake
# SNIPPET (default without_cmake) names the block; its lines run as one sh script (-e).
# Prints "SKIPPED: ..." (ctest SKIP_REGULAR_EXPRESSION) when the README's compiler is not installed.
cmake_minimum_required(VERSION 3.16)

if(NOT SNIPPET)
  set(SNIPPET without_cmake)
endif()
file(READ "${SNIPPETS}/${SNIPPET}.txt" script)
if(NOT script MATCHES "g\\+\\+ [^\n]*-I/path/to/mcp/include[^\n]*notes\\.cpp")
  message(FATAL_ERROR "The README's ${SNIPPET} block has no 'g++ ... -I/path/to/mcp/include ... notes.cpp' line any "
                      "more:\n${script}\nUpdate tests/readme/without_cmake.cmake with it.")
endif()
find_program(gxx g++)
if(NOT gxx)
  message("SKIPPED: g++ is not installed, so the README's build line was not run")
  return()
endif()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
configure_file("${SNIPPETS}/tutorial.cpp" "${WORK_DIR}/notes.cpp" COPYONLY)
string(REPLACE "/path/to/mcp/include" "${INCLUDE_DIR}" script "${script}")
file(WRITE "${WORK_DIR}/build.sh" "${script}")
message(STATUS "in ${WORK_DIR}:\n${script}")
execute_process(COMMAND sh -e build.sh WORKING_DIRECTORY "${WORK_DIR}" RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "The README's build lines failed (${rc}):\n${out}")
endif()

# One session: initialize, a note, a refusal, a search; end of input ends the server.
file(WRITE "${WORK_DIR}/session.jsonl"
  [[{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"readme","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"create_note","arguments":{"title":"Groceries","body":"milk"}}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"create_note","arguments":{"title":"ab","body":"x","vis":"public"}}}
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"search_notes","arguments":{"query":"milk"}}}
]])
execute_process(COMMAND "${WORK_DIR}/notes" INPUT_FILE "${WORK_DIR}/session.jsonl" RESULT_VARIABLE rc
                OUTPUT_VARIABLE replies ERROR_VARIABLE log TIMEOUT 60)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "The tutorial's server exited with ${rc}.\nstdout:\n${replies}\nstderr:\n${log}")
endif()
# Each reply on its line, in any key order: its id, then what the README says it holds (<...> is
# anything on the same line).
foreach(expected
    [=["id":1,<...>"serverInfo":{"name":"notes","version":"1.0.0"}]=]
    [=["id":2,<...>"content":\[{"text":"Created note 'Groceries'.","type":"text"}\]]=]
    [=["id":3,<...>"text":"Invalid arguments for tool 'create_note' \(2 problems\)<...>"isError":true]=]
    [=["id":4,<...>"structuredContent":{"notes":\["Groceries: milk"\]}]=])
  string(REPLACE "<...>" "[^\n]*" pattern "${expected}")
  if(NOT replies MATCHES "${pattern}")
    message(FATAL_ERROR "No reply matches ${expected}\nstdout:\n${replies}\nstderr:\n${log}")
  endif()
endforeach()
message(STATUS "The README's build line built the tutorial, and it answered as the README says")
