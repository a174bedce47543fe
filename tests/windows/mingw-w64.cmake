# Cross-compiles for 64-bit Windows with MinGW-w64 from Debian (g++-mingw-w64-x86-64-posix: the
# posix thread model, which std::thread needs) and runs what it built under Wine (wine64).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
# Nothing of the host's /usr may be searched for libraries or headers: its glibc headers would
# shadow MinGW's. The header-only dependencies come in through a folder of their own (CMakeLists.txt).
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# One .exe with no MinGW DLLs beside it: what a user would ship, and what Wine runs without setup.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
find_program(MCP_WINE NAMES wine64 wine PATHS /usr/lib/wine NO_CMAKE_FIND_ROOT_PATH)
if(MCP_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${MCP_WINE})
endif()
