// mcp::server: what a server offers (its info and options, tools, resources, prompts, custom
// methods) and the notifications it sends about them. Transports serve it through
// mcp::connection (core/connection.hpp), one per client connection.
#pragma once

#include <mcp/config.hpp>

#include <mcp/core/context.hpp>
#include <mcp/core/detail/large_call_turns.hpp>
#include <mcp/core/detail/legacy_projection.hpp>
#include <mcp/core/detail/mcp_headers.hpp>
#include <mcp/core/detail/ordered_sender.hpp>
#include <mcp/core/detail/reply.hpp>
#include <mcp/core/detail/request_params.hpp>
#include <mcp/core/detail/request_state_seal.hpp>
#include <mcp/core/detail/scopes.hpp>
#include <mcp/core/detail/session.hpp>
#include <mcp/core/detail/stateless_rules.hpp>
#include <mcp/core/detail/uri_template.hpp>
#include <mcp/core/jsonrpc.hpp>
#include <mcp/core/message.hpp>
#include <mcp/core/middleware.hpp>
#include <mcp/core/metrics.hpp>
#include <mcp/core/prompt.hpp>
#include <mcp/core/replay_guard.hpp>
#include <mcp/core/request_stream.hpp>
#include <mcp/core/resource.hpp>
#include <mcp/core/tool_definition.hpp>
#include <mcp/validation/coercion.hpp>
#include <mcp/core/task_seam.hpp>
#include <mcp/json/json.hpp>
#include <mcp/core/port.hpp>
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
#include <type_traits>
#include <vector>

// server::tool's message where <mcp/tools/tool.hpp> is not included (a macro: both overloads say it),
// and resource's, resource_template's and prompt's where <mcp/tools/features.hpp> is not.
#define MCP_DETAIL_TOOL_HEADER_MISSING                                                                  \
  "mcp: srv.tool(...) is defined in <mcp/tools/tool.hpp>: #include <mcp/mcp.hpp> (or <mcp/tools/tool.hpp>) " \
  "in this file"
#define MCP_DETAIL_FEATURES_HEADER_MISSING(call)                                                  \
  "mcp: " call "(...) is defined in <mcp/tools/features.hpp>: #include <mcp/mcp.hpp> (or "          \
  "<mcp/tools/features.hpp>) in this file"

