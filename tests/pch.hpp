// Precompiled for the test targets: the heavy headers every test TU includes.
#pragma once
#include "catch.hpp"
#include <mcp/mcp.hpp>
