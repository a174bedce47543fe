// mcp::server: what a server offers (info, tools, methods) and the one entry point every transport
// calls, handle(), which turns one incoming message into replies on the given channels.
#pragma once

#include <mcp/core/context.hpp>
#include <mcp/json/json.hpp>
#include <mcp/core/jsonrpc.hpp>
#include <mcp/core/detail/legacy_projection.hpp>
#include <mcp/transport/detail/mcp_headers.hpp>
#include <mcp/core/detail/request_state_seal.hpp>
#include <mcp/core/detail/stateless_rules.hpp>
#include <mcp/core/detail/tool_call.hpp>
#include <mcp/core/detail/uri_template.hpp>
#include <mcp/core/metrics.hpp>
#include <mcp/core/prompt.hpp>
#include <mcp/core/resource.hpp>
#include <mcp/core/session.hpp>
#include <mcp/tools/tool_options.hpp>
#include <mcp/transport/transport.hpp>
#include <mcp/version.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {
inline namespace v0 {

// serverInfo in the initialize result.
struct server_info {
  std::string name;
  std::string version;
  std::string title;
  std::string description;
  std::string website_url;
  json icons = nullptr;  // Icon[] or null
};

// Caching hints of 2026-07-28 results (ttlMs, cacheScope): how long a client or proxy may reuse
// a result, and whether it may share it across users ("public") or not ("private").
struct cache_hint {
  std::uint64_t ttl_ms = 0;
  std::string scope = "private";
};

struct server_options {
  std::string instructions;       // sent in the initialize result when not empty
  std::size_t page_size = 100;    // items per page of every list method
  std::size_t max_json_depth = 128;  // deeper messages are refused while reading (stack safety)
  coercion coerce = coercion::lossless;  // default policy for tool arguments; tools may override
  // Check tool results against their output schema, the same in every build: a result that breaks
  // it becomes an isError result ("a bug in the server") and a log line listing the violations.
  // Typed tools are checked only where a value could break it (a constraint such as mcp::minimum
  // on an output field); runtime-schema tools always.
  bool validate_output = true;
  // Where the server's own diagnostics go (handler exceptions, dropped messages). Never stdout.
  std::function<void(std::string_view)> log_sink;

  // Serve 2026-07-28 (stateless) requests beside the session era. false: a request's _meta version
  // claim is ignored and every client must initialize, as before 2026-07-28.
  bool serve_stateless = true;
  // 2026-07-28: the hints on server/discover, the list methods and resources/read, and per method
  // overrides, e.g. {{"tools/list", {60000, "public"}}}.
  cache_hint cache;
  std::map<std::string, cache_hint> cache_by_method;
  // 2026-07-28: the HMAC-SHA256 key that seals requestState between rounds of a multi-round call.
  // Empty: a random key per process. Give every process behind one endpoint the same key, so a
  // retry may land on any of them.
  std::string request_state_key;
  std::chrono::seconds request_state_ttl{600};
};

// A handler-independent description of one request method. Tools, resources and prompts are
// built on these; servers may add their own methods too.
struct method_handler {
  std::function<json(context&, const json& params)> call;
  bool slow = false;  // run on the session's executor rather than inline
};

// A tool's schemas given as JSON rather than derived from C++ types.
struct runtime_schema {
  json input;            // must be an object schema
  json output = nullptr; // optional object schema
};

// A registered tool, type-erased: what tools/list shows and how tools/call runs it.
struct tool_definition {
  std::string name;
  std::string title;
  std::string description;
  json input_schema;             // an object schema
  json output_schema = nullptr;  // object schema, or null
  annotations hints;
  json icons = nullptr;
  json meta = nullptr;
  // Returns a CallToolResult. Argument problems and handler failures are isError results, not throws.
  std::function<json(const json& arguments, context&)> invoke;
  // Optional, the same call answered as JSON text: the CallToolResult a 2025-era client receives
  // (after add_text_for_structured and project_call_result). Returns whether it is an error
  // result. Typed tools have one; the server uses it where it writes the reply as text.
  std::function<bool(const json& arguments, context&, std::string& out)> invoke_text;
  std::shared_ptr<detail::tool_stats> stats = std::make_shared<detail::tool_stats>();
  // to_json() for each era, filled once at registration for tools/list.
  json listed = nullptr;
  json listed_stateless = nullptr;

  // The Tool object; a 2025-era client gets an object output schema (see legacy_projection.hpp).
  json to_json(bool stateless = false) const;
};

// Throws definition_error naming the rule a tool name breaks (SEP-986: 1..64 characters of
// [A-Za-z0-9_.-]; 64 rather than 128 so every client's check accepts it).
void check_tool_name(std::string_view name);

class server {
 public:
  explicit server(server_info info, server_options options = {});
  server(const server&) = delete;
  server& operator=(const server&) = delete;

  const server_info& info() const { return info_; }
  const server_options& options() const { return options_; }

  // Registers a typed tool: the handler's argument type gives the input schema, its return type
  // the output schema. See tool.hpp for the handler shapes.
  template <class Handler>
  server& tool(std::string name, std::string description, Handler&& handler, tool_options options = {});
  // Registers a tool whose arguments are described by a JSON Schema known only at run time; the
  // handler receives the validated arguments as JSON.
  template <class Handler>
  server& tool(std::string name, std::string description, runtime_schema schema, Handler&& handler,
               tool_options options = {});

  // Registers a prepared tool. Throws definition_error for a bad or duplicate name.
  void add_tool(tool_definition tool);
  bool remove_tool(std::string_view name);
  std::vector<std::string> tool_names() const;
  // Counters of one tool (throws mcp::error with error_code::not_found for an unknown name).
  tool_metrics metrics(std::string_view tool_name) const;

  // Resources: one fixed URI, or a family named by a URI template. The handler takes nothing or
  // (context&); a template's handler first takes its variables, as a std::map<std::string,
  // std::string> or an MCP_STRUCT of strings. It returns std::string (text), mcp::blob (binary),
  // std::vector<json> (contents items as built by text_contents/blob_contents) or a reflected
  // value (sent as JSON text).
  template <class Handler>
  server& resource(resource_info info, Handler&& read);
  template <class Handler>
  server& resource_template(resource_template_info info, Handler&& read);
  bool remove_resource(std::string_view uri);
  // notifications/resources/updated to every session subscribed to `uri`.
  void resource_updated(const std::string& uri);

  // Prompts: the handler takes nothing, or an MCP_STRUCT of string fields (its arguments;
  // std::optional ones are not required), optionally followed by context&; it returns
  // std::string (one user message), std::vector<prompt_message> or prompt_result.
  template <class Handler>
  server& prompt(std::string name, std::string description, Handler&& handler, prompt_options options = {});
  bool remove_prompt(std::string_view name);

  // completion/complete for a prompt argument or a resource template variable.
  server& complete_prompt_argument(std::string prompt, std::string argument, completer fn);
  server& complete_template_variable(std::string uri_template, std::string variable, completer fn);

  // Adds or replaces a request method (e.g. a vendor extension). Built-in methods are set up the same way.
  void method(std::string name, method_handler handler);

  // The one entry point of the core. `message` is one parsed JSON-RPC message from the client of
  // `s`; replies and notifications about it go to `replies` (null: the session's own channel).
  void handle(const std::shared_ptr<session>& s, json message, std::shared_ptr<outbound> replies = nullptr);
  // Same, from raw text: text that is not JSON gets a -32700 reply, JSON nested deeper than
  // max_json_depth a -32600 one (too_deep_error()).
  void handle_text(const std::shared_ptr<session>& s, std::string_view text, std::shared_ptr<outbound> replies = nullptr);
  // Same, for a tools/call that detail::read_tool_call has already read from `text` (a transport
  // that looks at the message before handing it over reads it only once).
  void handle_call(const std::shared_ptr<session>& s, detail::tool_call call, std::string_view text,
                   std::shared_ptr<outbound> replies = nullptr);
  json too_deep_error() const;

  // ServerCapabilities, reflecting what is registered.
  json capabilities() const;

  // Sends a notification to every initialized session and to every 2026-07-28 listen stream that
  // asked for it (list_changed, resources/updated).
  void notify_all(const std::string& method, json params = nullptr);

  // 2026-07-28: the checks every stateless request passes before its handler runs, in the order
  // the spec gives: the _meta envelope (-32602), the protocol version (-32022), the method (-32601).
  // Transports with their own checks in between (HTTP headers) call it first.
  std::optional<protocol_error> check_stateless_request(std::string_view method, const json& params) const;
  // The server/discover result.
  json discover() const;
  // SEP-2243: the arguments of a tool that travel in Mcp-Param-* headers too (x-mcp-header).
  std::vector<detail::header_param> tool_header_params(std::string_view tool) const;
  // subscriptions/listen streams open now.
  std::size_t listeners_open();
  // Ends the listen streams of one connection (null: all of them) with their final result, as a
  // server does when it stops serving them (stdio: at end of input).
  void end_listeners(const session* owner = nullptr);

  void log_diagnostic(std::string_view text) const;

 private:
  json initialize(const std::shared_ptr<session>& s, const json& params);
  json list_tools(const json& params, bool stateless) const;
  json call_tool(context& ctx, const json& params) const;
  json run_tool(const tool_definition& tool, const json& arguments, context& ctx) const;
  // A tools/call of the usual shape on a 2025-era session, run without the message's tree and,
  // for typed tools, answered as text. False, before anything is sent, for what it does not cover.
  bool call_directly(const std::shared_ptr<session>& s, detail::tool_call& call, const std::shared_ptr<outbound>& replies);
  std::shared_ptr<const tool_definition> find_tool(std::string_view name) const;
  void run_request(const std::shared_ptr<session>& s, json id, std::string method, json params,
                   const std::shared_ptr<outbound>& replies);
  // Runs a handler (now, or on the session's executor when slow) and sends its reply.
  void dispatch(const std::shared_ptr<session>& s, std::shared_ptr<request_state> state, std::string method, json params,
                method_handler handler, std::shared_ptr<const client_state> client,
                std::shared_ptr<detail::input_round> round, const std::shared_ptr<outbound>& replies);
  // The error reply to a request whose handler threw; called in the catch block.
  json failure_reply(const request_state& state, const std::string& method) const;
  // The end of every request: no progress may follow, its id is free again, then (unless it was
  // cancelled) `send` sends the reply.
  template <class Send>
  static void finish_request(session& s, request_state& state, Send&& send);
  // Whether a request takes the 2026-07-28 path: its _meta claim decides, unless its connection
  // is pinned to an era (session::pin).
  bool serves_modern(const session& s, const std::string& method, const json& params) const;
  // The 2026-07-28 path (detail/server_stateless.hpp).
  void run_stateless_request(const std::shared_ptr<session>& s, json id, std::string method, json params,
                             const std::shared_ptr<outbound>& replies);
  json finish_stateless(const std::string& method, const json& params, json result) const;
  json input_required_result(const std::string& method, const json& params, detail::input_required asked,
                             const detail::input_round& round) const;
  void listen(const std::shared_ptr<session>& s, const std::shared_ptr<request_state>& state, const json& params,
              const std::shared_ptr<outbound>& replies);
  void prune_listeners();  // with listeners_mutex_ held
  void notify_listeners(const std::string& method, const json& params);
  json server_info_json() const;
  const cache_hint& cache_for(const std::string& method) const;
  void install_builtin_methods();
  void tools_changed();

  struct resource_entry {
    resource_info info;
    std::function<json(const std::string& uri, context&)> read;
  };
  struct template_entry {
    resource_template_info info;
    detail::uri_template pattern;
    std::function<json(const std::string& uri, const std::map<std::string, std::string>& vars, context&)> read;
  };
  struct prompt_entry {
    std::string name;
    json definition;  // the Prompt object of prompts/list
    std::function<json(const json& arguments, context&)> get;
  };
  void add_resource_entry(resource_entry entry);
  void add_template_entry(template_entry entry);
  void add_prompt_entry(prompt_entry entry);
  json list_resources(const json& params) const;
  json list_resource_templates(const json& params) const;
  json read_resource(context& ctx, const json& params) const;
  json subscription(context& ctx, const json& params, bool subscribe) const;
  json list_prompts(const json& params) const;
  json get_prompt(context& ctx, const json& params) const;
  json complete(const json& params) const;
  template <class Item, class Describe>
  json list_page(const std::vector<Item>& items, const json& params, const char* key, Describe describe) const;

  server_info info_;
  server_options options_;

  mutable std::shared_mutex registry_mutex_;
  std::map<std::string, method_handler, std::less<>> methods_;
  std::atomic<bool> builtin_tools_call_{true};  // false once method() replaced tools/call
  std::vector<std::shared_ptr<const tool_definition>> tools_;  // in registration order
  std::map<std::string, std::shared_ptr<const tool_definition>, std::less<>> tool_index_;  // by name
  bool has_tools_ = false;
  std::map<std::string, std::vector<detail::header_param>, std::less<>> header_params_;  // by tool, when any
  std::vector<std::shared_ptr<const resource_entry>> resources_;
  std::vector<std::shared_ptr<const template_entry>> templates_;
  std::vector<std::shared_ptr<const prompt_entry>> prompts_;
  std::map<std::string, completer> completers_;  // by detail::completer_key
  bool has_resources_ = false;
  bool has_prompts_ = false;

  std::mutex sessions_mutex_;
  std::vector<std::weak_ptr<session>> sessions_;

  // 2026-07-28 subscriptions/listen streams.
  struct listener {
    json id;
    json honored;  // the notifications filter as honoured
    std::weak_ptr<session> owner;  // a transport that drops its session ends its listeners
    std::shared_ptr<request_state> state;
    std::shared_ptr<outbound> out;
  };
  std::mutex listeners_mutex_;
  std::vector<listener> listeners_;
  std::unique_ptr<detail::state_sealer> sealer_;
};

}  // namespace v0
}  // namespace mcp

#include <mcp/core/impl/server.ipp>
#include <mcp/core/impl/stateless.ipp>
#include <mcp/core/impl/features.ipp>