namespace mcp {
inline namespace v0 {

// serverInfo in the initialize result (2025) and in server/discover's _meta (2026-07-28); every
// other 2026-07-28 result names only the name and version.
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
  // Called from any thread, several at once.
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
  // Where the requestState tokens already used are remembered (core/replay_guard.hpp); null: this
  // process's memory. Processes behind one endpoint that share a guard (mcp::redis_replay_guard)
  // refuse a token replayed to any of them.
  std::shared_ptr<replay_guard> request_state_guard;
  // Tool calls whose arguments are 256 KiB of JSON or more run at most this many at once (0: one per
  // core); another waits up to 100 ms for its turn, then runs anyway (core/detail/large_call_turns.hpp).
  std::size_t large_calls_at_once = 0;
};

// A 2025-era session as it ends (server::on_session_end): one that was initialized, over a
// connection that closed (stdio at end of input, HTTP at DELETE, expiry or shutdown).
struct session_summary {
  std::chrono::steady_clock::duration duration{};  // from the connection's start to its end
  std::string protocol_version;                     // negotiated at initialize
  std::string network_transport;                    // connection::set_transport's, maybe empty
  std::string session_id;                           // the transport's, maybe empty
};

// A handler-independent description of one request method. Tools, resources and prompts are
// built on these; servers may add their own methods too. `call` runs concurrently with other
// handlers (see server).
struct method_handler {
  std::function<json(context&, const json& params)> call;
  bool slow = false;  // run on the connection's executor rather than inline
};

namespace detail {

// How tools/call runs a registered tool: its CallToolResult goes into the sink (a tree or text).
using tool_runner = std::function<void(const json& arguments, context&, result_sink&)>;
// A tool's road from text, a mode of the tree road: `read` reads the object that the arguments'
// text starts with (the bytes it took, or 0 when it gave up before anything ran: the tool_runner
// then takes the tree), and `run` runs the handler on what it read. A typed tool reads straight
// into the handler's argument type (proven equal to the tree road by
// tests/unit/test_typed_reader.cpp); any other tool reads the tree, into one kept from an earlier
// call, and runs its tool_runner on it (server::add_tool).
struct text_road {
  std::function<std::size_t(std::string_view text, std::shared_ptr<const void>& arguments)> read;
  std::function<void(const void* arguments, context&, result_sink&)> run;
};

// A registered tool as the server keeps it: the definition, its runner, its counters, and what
// tools/list and the HTTP header checks need of it, prepared once.
struct registered_tool {
  tool_definition def;
  tool_runner run;
  text_road from_text;
  std::shared_ptr<tool_stats> stats;
  json listed;            // def.to_json() for 2025-era clients, derived schemas in declaration order
  json listed_stateless;  // and for 2026-07-28 ones
  std::vector<header_param> header_params;  // SEP-2243 x-mcp-header arguments
};

// A typed tool's schemas as they were derived, properties in declaration order (schema_of_ordered's,
// which live as long as the program); null where a schema came as JSON, whose order is lost.
struct ordered_schemas {
  const nlohmann::ordered_json* input = nullptr;
  const nlohmann::ordered_json* output = nullptr;
};

// A method as the core runs it: the handler answers into a reply (a tree, or text where allowed).
struct method_entry {
  std::function<void(context&, request_params& params, reply&)> call;
  bool slow = false;
};

// Where the SDK's own diagnostics go (handler exceptions, dropped messages): the options'
// log_sink, else stderr.
void log_diagnostic(const server_options& options, std::string_view text);

struct server_access;

// Whether <mcp/tools/tool.hpp>, which holds the body of the typed server::tool, is included: it
// specialises this to true for every handler. Without it a call would be a declaration with no
// body (g++ and clang: "used but never defined", or a link error that names no header), so
// server::tool asserts it instead, naming the header.
template <class Handler, class = void>
struct typed_tools_included : std::false_type {};
// The same for <mcp/tools/features.hpp>: server::resource, resource_template and prompt.
template <class Handler, class = void>
struct features_included : std::false_type {};

}  // namespace detail

// A server: what it offers, and the notifications it sends about it. This is the API of the
// program that serves; transports reach it through mcp::connection.
//
// Threads: every member may be called from any thread at any time, also while requests are
// served (register or remove a tool, notify, read metrics). Handlers run concurrently: the stdio
// and HTTP transports run up to four at once (stdio_options::workers, http::options::workers), so
// whatever state handlers share needs its own synchronisation. The server must outlive its
// connections and transports; ~server first stops the task seam's runs (ext/tasks.hpp).
class server {
 public:
  explicit server(server_info info, server_options options = {});
  // Stops the task seam's runs (their handlers see ctx.cancelled()) and waits for them.
  ~server();
  server(const server&) = delete;
  server& operator=(const server&) = delete;

  const server_info& info() const { return info_; }
  const server_options& options() const { return options_; }

  // Registers a typed tool: the handler's argument type gives the input schema, its return type
  // the output schema. See tools/tool.hpp for the handler shapes; handlers run concurrently.
  template <class Handler>
  server& tool(std::string name, std::string description, Handler&& handler, tool_options options = {}) {
    static_assert(detail::typed_tools_included<Handler>::value, MCP_DETAIL_TOOL_HEADER_MISSING);
    if constexpr (detail::typed_tools_included<Handler>::value)
      return add_typed_tool<Handler>(std::move(name), std::move(description), std::forward<Handler>(handler),
                                     std::move(options));
    else
      return *this;
  }
  // Registers a tool whose arguments are described by a JSON Schema known only at run time; the
  // handler receives the validated arguments as JSON.
  template <class Handler>
  server& tool(std::string name, std::string description, runtime_schema schema, Handler&& handler,
               tool_options options = {}) {
    static_assert(detail::typed_tools_included<Handler>::value, MCP_DETAIL_TOOL_HEADER_MISSING);
    if constexpr (detail::typed_tools_included<Handler>::value)
      return add_runtime_tool<Handler>(std::move(name), std::move(description), std::move(schema),
                                       std::forward<Handler>(handler), std::move(options));
    else
      return *this;
  }

