# Compiles one compile_fail case as a user's C++17 translation unit would be (-fsyntax-only) and
# prints what the compiler said; fails when the compiler does. A case that must not compile passes
# on its expected message (the ctest's PASS_REGULAR_EXPRESSION), whatever the exit status.
# Run with: cmake -DCXX=<compiler> -DINCLUDE_DIR=<repo>/include -DSOURCE=<case.cpp> -DFLAGS="..." -P this-file
separate_arguments(flags UNIX_COMMAND "${FLAGS}")
execute_process(COMMAND ${CXX} -std=c++17 -fsyntax-only -I${INCLUDE_DIR} ${flags} ${SOURCE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${SOURCE} does not compile")
endif()
