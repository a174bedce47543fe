// Checks messages against the official MCP JSON schema of a protocol revision (the file lives in
// shared/reference beside the repo; MCP_REFERENCE_DIR points there, and the environment variable of
// that name overrides it at run time). Only test cases tagged [.official-schema] use it: they run
// on their own (ctest mcp_tests.official_schema), which reports itself skipped where the file is
// missing (tests/unit/main.cpp); a check that runs without it fails, which the ctest
// mcp_tests.official_schema_absent holds to.
#pragma once

#include <mcp/json/json.hpp>

#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

namespace test {

// The folder holding mcp-schema-<revision>.json: the environment's MCP_REFERENCE_DIR when set, so
// that one build can be run against a folder without the files, else the configured one.
inline std::string reference_dir() {
  const char* from_environment = std::getenv("MCP_REFERENCE_DIR");
  return from_environment ? from_environment : MCP_REFERENCE_DIR;
}

class official_schema {
 public:
  // nullptr when the reference file is not there (a checkout without shared/).
  static const official_schema* revision(const std::string& version) {
    static std::mutex mutex;
    static std::map<std::string, std::unique_ptr<official_schema>> cache;
    std::lock_guard lock(mutex);
    auto& slot = cache[version];
    if (!slot) {
      std::ifstream in(reference_dir() + "/mcp-schema-" + version + ".json");
      if (!in) return nullptr;
      slot.reset(new official_schema(mcp::json::parse(in)));
    }
    return slot.get();
  }

  // Empty when `value` is a valid instance of the named definition, else valijson's complaints.
  std::string check(const mcp::json& value, const std::string& definition) const {
    const valijson::Schema* compiled = compiled_for(definition);
    valijson::Validator validator;
    valijson::ValidationResults results;
    valijson::adapters::NlohmannJsonAdapter target(value);
    if (validator.validate(*compiled, target, &results)) return {};
    std::string out;
    valijson::ValidationResults::Error e;
    while (results.popError(e)) {
      std::string path;
      for (auto& c : e.context) path += c;
      out += path + ": " + e.description + "\n";
    }
    return out.empty() ? "invalid" : out;
  }

 private:
  explicit official_schema(mcp::json doc) : doc_(std::move(doc)) {}

  const valijson::Schema* compiled_for_unlocked(const std::string& definition) const {
    auto it = compiled_.find(definition);
    if (it != compiled_.end()) return it->second.get();
    mcp::json root = doc_;
    root.erase("$schema");  // valijson reads draft-07; the definitions use only what both drafts share
    root["$ref"] = "#/$defs/" + definition;
    roots_[definition] = root;
    auto schema = std::make_unique<valijson::Schema>();
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    valijson::adapters::NlohmannJsonAdapter adapter(roots_[definition]);
    parser.populateSchema(adapter, *schema);
    return (compiled_[definition] = std::move(schema)).get();
  }
  const valijson::Schema* compiled_for(const std::string& definition) const {
    std::lock_guard lock(mutex_);
    return compiled_for_unlocked(definition);
  }

  mcp::json doc_;
  mutable std::mutex mutex_;
  mutable std::map<std::string, std::unique_ptr<valijson::Schema>> compiled_;
  mutable std::map<std::string, mcp::json> roots_;
};

// CHECKs that `value` is a valid `definition` of the 2025-11-25 schema; fails without the schema.
#define CHECK_OFFICIAL(value, definition)                                                              \
  do {                                                                                                 \
    auto* official = ::test::official_schema::revision("2025-11-25");                                 \
    if (!official) FAIL("official schema not found in " << ::test::reference_dir() << ": " << (value).dump()); \
    std::string complaints = official->check((value), (definition));                                   \
    INFO(definition << " " << (value).dump() << "\n" << complaints);                                   \
    CHECK(complaints.empty());                                                                         \
  } while (0)

}  // namespace test
