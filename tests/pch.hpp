// Precompiled for the test targets: the heavy third-party headers every test TU includes.
// (Not the SDK's own headers: a PCH must not go stale while they are edited.)
#pragma once
#include "catch.hpp"
#include <nlohmann/json.hpp>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>
