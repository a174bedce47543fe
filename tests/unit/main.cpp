// Catch2 v2 needs one translation unit that defines main; v3 links Catch2WithMain instead.
#ifndef MCP_CATCH3
#define CATCH_CONFIG_MAIN
#endif
#include "catch.hpp"
