// Precompiled for the test targets: what nearly every test file includes, the SDK's umbrella
// headers among them (with asio, valijson and nlohmann/json). Parsing them was half of each test
// file's compile time. CMake rebuilds the PCH when one of them changes, as it rebuilds the files.
#pragma once
#include "catch.hpp"
#include <mcp/mcp.hpp>
#include <mcp/testing.hpp>
#include <mcp/transport/http.hpp>
#include <nlohmann/json.hpp>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>
