// Catch2 v2 (Debian's single header) or v3, whichever the build found.
#pragma once
#ifdef MCP_CATCH3
#include <catch2/catch_all.hpp>
#else
#include <catch2/catch.hpp>
#endif
