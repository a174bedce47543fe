# Finds the SDK's dependencies. Shared by the build tree and by the installed mcpConfig.cmake, so a
# consumer finds exactly what the SDK was built against. In the build tree a missing dependency
# stops configuring; for find_package(mcp) (MCP_DEPENDENCIES_SOFT set by mcpConfig.cmake) it only
# says why in MCP_MISSING_DEPENDENCY and returns, so that find_package(mcp QUIET) reports "not found".

macro(_mcp_missing message)
  if(MCP_DEPENDENCIES_SOFT)
    set(MCP_MISSING_DEPENDENCY "${message}")
    return()
  endif()
  message(FATAL_ERROR "${message}")
endmacro()

# nlohmann/json ships a package config (Debian: nlohmann-json3-dev). Not find_dependency: in the
# SDK's own build it would only return from this file and leave a confusing error for later.
if(NOT TARGET nlohmann_json::nlohmann_json)
  find_package(nlohmann_json 3.10 CONFIG QUIET)
  if(NOT nlohmann_json_FOUND)
    _mcp_missing("mcp: nlohmann_json >= 3.10 not found. On Debian: apt-get install nlohmann-json3-dev")
  endif()
endif()

# Standalone asio and valijson are header-only. Debian ships no usable config for asio, so look
# for the header and wrap it in an imported target.
if(NOT TARGET mcp_dep::asio)
  find_path(MCP_ASIO_INCLUDE_DIR asio.hpp)
  if(NOT MCP_ASIO_INCLUDE_DIR)
    _mcp_missing("mcp: standalone asio (asio.hpp) not found. On Debian: apt-get install libasio-dev")
  endif()
  add_library(mcp_dep::asio INTERFACE IMPORTED)
  set_target_properties(mcp_dep::asio PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${MCP_ASIO_INCLUDE_DIR}"
    INTERFACE_COMPILE_DEFINITIONS ASIO_STANDALONE)
  find_package(Threads REQUIRED)
  set_property(TARGET mcp_dep::asio APPEND PROPERTY INTERFACE_LINK_LIBRARIES Threads::Threads)
  if(WIN32)  # asio's sockets on Windows: Winsock
    set_property(TARGET mcp_dep::asio APPEND PROPERTY INTERFACE_LINK_LIBRARIES ws2_32 mswsock)
  endif()
endif()

if(NOT TARGET mcp_dep::valijson)
  find_path(MCP_VALIJSON_INCLUDE_DIR valijson/validator.hpp)
  if(NOT MCP_VALIJSON_INCLUDE_DIR)
    _mcp_missing("mcp: valijson (valijson/validator.hpp) not found. On Debian: apt-get install libvalijson-dev")
  endif()
  add_library(mcp_dep::valijson INTERFACE IMPORTED)
  set_target_properties(mcp_dep::valijson PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${MCP_VALIJSON_INCLUDE_DIR}")
endif()