  // Registers a prepared tool. Throws definition_error for a bad or duplicate name.
  void add_tool(tool_definition tool);
  bool remove_tool(std::string_view name);
  std::vector<std::string> tool_names() const;
  // Counters of one tool (throws mcp::error with error_code::not_found for an unknown name).
  tool_metrics metrics(std::string_view tool_name) const;
  // Every tool's counters and latency histogram as Prometheus text (exposition format 0.0.4),
  // labelled by tool name; HTTP's /metrics serves it, its own counters after it.
  std::string metrics_text() const;
  // Adds text to metrics_text(), after the tools' counters: `text` is called on every scrape, from
  // the thread that reads the page, and must return whole Prometheus metric families (telemetry,
  // ext/telemetry.hpp, adds its histograms this way).
  server& metrics_source(std::function<std::string()> text);

  // Resources: one fixed URI, or a family named by a URI template. The handler takes nothing or
  // (context&); a template's handler first takes its variables, as a std::map<std::string,
  // std::string> or an MCP_STRUCT of strings. It returns std::string (text), mcp::blob (binary),
  // std::vector<json> (contents items as built by text_contents/blob_contents) or a reflected
  // value (sent as JSON text).
  template <class Handler>
  server& resource(resource_info info, Handler&& read) {
    static_assert(detail::features_included<Handler>::value, MCP_DETAIL_FEATURES_HEADER_MISSING("srv.resource"));
    if constexpr (detail::features_included<Handler>::value)
      return add_resource_handler<Handler>(std::move(info), std::forward<Handler>(read));
    else
      return *this;
  }
  template <class Handler>
  server& resource_template(resource_template_info info, Handler&& read) {
    static_assert(detail::features_included<Handler>::value,
                  MCP_DETAIL_FEATURES_HEADER_MISSING("srv.resource_template"));
    if constexpr (detail::features_included<Handler>::value)
      return add_template_handler<Handler>(std::move(info), std::forward<Handler>(read));
    else
      return *this;
  }
  bool remove_resource(std::string_view uri);
  // notifications/resources/updated to every session subscribed to `uri`.
  void resource_updated(const std::string& uri);

  // Prompts: the handler takes nothing, or an MCP_STRUCT of string fields (its arguments;
  // std::optional ones are not required), optionally followed by context&; it returns
  // std::string (one user message), std::vector<prompt_message> or prompt_result.
  template <class Handler>
  server& prompt(std::string name, std::string description, Handler&& handler, prompt_options options = {}) {
    static_assert(detail::features_included<Handler>::value, MCP_DETAIL_FEATURES_HEADER_MISSING("srv.prompt"));
    if constexpr (detail::features_included<Handler>::value)
      return add_prompt_handler<Handler>(std::move(name), std::move(description), std::forward<Handler>(handler),
                                         std::move(options));
    else
      return *this;
  }
  bool remove_prompt(std::string_view name);

  // completion/complete for a prompt argument or a resource template variable.
  server& complete_prompt_argument(std::string prompt, std::string argument, completer fn);
  server& complete_template_variable(std::string uri_template, std::string variable, completer fn);

  // Adds or replaces a request method (e.g. a vendor extension); replacing a built-in one (even
  // tools/call) replaces it for every client. Built-in methods are set up the same way.
  void method(std::string name, method_handler handler);

  // Adds a middleware at the end of the chain around every request (core/middleware.hpp): the
  // first added runs first. Requests already running keep the chain they started with.
  server& use(middleware m);

  // Hooks. on_notification: called for each notification a client sends with this method (after
  // the server's own handling of notifications/initialized and notifications/cancelled), e.g.
  // notifications/roots/list_changed; it runs on the connection's reading thread, so keep it short.
  // on_subscription: called when a client subscribes to (true) or unsubscribes from (false) a
  // resource URI. Each call adds a hook; hooks run in the order added.
  server& on_notification(std::string method, std::function<void(const json& params, const client_state& client)> fn);
  server& on_subscription(std::function<void(const std::string& uri, bool subscribed)> fn);
  // on_session_end: called once for every initialized 2025-era session when its connection closes,
  // on the thread that closes it. Each call adds a hook.
  server& on_session_end(std::function<void(const session_summary&)> fn);

