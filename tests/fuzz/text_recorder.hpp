// An outbound for the fuzzers that keeps every message as the bytes a transport writes, whichever
// sink the server chose (a tree or the result's text), so two runs can be compared byte for byte.
#pragma once

#include <mcp/json/detail/writer.hpp>
#include <mcp/transport/transport.hpp>

#include <string>
#include <string_view>
#include <vector>

class text_recorder final : public mcp::outbound {
 public:
  explicit text_recorder(bool takes_text) : takes_text_(takes_text) {}
  bool takes_text() const override { return takes_text_; }
  void send(const mcp::json& message) override { lines.push_back(mcp::detail::to_json_text(message)); }
  void send_result(const mcp::json& id, mcp::json result) override {
    lines.emplace_back();
    mcp::detail::write_response(id, result, lines.back());
  }
  void send_result_text(const mcp::json& id, std::string_view result) override {
    lines.emplace_back();
    mcp::detail::write_response_text(id, result, lines.back());
  }
  std::vector<std::string> lines;

 private:
  const bool takes_text_;
};
