# The notes example, built for Windows, over stdio under Wine: protocol bytes only on stdout, lines
# ending in "\n" (not "\r\n": stdin and stdout are in binary mode), a note stored and found again
# by a second process. Run with: cmake -DWINE=... -DNOTES=notes.exe -DWORK_DIR=... -P notes_stdio.cmake
cmake_minimum_required(VERSION 3.16)
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(store "${WORK_DIR}/notes.json")

# Runs the server on `requests` (one JSON-RPC message per line) and leaves its stdout in `out`.
function(serve requests out)
  file(WRITE "${WORK_DIR}/requests.jsonl" "${requests}")
  execute_process(COMMAND "${WINE}" "${NOTES}" --store "${store}" INPUT_FILE "${WORK_DIR}/requests.jsonl"
                  OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr RESULT_VARIABLE rc TIMEOUT 120)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "notes.exe exited with '${rc}'; stderr:\n${stderr}")
  endif()
  string(FIND "${stdout}" "\r" cr)
  if(NOT cr EQUAL -1)
    message(FATAL_ERROR "a carriage return on stdout: stdout is not in binary mode:\n${stdout}")
  endif()
  set(${out} "${stdout}" PARENT_SCOPE)
endfunction()

set(init [[{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"windows-test","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
]])
set(create [[{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"create_note","arguments":{"title":"Groceries","body":"milk and eggs"}}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"create_note","arguments":{"title":"ab","body":"x"}}}
]])
serve("${init}${create}" first)
message("first run:\n${first}")
string(REGEX REPLACE "[^\n]" "" newlines "${first}")  # (not a list: JSON's brackets bend CMake lists)
string(LENGTH "${newlines}" count)
if(NOT count EQUAL 3)
  message(FATAL_ERROR "expected 3 replies, one per line, got ${count}")
endif()
if(NOT first MATCHES "\"id\":2[^\n]*Created note 'Groceries'")
  message(FATAL_ERROR "create_note did not answer as expected")
endif()
if(NOT first MATCHES "\"id\":3[^\n]*\"isError\":true" OR NOT first MATCHES "minLength")
  message(FATAL_ERROR "a title too short was not refused with its reason")
endif()
if(NOT EXISTS "${store}")
  message(FATAL_ERROR "the store ${store} was not written")
endif()

set(search [[{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_notes","arguments":{"query":"eggs"}}}
]])
serve("${init}${search}" second)
message("second run:\n${second}")
if(NOT second MATCHES "\"id\":2[^\n]*Groceries")
  message(FATAL_ERROR "a second process did not find the note the first one stored")
endif()
