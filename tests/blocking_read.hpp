// The whole answer of an mcp::http::blocking_writer, for tests that mount the handler without a
// listener: the body, or a stream read until it ends (5 s at most, else the test fails).
#pragma once

#include "catch.hpp"

#include <mcp/transport/http_handler.hpp>

#include <chrono>
#include <string>

namespace test {

inline std::string read_all(mcp::http::blocking_writer& w) {
  std::string out = w.wait_head().body;
  if (!w.streaming()) return out;
  for (int i = 0; i < 500; ++i)
    if (w.pull(out, std::chrono::milliseconds(10)) == mcp::http::blocking_writer::pulled::ended) return out;
  FAIL("the stream did not end");
  return out;
}

}  // namespace test