  // notifications/message to every initialized 2025-era session whose level lets it through (a
  // 2026-07-28 client has no session: it gets logs inside its requests, through context::log).
  void log(log_level level, json data, const std::string& logger = {});

  // notifications/elicitation/complete for a URL-mode elicitation (context::elicit_url, or a
  // url_elicitation_required thrown by a handler) whose out-of-band step the user has finished,
  // sent to the 2025-11-25 session that asked (on stdio, the connection; on HTTP, the session's
  // GET stream). Returns false when no live session is waiting on that id (never asked, already
  // completed, declined, or the session ended). A 2026-07-28 client has no such notification.
  bool complete_elicitation(const std::string& elicitation_id);

  // Declares an extension in capabilities.extensions (initialize and server/discover) with its
  // settings; declaring a name again replaces its settings. Handlers ask whether the client
  // declared one with context::client_extension.
  server& extension(std::string name, json settings = json::object());
  // For extensions whose clients look for a capability of their own beside the built-in ones (the
  // events extension: capabilities.events): declares `name` with `value` in initialize (unless
  // `stateless_only`) and server/discover. Declaring a name again replaces it; the built-in names
  // (tools, resources, prompts, logging, completions, extensions, tasks) are refused.
  server& capability(std::string name, json value, bool stateless_only = false);

  // Sends a notification to every initialized session and to every 2026-07-28 listen stream that
  // asked for it (list_changed, resources/updated). Returns once each has been handed its
  // message; a client that does not read holds up only the thread that sends to it.
  void notify_all(const std::string& method, json params = nullptr);

  // For extensions (ext/tasks.hpp is one). The seam where tools/calls may leave their request:
  // set once, before any tool with a task mode is registered (such a registration is refused
  // without one); the server keeps it and stops it first when it goes.
  void set_task_seam(std::shared_ptr<task_seam> seam);
  // Sends `method` to every 2026-07-28 listen stream whose honoured notifications hold `value` in
  // their array `key` (e.g. "taskIds"), with `params()` (nullopt: send nothing), tagged with each
  // stream's subscription id. `params` runs once, with the streams' lock held, so what it reads is
  // at least as new as anything an earlier call sent.
  void notify_listen_streams(const std::string& key, const json& value, const std::string& method,
                             const std::function<std::optional<json>()>& params);

 private:
  friend class connection;
  friend class context;  // keep_open
  friend struct detail::server_access;

  // connection::close of an initialized session: the on_session_end hooks.
  void session_ended(const detail::session& s);
  // What a connection hands over: one message from the client of `s`, its replies to `replies`.
  void receive(const std::shared_ptr<detail::session>& s, message& m, const std::shared_ptr<outbound>& replies);
  // The checks a 2026-07-28 request passes before its handler runs (connection::check_stateless).
  std::optional<protocol_error> check_stateless(const message& m, const header_lookup* headers) const;
  // connection::check_access.
  std::optional<protocol_error> check_access(const message& m) const;
  // The _meta envelope (-32602), the protocol version (-32022), the method (-32601).
  std::optional<protocol_error> check_stateless_request(std::string_view method, const json& params) const;
  void log_diagnostic(std::string_view text) const { detail::log_diagnostic(options_, text); }
  // ServerCapabilities, reflecting what is registered; the server/discover result.
  json capabilities(bool stateless = false) const;
  json discover() const;

