// The compile-time floor: only the headers of the SDK's dependencies, as the SDK includes them.
// The benchmark compares examples/notes/main.cpp against this translation unit.
#include <asio.hpp>
#include <nlohmann/json.hpp>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

int main() { return 0; }
