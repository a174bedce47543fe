#include <mcp/json.hpp>
#include <mcp/version.hpp>

#include <iostream>

int main() {
  auto request = mcp::json::parse(R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
  if (request.at("method") != "ping") return 1;
  std::cout << "mcp " << mcp::sdk_version << " speaks " << mcp::latest_protocol_version << "\n";
  return 0;
}