  void add_tool(tool_definition tool, detail::tool_runner run, std::shared_ptr<detail::tool_stats> stats,
                detail::ordered_schemas ordered = {}, detail::text_road from_text = {});
  // The bodies of the two server::tool, in tools/tool.hpp, and of resource, resource_template and
  // prompt, in tools/features.hpp.
  template <class Handler>
  server& add_typed_tool(std::string name, std::string description, Handler&& handler, tool_options options);
  template <class Handler>
  server& add_runtime_tool(std::string name, std::string description, runtime_schema schema, Handler&& handler,
                           tool_options options);
  template <class Handler>
  server& add_resource_handler(resource_info info, Handler&& read);
  template <class Handler>
  server& add_template_handler(resource_template_info info, Handler&& read);
  template <class Handler>
  server& add_prompt_handler(std::string name, std::string description, Handler&& handler, prompt_options options);
  // Refuses a Tool whose _meta links an app that is not a registered ui:// resource; call with
  // registry_mutex_ held.
  void check_app_link(const tool_definition& tool) const;
  json initialize(const std::shared_ptr<detail::session>& s, const json& params);
  json list_tools(const json& params, bool stateless, const identity* caller) const;
  void call_tool(context& ctx, detail::request_params& params, detail::reply& out) const;
  std::shared_ptr<task_seam> seam() const {
    std::shared_lock lock(registry_mutex_);
    return task_seam_;
  }
  std::shared_ptr<const detail::registered_tool> find_tool(std::string_view name) const;
  void run_request(const std::shared_ptr<detail::session>& s, json id, std::string method,
                   detail::request_params&& params, detail::message_origin origin,
                   const std::shared_ptr<outbound>& replies);
  // Runs a handler (now, or on the connection's executor when slow) and sends its reply.
  void dispatch(const std::shared_ptr<detail::session>& s, std::shared_ptr<detail::request_state> state,
                std::string method, detail::request_params&& params, std::shared_ptr<const detail::method_entry> handler,
                std::shared_ptr<const client_state> client, std::shared_ptr<detail::input_round> round,
                const std::shared_ptr<outbound>& replies);
  // The handler, inside the middleware chain when there is one.
  void run_handler(context& ctx, const std::string& method, detail::request_params& params,
                   const detail::method_entry& handler, detail::reply& out) const;
  // The error reply to a request whose handler threw; called in the catch block.
  json failure_reply(const detail::request_state& state, const std::string& method) const;
  // The end of every request: no progress may follow, its id is free again, then (unless it was
  // cancelled) `send` sends the reply.
  template <class Send>
  static void finish_request(detail::session& s, detail::request_state& state, Send&& send);
  // Whether a request takes the 2026-07-28 path: its _meta claim decides, unless its connection
  // is pinned to an era (session::pin).
  bool serves_modern(const detail::session& s, const std::string& method, const json& params) const;
  // Whether a message whose arguments are not checked yet reaches dispatch, which checks them.
  bool may_check_when_run(const detail::session& s, const message& m) const;
  // The 2026-07-28 path (impl/stateless.ipp).
  void run_stateless_request(const std::shared_ptr<detail::session>& s, json id, std::string method,
                             detail::request_params&& params, detail::message_origin origin,
                             const std::shared_ptr<outbound>& replies);
  json finish_stateless(const std::string& method, const json& params, json result) const;
  json input_required_result(const std::string& method, const json& params, detail::input_required asked,
                             const detail::input_round& round) const;
  void listen(const std::shared_ptr<detail::session>& s, const std::shared_ptr<detail::request_state>& state,
              const json& params, const std::shared_ptr<outbound>& replies);
  void prune_listeners();  // with listeners_mutex_ held
  // Lists a request kept open (context::keep_open), so that end_listeners ends it too.
  void keep_stream(const std::shared_ptr<request_stream>& stream);
  void notify_listeners(const std::string& method, const json& params);
  // Ends the listen streams of one connection (null: all of them), with their final result
  // (stdio: at end of input) or without (the connection is closed).
  void end_listeners(const detail::session* owner, bool final_result);
  std::size_t listeners_open();
  json server_info_json() const;      // the whole description: initialize, server/discover
  json server_identity_json() const;  // name and version: every other 2026-07-28 result
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
    std::vector<std::string> scopes;
    std::function<json(const json& arguments, context&)> get;
  };
  void add_resource_entry(resource_entry entry);
  void add_template_entry(template_entry entry);
  void add_prompt_entry(prompt_entry entry);
  json list_resources(const json& params, const identity* caller) const;
  json list_resource_templates(const json& params, const identity* caller) const;
  // The resource or template `uri` names (one of the two, or neither) and its scopes' verdict.
  std::optional<protocol_error> resource_access(const std::string& uri, const identity* caller) const;
  // The same for the prompt `name`, and for the template whose pattern is `uri_template`.
  std::optional<protocol_error> prompt_access(const std::string& name, const identity* caller) const;
  std::optional<protocol_error> template_access(const std::string& uri_template, const identity* caller) const;
  json read_resource(context& ctx, const json& params) const;
  json subscription(context& ctx, const json& params, bool subscribe) const;
  json list_prompts(const json& params, const identity* caller) const;
  json get_prompt(context& ctx, const json& params) const;
  json complete(const json& params, const identity* caller) const;
  template <class Item, class Describe>
  json list_page(const std::vector<Item>& items, const json& params, const char* key, Describe describe) const;

