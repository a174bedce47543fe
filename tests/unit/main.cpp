// The unit tests' main: Catch2's, plus one rule. The checks against the official MCP schema
// (test cases tagged [.official-schema], hidden from a plain run) need a file that lives beside the
// repository, not in it; run on their own ("mcp_tests [official-schema]", the ctest
// mcp_tests.official_schema) where that file is missing, they report themselves skipped (exit 77,
// ctest's SKIP_RETURN_CODE) with a line saying why, rather than pass or fail. The same for the Redis
// store's tests ([.redis], the ctest mcp_tests.redis) where hiredis or redis-server is missing.
#ifndef MCP_CATCH3
#define CATCH_CONFIG_RUNNER
#endif
#include "catch.hpp"

#include <fstream>
#include <iostream>
#include <string>

#ifdef MCP_REFERENCE_DIR
#include "official_schema.hpp"
#endif

#if MCP_TEST_REDIS
#include "redis_server.hpp"
#endif

// MCP_REFERENCE_DIR is defined for the unit tests; the hostile tests share this file, not the checks.
#ifdef MCP_REFERENCE_DIR
namespace {

// Whether the command line asks for the tests of `tag` and nothing else.
bool only_tests_of(const Catch::ConfigData& config, const std::string& tag) {
  if (config.testsOrTags.empty()) return false;
  for (const auto& spec : config.testsOrTags)
    if (spec != tag) return false;
  return true;
}

}  // namespace
#endif

int main(int argc, char* argv[]) {
  Catch::Session session;
  if (const int status = session.applyCommandLine(argc, argv); status != 0) return status;
#ifdef MCP_REFERENCE_DIR
  // The file official_schema.hpp reads.
  const std::string official_schema_file = test::reference_dir() + "/mcp-schema-2025-11-25.json";
  if (only_tests_of(session.configData(), "[official-schema]") && !std::ifstream(official_schema_file)) {
    std::cout << "SKIPPED: the official MCP schema " << official_schema_file
              << " is not there (it lives beside the repository, in ../shared/reference, or set "
                 "-DMCP_REFERENCE_DIR=... or the environment variable), so the replies were not checked against it\n";
    return 77;  // ctest SKIP_RETURN_CODE
  }
  if (only_tests_of(session.configData(), "[redis]")) {
#if MCP_TEST_REDIS
    const bool have_server = test::find_redis_server().has_value();
#else
    const bool have_server = false;
#endif
    if (!have_server) {
      std::cout << "SKIPPED: the Redis task store was not tested: it needs hiredis when building (Debian: "
                   "libhiredis-dev) and redis-server when running (Debian: redis-server)\n";
      return 77;
    }
  }
#endif
  return session.run();
}
