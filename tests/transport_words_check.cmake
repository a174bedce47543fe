# Transports move messages and never know what a message means: no file of include/mcp/transport
# (comments included) names a call's arguments or the tools/call method. Shows the check can fail:
# a copy of the folder with one such word added must fail it.
# Run with: cmake -DREPO=<repository root> -DWORK_DIR=<scratch dir> -P transport_words_check.cmake
cmake_minimum_required(VERSION 3.16)

# The files of `dir` that name what a transport must not know, into `out`.
function(words_in dir out)
  file(GLOB_RECURSE files "${dir}/*")
  set(found "")
  foreach(f IN LISTS files)
    file(STRINGS "${f}" hits REGEX "[Aa][Rr][Gg][Uu][Mm][Ee][Nn][Tt]|tools/call")
    foreach(h IN LISTS hits)
      string(STRIP "${h}" h)
      list(APPEND found "${f}: ${h}")
    endforeach()
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

words_in("${REPO}/include/mcp/transport" found)
if(found)
  string(REPLACE ";" "\n  " found "${found}")
  message(FATAL_ERROR "a transport names a call's arguments or tools/call:\n  ${found}")
endif()

file(REMOVE_RECURSE "${WORK_DIR}")
file(COPY "${REPO}/include/mcp/transport" DESTINATION "${WORK_DIR}")
file(APPEND "${WORK_DIR}/transport/stdio.hpp" "// reads the arguments\n")
words_in("${WORK_DIR}/transport" found)
if(NOT found)
  message(FATAL_ERROR "the check found nothing in a copy that names the arguments: it cannot fail")
endif()
message(STATUS "no transport names a call's arguments or tools/call")