  // Reads a tools/call's arguments with the tool's typed reader while the message is read
  // (detail::arguments_decoder): transports give it to message::read (see there when).
  class arguments_reader final : public detail::arguments_decoder {
   public:
    explicit arguments_reader(const server& srv) : srv_(srv) {}
    std::size_t decode(std::string_view name, std::string_view text, detail::decoded_arguments& out) const override;

   private:
    const server& srv_;
  };

  server_info info_;
  server_options options_;
  arguments_reader arguments_reader_{*this};

  mutable std::shared_mutex registry_mutex_;
  std::shared_ptr<const std::vector<middleware>> middleware_;  // replaced whole by use()
  std::atomic<bool> has_middleware_{false};
  json extensions_ = json::object();
  json extra_capabilities_ = json::object();  // capability(): name -> {value, stateless_only}
  std::map<std::string, std::vector<std::function<void(const json&, const client_state&)>>, std::less<>>
      notification_hooks_;
  std::vector<std::function<void(const std::string&, bool)>> subscription_hooks_;
  std::vector<std::function<void(const session_summary&)>> session_end_hooks_;
  std::vector<std::function<std::string()>> metrics_sources_;
  std::map<std::string, std::shared_ptr<const detail::method_entry>, std::less<>> methods_;
  std::vector<std::shared_ptr<const detail::registered_tool>> tools_;  // in registration order
  std::map<std::string, std::shared_ptr<const detail::registered_tool>, std::less<>> tool_index_;  // by name
  bool has_tools_ = false;
  std::vector<std::shared_ptr<const resource_entry>> resources_;
  std::vector<std::shared_ptr<const template_entry>> templates_;
  std::vector<std::shared_ptr<const prompt_entry>> prompts_;
  std::map<std::string, completer> completers_;  // by detail::completer_key
  bool has_resources_ = false;
  bool has_prompts_ = false;

  // Initialized 2025-era sessions, for notify_all. Never held while sending.
  std::mutex sessions_mutex_;
  std::vector<std::weak_ptr<detail::session>> sessions_;

  // 2026-07-28 subscriptions/listen streams. listeners_mutex_ is never held while sending: each
  // stream's messages go through its own ordered_sender.
  struct listener {
    json id;
    json honored;  // the notifications filter as honoured
    std::weak_ptr<detail::session> owner;  // a transport that drops its connection ends its listeners
    std::shared_ptr<detail::request_state> state;
    std::shared_ptr<detail::ordered_sender> out;
  };
  std::mutex listeners_mutex_;
  std::vector<listener> listeners_;
  std::vector<std::weak_ptr<request_stream>> kept_streams_;  // under listeners_mutex_
  std::unique_ptr<detail::state_sealer> sealer_;
  mutable detail::large_call_turns large_calls_{options_.large_calls_at_once};
  // Set once (set_task_seam), under registry_mutex_; stopped in ~server before anything goes.
  std::shared_ptr<task_seam> task_seam_;
};

namespace detail {
// For the SDK's own tests and transports: what a server holds that its API does not show.
struct server_access {
  static std::size_t listeners_open(server& srv) { return srv.listeners_open(); }
  // The task seam the server holds (null without one).
  static std::shared_ptr<task_seam> seam(server& srv) { return srv.seam(); }
  // For transports that read messages themselves: message::read's decoder.
  static const arguments_decoder* arguments_reader(const server& srv) { return &srv.arguments_reader_; }
  // Initialized 2025-era sessions the server still refers to (ended ones included until pruned).
  static std::size_t sessions_held(server& srv) {
    std::lock_guard lock(srv.sessions_mutex_);
    return srv.sessions_.size();
  }
};
}  // namespace detail

}  // namespace v0
}  // namespace mcp

#if !defined(MCP_SEPARATE_COMPILATION)  // compiled mode: in the library (mcp/impl/src.hpp)
#include <mcp/core/impl/server.ipp>
#include <mcp/core/impl/stateless.ipp>
#include <mcp/core/impl/features.ipp>
#endif
