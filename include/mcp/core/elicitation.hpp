// Elicitation's plain parts, which the engine uses: what the user did (elicit_action), an answer
// that does not fit (elicitation_error), and URL mode (url_elicitation_required). The typed form,
// ctx.elicit<T>(), is ext/elicitation.hpp (it needs reflection; <mcp/mcp.hpp> includes it).
//
// URL mode: ctx.elicit_url(message, url, id) asks the client to open `url`; the answer says only
// whether the user agreed. When the out-of-band step is done, server::complete_elicitation(id)
// tells the client (2025-11-25). A tool that cannot go on until the user has visited a URL may
// throw url_elicitation_required instead (JSON-RPC error -32042 for a 2025-11-25 client; a
// 2026-07-28 client gets the same as an input_required round with URL-mode requests).
#pragma once

#include <mcp/core/content.hpp>
#include <mcp/core/jsonrpc.hpp>
#include <mcp/error.hpp>
#include <mcp/json/detail/writer.hpp>
#include <mcp/json/json.hpp>

#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace mcp {
inline namespace v0 {

enum class elicit_action { accept, decline, cancel };

inline const char* to_string(elicit_action a) {
  switch (a) {
    case elicit_action::accept: return "accept";
    case elicit_action::decline: return "decline";
    case elicit_action::cancel: return "cancel";
  }
  return "cancel";
}

// The client's answer to an elicitation does not fit what was asked (content that breaks the
// requested schema, an unknown action). A tool answers it as an isError result; elsewhere it is
// an internal error.
struct elicitation_error : tool_error {
  explicit elicitation_error(const std::string& message) : tool_error(error_code::invalid_answer, message) {}
};

// One URL-mode elicitation: what to tell the user, where to send them, and the id that
// server::complete_elicitation later names (unique within the server; the client treats it as opaque).
struct url_elicitation {
  std::string message;
  std::string url;
  std::string elicitation_id;
};

// Thrown by a handler that cannot go on until the user has completed the URL-mode elicitations
// listed (JSON-RPC error -32042, data.elicitations). For a 2026-07-28 request, which has no such
// error, the server answers an input_required round asking the same in URL mode instead; the
// client's retry runs the handler again, which decides from its own records whether the user is
// done. Only send it to a client that declared elicitation.url (ctx.client_supports_url_elicitation()).
class url_elicitation_required : public protocol_error {
 public:
  explicit url_elicitation_required(std::vector<url_elicitation> list,
                                    const std::string& message = "This request needs the user to complete an action "
                                                                 "at a URL first")
      : protocol_error(error_code::url_elicitation_required, message, data_of(list)), list_(std::move(list)) {}
  const std::vector<url_elicitation>& elicitations() const { return list_; }

 private:
  static json data_of(const std::vector<url_elicitation>& list) {
    json items = json::array();
    for (const auto& e : list)
      items.push_back({{"mode", "url"}, {"message", e.message}, {"url", e.url}, {"elicitationId", e.elicitation_id}});
    return json{{"elicitations", std::move(items)}};
  }
  std::vector<url_elicitation> list_;
};

namespace detail {

inline elicit_action elicit_action_of(const json& answer, const std::string& message) {
  const json* action = answer.is_object() && answer.contains("action") ? &answer["action"] : nullptr;
  if (action && *action == "accept") return elicit_action::accept;
  if (action && *action == "decline") return elicit_action::decline;
  if (action && *action == "cancel") return elicit_action::cancel;
  throw elicitation_error("The client's answer to the question \"" + message +
                          "\" has no valid action (accept, decline or cancel): " + detail::render(answer, 120));
}

}  // namespace detail

}  // namespace v0
}  // namespace mcp
