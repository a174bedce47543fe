# MCP_SANITIZE: a comma-separated -fsanitize= list ("address,undefined", "thread", ...) applied to
# every target defined after this file is included in the same directory tree (the examples, the
# tests and mcp::compiled, the library the unit tests link), never to the mcp interface target.
# UBSan findings abort the run rather than scroll by, so a test that triggers one fails.
if(MCP_SANITIZE)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    message(FATAL_ERROR "mcp: MCP_SANITIZE needs GCC or Clang")
  endif()
  if(MCP_SANITIZE MATCHES "thread" AND MCP_SANITIZE MATCHES "address")
    message(FATAL_ERROR "mcp: MCP_SANITIZE: thread and address cannot be combined")
  endif()
  set(_mcp_sanitize_flags -fsanitize=${MCP_SANITIZE} -fno-omit-frame-pointer)
  # Line tables, which the reports' traces need, unless the build type already asks for -g of some
  # level (the presets ask for -g1: full -g costs a tenth more compile time and adds nothing to them).
  string(TOUPPER "${CMAKE_BUILD_TYPE}" _mcp_build_type)
  if(NOT "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${_mcp_build_type}}" MATCHES "(^| )-g")
    list(APPEND _mcp_sanitize_flags -g1)
  endif()
  if(MCP_SANITIZE MATCHES "undefined")
    list(APPEND _mcp_sanitize_flags -fno-sanitize-recover=undefined)
  endif()
  add_compile_options(${_mcp_sanitize_flags})
  add_link_options(-fsanitize=${MCP_SANITIZE})
  message(STATUS "mcp: tests and examples built with -fsanitize=${MCP_SANITIZE}")
endif()
