# Compiles one compile_fail case as a user's C++17 translation unit would be (-fsyntax-only) and
# prints what the compiler said. A control case (EXPECT empty) passes when it compiles. Any other
# passes when it does not compile and its FIRST error line matches EXPECT (a regex: the message a
# user reads first must name the fix, not the tenth), and, when ERRORS is given, when the compiler
# reports that many errors (one mistake, one message).
# Run with: cmake -DCXX=<compiler> -DINCLUDE_DIR=<repo>/include -DSOURCE=<case.cpp> -DFLAGS="..."
#                 [-DEXPECT=<regex>] [-DERRORS=<n>] -P this-file
separate_arguments(flags UNIX_COMMAND "${FLAGS}")
execute_process(COMMAND ${CXX} -std=c++17 -fsyntax-only -I${INCLUDE_DIR} ${flags} ${SOURCE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(NOT DEFINED EXPECT OR EXPECT STREQUAL "")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${SOURCE} does not compile")
  endif()
  return()
endif()
if(rc EQUAL 0)
  message(FATAL_ERROR "${SOURCE} compiles, but must not")
endif()
# One list item per line (a ';' in the output would split an item: the cases write '.' for it).
string(REPLACE ";" "." text "${out}")
string(REPLACE "\n" ";" lines "${text}")
set(first "")
set(count 0)
foreach(line IN LISTS lines)
  # g++ and clang: "file:line:col: error: ...", "fatal error: ...", or "error: ..." without a place.
  if(line MATCHES "(^|: )(fatal )?error: ")
    math(EXPR count "${count} + 1")
    if(first STREQUAL "")
      set(first "${line}")
    endif()
  endif()
endforeach()
if(NOT first MATCHES "${EXPECT}")
  message(FATAL_ERROR "the first error does not say what this case expects (${EXPECT}):\n${first}")
endif()
if(DEFINED ERRORS AND NOT ERRORS STREQUAL "" AND NOT count EQUAL ERRORS)
  message(FATAL_ERROR "${count} errors where this case expects ${ERRORS}")
endif()
message("first error as expected; ${count} error(s)")
