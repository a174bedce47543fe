// The server the official MCP conformance suite runs against: the fixtures every SDK's test server
// exposes (tools, resources, a template, prompts, completion, logging), written with the SDK's
// public API only. Over Streamable HTTP with --http HOST:PORT (what the suite needs), else stdio.
#include <mcp/ext/tasks.hpp>
#include <mcp/ext/skills.hpp>
#include <mcp/mcp.hpp>
#include <mcp/transport/http.hpp>
#if MCP_CONFORMANCE_REDIS
#include <mcp/stores/redis_replay_guard.hpp>
#include <mcp/stores/redis_task_store.hpp>
#include <mcp/stores/redis_event_store.hpp>
#endif

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <unistd.h>

namespace conformance {

// The 1x1 PNG and the minimal WAV the reference server uses, so results compare byte for byte.
constexpr std::string_view png_base64 =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
constexpr std::string_view wav_base64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

// The SDK's content helpers take raw bytes; the constants above are the spec's base64 form.
std::string from_base64(std::string_view in) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::string out;
  unsigned bits = 0;
  int count = 0;
  for (char c : in) {
    int v = value(c);
    if (v < 0) break;  // '=' padding ends the data
    bits = (bits << 6) | static_cast<unsigned>(v);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out.push_back(static_cast<char>((bits >> count) & 0xFF));
    }
  }
  return out;
}

const std::string& png() {
  static const std::string bytes = from_base64(png_base64);
  return bytes;
}
const std::string& wav() {
  static const std::string bytes = from_base64(wav_base64);
  return bytes;
}

void pause_briefly() { std::this_thread::sleep_for(std::chrono::milliseconds(50)); }

struct sampling_args {
  std::string prompt;
};
MCP_STRUCT(sampling_args, (prompt, "The prompt to send to the LLM"));

struct elicitation_args {
  std::string message;
};
MCP_STRUCT(elicitation_args, (message, "The message to show the user"));

struct prompt_pair_args {
  std::string arg1;
  std::string arg2;
};
MCP_STRUCT(prompt_pair_args, (arg1, "First test argument"), (arg2, "Second test argument"));

struct embed_args {
  std::string resourceUri;  // the argument's wire name
};
MCP_STRUCT(embed_args, (resourceUri, "URI of the resource to embed"));

// The forms the elicitation tools ask, as the reference server's requestedSchemas.
struct user_form {
  std::string username;
  std::string email;
};
MCP_STRUCT(user_form, (username, "User's response"), (email, "User's email address"));

enum class status { active, inactive, pending };
MCP_ENUM(status, (active, "active"), (inactive, "inactive"), (pending, "pending"));

struct defaults_form {  // SEP-1034: a default for every primitive type
  std::string name;
  int age = 0;
  double score = 0;
  status state = status::active;
  bool verified = false;
};
MCP_STRUCT(defaults_form, (name, "User name", mcp::default_value("John Doe")),
           (age, "User age", mcp::default_value(30)), (score, "User score", mcp::default_value(95.5)),
           (state, "User status", mcp::default_value(status::active), mcp::json_name("status")),
           (verified, "Verification status", mcp::default_value(true)));

// SEP-1330: an MCP_ENUM without value descriptions is an untitled choice, one with them a titled one.
enum class option { option1, option2, option3 };
MCP_ENUM(option, (option1, "option1"), (option2, "option2"), (option3, "option3"));
enum class titled_option { value1, value2, value3 };
MCP_ENUM(titled_option, (value1, "value1", "First Option"), (value2, "value2", "Second Option"),
         (value3, "value3", "Third Option"));
enum class titled_choice { value1, value2, value3 };
MCP_ENUM(titled_choice, (value1, "value1", "First Choice"), (value2, "value2", "Second Choice"),
         (value3, "value3", "Third Choice"));

// The deprecated enumNames form has no MCP_ENUM shape: a type of our own, mapped with its schema.
struct legacy_choice {
  std::string value;
};

}  // namespace conformance

template <>
struct mcp::json_type<conformance::legacy_choice> {
  static json schema() {
    return {{"type", "string"},
            {"enum", {"opt1", "opt2", "opt3"}},
            {"enumNames", {"Option One", "Option Two", "Option Three"}}};
  }
  static json encode(const conformance::legacy_choice& c) { return c.value; }
  static conformance::legacy_choice decode(const json& j) { return {j.get<std::string>()}; }
};

namespace conformance {

struct enums_form {
  std::optional<option> untitledSingle;
  std::optional<titled_option> titledSingle;
  std::optional<legacy_choice> legacyEnum;
  std::optional<std::vector<option>> untitledMulti;
  std::optional<std::vector<titled_choice>> titledMulti;
};
MCP_STRUCT(enums_form, (untitledSingle, "Select one option"), (titledSingle, "Select one option with titles"),
           (legacyEnum, "Select one option (legacy)"),
           (untitledMulti, "Select multiple options", mcp::min_items(1), mcp::max_items(3)),
           (titledMulti, "Select multiple options with titles", mcp::min_items(1), mcp::max_items(3)));

template <class T>
std::string describe_elicitation(const std::string& prefix, const mcp::elicit_result<T>& answer) {
  return prefix + "action=" + mcp::to_string(answer.action) +
         ", content=" + (answer.content ? mcp::encode(*answer.content) : mcp::json::object()).dump();
}

void add_content_tools(mcp::server& srv) {
  srv.tool("test_simple_text", "Tests simple text content response",
           []() -> std::string { return "This is a simple text response for testing."; });

  srv.tool("test_image_content", "Tests image content response",
           []() { return mcp::tool_result{{mcp::image(png(), "image/png")}}; });

  srv.tool("test_audio_content", "Tests audio content response",
           []() { return mcp::tool_result{{mcp::audio(wav(), "audio/wav")}}; });

  srv.tool("test_embedded_resource", "Tests embedded resource content response", []() {
    return mcp::tool_result{
        {mcp::embedded_text("test://embedded-resource", "This is an embedded resource content.", "text/plain")}};
  });

  srv.tool("test_multiple_content_types", "Tests response with multiple content types (text, image, resource)", []() {
    return mcp::tool_result{{mcp::text("Multiple content types test:"), mcp::image(png(), "image/png"),
                             mcp::embedded_text("test://mixed-content-resource",
                                                mcp::json{{"test", "data"}, {"value", 123}}.dump(),
                                                "application/json")}};
  });

  srv.tool("test_error_handling", "Tests error response handling", []() -> mcp::result<std::string> {
    return mcp::tool_error("This tool intentionally returns an error for testing");
  });
}

void add_context_tools(mcp::server& srv) {
  srv.tool("test_tool_with_logging", "Tests tool that emits log messages during execution",
           [](mcp::context& ctx) -> std::string {
             ctx.log(mcp::log_level::info, "Tool execution started");
             pause_briefly();
             ctx.log(mcp::log_level::info, "Tool processing data");
             pause_briefly();
             ctx.log(mcp::log_level::info, "Tool execution completed");
             return "Tool with logging executed successfully";
           });

  srv.tool("test_tool_with_progress", "Tests tool that reports progress notifications",
           [](mcp::context& ctx) -> std::string {
             for (int step = 0; step <= 100; step += 50) {
               if (step > 0) pause_briefly();
               ctx.progress(step, 100, "Completed step " + std::to_string(step) + " of 100");
             }
             const auto& token = ctx.progress_token();
             return token ? "Progress reported with token " + token->dump() : "No progress token was given";
           });

  srv.tool("test_sampling", "Tests server-initiated sampling (LLM completion request)",
           [](const sampling_args& in, mcp::context& ctx) -> std::string {
             mcp::json reply = ctx.create_message(
                 {{"messages", {{{"role", "user"}, {"content", mcp::text(in.prompt)}}}}, {"maxTokens", 100}});
             const mcp::json content = reply.value("content", mcp::json::object());
             std::string text = content.is_object() ? content.value("text", std::string()) : std::string();
             return "LLM response: " + (text.empty() ? content.dump() : text);
           });

  // The elicitation tools ask through ctx.elicit<T>(): the suite checks the schemas derived from
  // the structs above, and the answers come back decoded into them.
  srv.tool("test_elicitation", "Tests server-initiated elicitation (user input request)",
           [](const elicitation_args& in, mcp::context& ctx) -> std::string {
             return describe_elicitation("User response: ", ctx.elicit<user_form>(in.message));
           });

  srv.tool("test_elicitation_sep1034_defaults", "Tests elicitation with default values per SEP-1034",
           [](mcp::context& ctx) -> std::string {
             return describe_elicitation("Elicitation completed: ",
                                         ctx.elicit<defaults_form>("Please review and update the form fields with defaults"));
           });

  srv.tool("test_elicitation_sep1330_enums", "Tests elicitation with enum schema improvements per SEP-1330",
           [](mcp::context& ctx) -> std::string {
             return describe_elicitation("Elicitation completed: ",
                                         ctx.elicit<enums_form>("Please select options from the enum fields"));
           });

  // SEP-1699 polling: the reply is not held on an open stream; the client fetches it on reconnect.
  srv.tool("test_reconnection", "Tests SSE stream disconnection and client reconnection (SEP-1699)",
           [](mcp::context& ctx) -> std::string {
             ctx.close_stream();
             std::this_thread::sleep_for(std::chrono::milliseconds(100));
             return "Reconnection test completed successfully. The result was delivered after the client reconnected.";
           });
}

void add_schema_tool(mcp::server& srv) {
  mcp::runtime_schema schema;
  schema.input = mcp::json::parse(R"({
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "$defs": {"address": {"$anchor": "addressDef", "type": "object",
                          "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
    "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"},
                   "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                   "phone": {"type": "string"}, "email": {"type": "string"}},
    "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
    "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
    "then": {"required": ["phone"]},
    "else": {"required": ["email"]},
    "additionalProperties": false
  })");
  srv.tool("json_schema_2020_12_tool", "Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)",
           std::move(schema), [](const mcp::json& args) -> std::string {
             return "JSON Schema 2020-12 tool called with: " + args.dump();
           });
}

// ---- 2026-07-28: multi-round input (MRTR) and the stateless diagnostics -----------------------
// Each asks through ctx.ask(), which a 2025 session serves with real requests to the client and a
// 2026-07-28 request with input_required and a retry: one handler for both eras.

mcp::json object_schema(const char* property, const char* type) {
  return {{"type", "object"}, {"properties", {{property, {{"type", type}}}}}, {"required", {property}}};
}

std::string content_string(const mcp::json& answer, const char* field) {
  const mcp::json content = answer.value("content", mcp::json::object());
  return content.is_object() ? content.value(field, std::string()) : std::string();
}

std::string sampled_text(const mcp::json& answer) {
  const mcp::json content = answer.value("content", mcp::json::object());
  return content.is_object() ? content.value("text", std::string()) : std::string();
}

mcp::json sampling_params(const char* prompt, int max_tokens) {
  return {{"messages", {{{"role", "user"}, {"content", {{"type", "text"}, {"text", prompt}}}}}}, {"maxTokens", max_tokens}};
}

struct name_form {
  std::string name;
};
MCP_STRUCT(name_form, (name, "Your name"));

// A typed answer's name, or "" when the user did not accept.
std::string name_of(const mcp::json& answer, const std::string& question) {
  auto typed = mcp::elicit_result<name_form>::from(answer, question);
  return typed.accepted() ? typed.content->name : std::string();
}

void add_input_required_tools(mcp::server& srv) {
  // Typed questions under the keys the suite expects: elicitation_input<T>(key, message).
  srv.tool("test_input_required_result_elicitation", "Asks for the user's name by elicitation, then greets them",
           [](mcp::context& ctx) -> std::string {
             auto answer = ctx.ask(mcp::elicitation_input<name_form>("user_name", "What is your name?"));
             return "Hello, " + name_of(answer, "What is your name?") + "!";
           });
  srv.tool("test_input_required_result_sampling", "Asks the client's model a question by sampling",
           [](mcp::context& ctx) -> std::string {
             auto answer = ctx.ask(mcp::sampling_input("sample_request", sampling_params("What is the capital of France?", 100)));
             return "Sampling result: " + sampled_text(answer);
           });
  srv.tool("test_input_required_result_list_roots", "Asks the client for its roots", [](mcp::context& ctx) -> std::string {
    auto answer = ctx.ask(mcp::roots_input("roots_request"));
    return "Found " + std::to_string(answer.value("roots", mcp::json::array()).size()) + " root(s)";
  });
  srv.tool("test_input_required_result_request_state", "Asks for a confirmation carried through requestState",
           [](mcp::context& ctx) -> std::string {
             auto answer = ctx.ask(mcp::elicitation_input("confirm", "Please confirm", object_schema("ok", "boolean")));
             const mcp::json content = answer.value("content", mcp::json::object());
             return content.value("ok", false) == true ? "state-ok: requestState validated" : "state-declined";
           });
  srv.tool("test_input_required_result_multiple_inputs", "Asks for a name, a greeting and the roots in one round",
           [](mcp::context& ctx) -> std::string {
             auto answers = ctx.ask({mcp::elicitation_input<name_form>("user_name", "What is your name?"),
                                     mcp::sampling_input("greeting", sampling_params("Generate a greeting", 50)),
                                     mcp::roots_input("client_roots")});
             return "Name: " + name_of(answers["user_name"], "What is your name?") + "; Greeting: " +
                    sampled_text(answers["greeting"]) + "; Roots: " +
                    std::to_string(answers["client_roots"].value("roots", mcp::json::array()).size());
           });
  srv.tool("test_input_required_result_multi_round", "Asks two questions, one round each",
           [](mcp::context& ctx) -> std::string {
             auto first = ctx.ask(mcp::elicitation_input("step1", "Step 1: What is your name?", object_schema("name", "string")));
             auto second = ctx.ask(
                 mcp::elicitation_input("step2", "Step 2: What is your favorite color?", object_schema("color", "string")));
             return "Multi-round complete for " + content_string(first, "name") + " who likes " +
                    content_string(second, "color");
           });
  srv.tool("test_input_required_result_tampered_state", "Asks for a confirmation; a tampered requestState is refused",
           [](mcp::context& ctx) -> std::string {
             ctx.ask(mcp::elicitation_input("confirm", "Please confirm", object_schema("ok", "boolean")));
             return "integrity-ok: state verified";
           });
  srv.tool("test_input_required_result_capabilities", "Asks only for what this request's client capabilities allow",
           [](mcp::context& ctx) -> std::string {
             std::vector<mcp::input_request> wanted;
             const mcp::json& caps = ctx.client().capabilities;
             if (caps.contains("elicitation"))
               wanted.push_back(mcp::elicitation_input("elicit_input", "Provide input", object_schema("value", "string")));
             if (caps.contains("sampling")) wanted.push_back(mcp::sampling_input("sample_input", sampling_params("Sample request", 50)));
             if (wanted.empty()) return "capabilities-ok: the client declared neither elicitation nor sampling";
             std::string keys;
             for (const auto& [key, answer] : ctx.ask(wanted)) keys += (keys.empty() ? "" : ", ") + key;
             return "capabilities-ok: received " + keys;
           });
  srv.prompt("test_input_required_result_prompt", "A prompt that asks the user for context first",
             [](mcp::context& ctx) {
               auto answer = ctx.ask(mcp::elicitation_input("user_context", "What context should the prompt use?",
                                                            object_schema("context", "string")));
               return "Prompt with context: " + content_string(answer, "context");
             });
}

void add_stateless_diagnostics(mcp::server& srv) {
  srv.tool("test_missing_capability", "Needs the client's sampling capability; refuses with -32021 without it",
           [](mcp::context& ctx) -> std::string {
             ctx.require_client_capability("sampling");
             return "Success";
           });
  srv.tool("test_streaming_elicitation", "Reports progress, then asks for confirmation (never a request on the stream)",
           [](mcp::context& ctx) -> std::string {
             ctx.progress(1, 2, "about to ask");
             ctx.ask(mcp::elicitation_input("confirm", "Please confirm", object_schema("ok", "boolean")));
             return "streaming-elicitation-ok";
           });
  srv.tool("test_logging_tool", "Logs twice; a 2026-07-28 client hears it only when its request names a log level",
           [](mcp::context& ctx) -> std::string {
             ctx.log(mcp::log_level::info, "logging tool started");
             ctx.log(mcp::log_level::warning, "logging tool finished");
             return "Logging tool done";
           });
  srv.tool("test_trigger_tool_change", "Announces a tools/list change to every listener",
           [&srv]() -> std::string {
             srv.notify_all("notifications/tools/list_changed");
             return "tools/list_changed sent";
           });
  srv.tool("test_trigger_prompt_change", "Announces a prompts/list change to every listener",
           [&srv]() -> std::string {
             srv.notify_all("notifications/prompts/list_changed");
             return "prompts/list_changed sent";
           });
  // SEP-2243: "region" also travels in an Mcp-Param-Region header, which the server checks.
  mcp::runtime_schema schema;
  schema.input = {{"type", "object"},
                  {"properties", {{"region", {{"type", "string"}, {"description", "Where to look"}, {"x-mcp-header", "Region"}}}}},
                  {"required", {"region"}}};
  srv.tool("test_header_param", "Echoes a region that is also sent as the Mcp-Param-Region header", std::move(schema),
           [](const mcp::json& args) -> std::string { return "region: " + args.value("region", std::string()); });
}

// ---- The tasks extension (SEP-2663): the suite's tasks-* scenarios --------------------------------
// One handler per tool serves both a plain call and a task; tool_options::task decides which a
// request gets. Long handlers poll ctx.cancelled(), so tasks/cancel and shutdown stop them.

struct greet_args {
  std::string name;
};
MCP_STRUCT(greet_args, (name, "Who to greet"));

struct compute_args {
  double seconds = 0;
  std::optional<std::string> label;
};
MCP_STRUCT(compute_args, (seconds, "How long to work, in seconds", mcp::minimum(0)),
           (label, "Free text that names the run"));

struct delete_args {
  std::string filename;
};
MCP_STRUCT(delete_args, (filename, "The file to delete"));

// Sleeps up to `seconds`, waking every 50 ms to see whether the task was cancelled.
bool work_for(double seconds, mcp::context& ctx) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    if (ctx.cancelled()) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return !ctx.cancelled();
}

mcp::tool_options task_tool(mcp::task_mode mode, mcp::task_start begins = mcp::task_start::at_call) {
  mcp::tool_options o;
  o.task = mode;
  o.task_begins = begins;
  return o;
}

void add_task_tools(mcp::server& srv) {
  srv.tool("greet", "Greets someone; never a task",
           [](const greet_args& in) -> std::string { return "Hello, " + in.name + "!"; });
  srv.tool("slow_compute", "Works for the given number of seconds; a task when the client declares tasks",
           [](const compute_args& in, mcp::context& ctx) -> mcp::result<std::string> {
             if (!work_for(in.seconds, ctx)) return mcp::tool_error("Cancelled before the computation finished");
             return "Computed " + in.label.value_or("a result") + " in " + mcp::json(in.seconds).dump() + " s";
           },
           task_tool(mcp::task_mode::optional));
  srv.tool("failing_job", "Runs only as a task, and ends after a second with a tool error",
           [](mcp::context& ctx) -> mcp::result<std::string> {
             work_for(1, ctx);
             return mcp::tool_error("The job failed: its input data is missing. Upload it and run the job again.");
           },
           task_tool(mcp::task_mode::required));
  srv.tool("protocol_error_job", "A task that fails with a JSON-RPC error rather than a tool error",
           [](mcp::context& ctx) -> std::string {
             work_for(0.2, ctx);
             throw mcp::protocol_error(mcp::error_code::internal_error, "The job's backend is unavailable");
           },
           task_tool(mcp::task_mode::optional));
  srv.tool("confirm_delete", "Asks the user to confirm, then deletes the file (nothing is deleted really)",
           [](const delete_args& in, mcp::context& ctx) -> std::string {
             auto answer = ctx.ask(mcp::elicitation_input("confirm", "Delete " + in.filename + "?",
                                                          object_schema("confirm", "boolean")));
             const mcp::json content = answer.value("content", mcp::json::object());
             const bool yes = answer.value("action", "") == "accept" && content.is_object() &&
                              content.value("confirm", false) == true;
             return yes ? "Deleted " + in.filename : "Kept " + in.filename;
           },
           task_tool(mcp::task_mode::optional));
  srv.tool("multi_input", "Asks two questions at once, then reports both answers",
           [](mcp::context& ctx) -> std::string {
             const mcp::json schema = {{"type", "object"},
                                       {"properties", {{"name", {{"type", "string"}}}, {"confirm", {{"type", "boolean"}}}}}};
             auto answers = ctx.ask({mcp::elicitation_input("first", "First answer?", schema),
                                     mcp::elicitation_input("second", "Second answer?", schema)});
             return "Answers: " + content_string(answers["first"], "name") + ", " + content_string(answers["second"], "name");
           },
           task_tool(mcp::task_mode::optional));
  // Multi-round input first, on the request; ctx.begin_task() then ends the request with a task,
  // whose run gets the answer given before.
  srv.tool("test_tool_with_task", "Asks for a name, then greets it from a task",
           [](mcp::context& ctx) -> std::string {
             auto answer = ctx.ask(mcp::elicitation_input<name_form>("user_name", "What is your name?"));
             ctx.begin_task();
             return "Hello, " + name_of(answer, "What is your name?") + ", from a task!";
           },
           task_tool(mcp::task_mode::required, mcp::task_start::at_begin_task));
}

void add_resources(mcp::server& srv) {
  srv.resource({.uri = "test://static-text",
                .name = "static-text",
                .title = "Static Text Resource",
                .description = "A static text resource for testing",
                .mime_type = "text/plain"},
               [] { return std::string("This is the content of the static text resource."); });

  srv.resource({.uri = "test://static-binary",
                .name = "static-binary",
                .title = "Static Binary Resource",
                .description = "A static binary resource (image) for testing",
                .mime_type = "image/png"},
               [] { return mcp::blob{png()}; });

  srv.resource({.uri = "test://watched-resource",
                .name = "watched-resource",
                .title = "Watched Resource",
                .description = "A resource for testing subscriptions",
                .mime_type = "text/plain"},
               [] { return std::string("Watched resource content"); });

  srv.resource_template({.uri_template = "test://template/{id}/data",
                         .name = "template",
                         .title = "Template Resource",
                         .description = "A resource template with a parameter substitution",
                         .mime_type = "application/json"},
                        [](const std::map<std::string, std::string>& vars) {
                          const std::string& id = vars.at("id");
                          return mcp::json{{"id", id}, {"templateTest", true}, {"data", "Data for ID: " + id}}.dump();
                        });
  // Not a conformance fixture: a read that asks, for the scale-out test (the retry's result must
  // still carry the caching hints the official client requires). Last: the suite's caching
  // scenario reads the first resource listed, without answering questions.
  srv.resource({.uri = "test://input-required-resource",
                .name = "input-required-resource",
                .description = "Asks the user's name before it can be read",
                .mime_type = "text/plain"},
               [](mcp::context& ctx) {
                 auto answer = ctx.ask(mcp::elicitation_input("user_name", "Who is reading?", object_schema("name", "string")));
                 return "Read by " + content_string(answer, "name");
               });
}

void add_prompts(mcp::server& srv) {
  srv.prompt("test_simple_prompt", "A simple prompt without arguments",
             [] { return std::string("This is a simple prompt for testing."); }, {.title = "Simple Test Prompt"});

  srv.prompt("test_prompt_with_arguments", "A prompt with required arguments",
             [](const prompt_pair_args& in) {
               return "Prompt with arguments: arg1='" + in.arg1 + "', arg2='" + in.arg2 + "'";
             },
             {.title = "Prompt With Arguments"});

  srv.prompt("test_prompt_with_embedded_resource", "A prompt that includes an embedded resource",
             [](const embed_args& in) {
               return std::vector<mcp::prompt_message>{
                   mcp::user(mcp::embedded_text(in.resourceUri, "Embedded resource content for testing.", "text/plain")),
                   mcp::user("Please process the embedded resource above.")};
             },
             {.title = "Prompt With Embedded Resource"});

  srv.prompt("test_prompt_with_image", "A prompt that includes an image",
             [] {
               return std::vector<mcp::prompt_message>{mcp::user(mcp::image(png(), "image/png")),
                                                       mcp::user("Please analyze the image above.")};
             },
             {.title = "Prompt With Image"});

  // Suggestions for arg1: the known values that start with what was typed so far.
  srv.complete_prompt_argument("test_prompt_with_arguments", "arg1",
                               [](const std::string& typed, const std::map<std::string, std::string>&) {
                                 std::vector<std::string> out;
                                 for (const char* v : {"testValue1", "testValue2", "example"})
                                   if (std::string_view(v).substr(0, typed.size()) == typed) out.push_back(v);
                                 return out;
                               });
}

// Which process answered: the scale-out test shows a load balancer spreads calls over several.
void add_whoami_tool(mcp::server& srv) {
  srv.tool("test_whoami", "Returns the id of the server process that ran the call",
           []() -> std::string { return std::to_string(::getpid()); });
}

const char* usage =
    "Usage: conformance_server [--http HOST:PORT [--stateless]] [--task-store URL] [--replay-guard URL]\n"
    "                          [--event-store URL]\n"
    "\n"
    "The MCP conformance fixtures. Speaks MCP on stdin/stdout, or Streamable HTTP at\n"
    "http://HOST:PORT/mcp with --http (the official conformance suite needs HTTP).\n"
    "  --stateless  HTTP without 2025-11-25 sessions: every POST stands alone\n"
    "  --task-store redis://HOST:PORT/PREFIX  tasks in that Redis, shared by every process\n"
    "               given the same one (tests/scaleout); in this process's memory otherwise\n"
    "  --replay-guard redis://HOST:PORT/PREFIX  the requestState tokens used, in that Redis:\n"
    "               a token replayed to any process given the same one is refused\n"
    "  --event-store redis://HOST:PORT/PREFIX  2025-11-25 sessions' request streams also in that\n"
    "               Redis: a client resumes one (Last-Event-ID) through any process given the same one\n"
    "\n"
    "MCP_REQUEST_STATE_KEY in the environment: the requestState HMAC key, shared by every\n"
    "process behind one load balancer (default: a random key per process).\n";

}  // namespace conformance

int main(int argc, char** argv) {
  std::string http_address;
  std::string task_store;
  std::string replay_guard;
  std::string event_store;
  bool stateless_http = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << conformance::usage;
      return 0;
    } else if (arg == "--http" && i + 1 < argc) {
      http_address = argv[++i];
    } else if (arg == "--stateless") {
      stateless_http = true;
    } else if (arg == "--task-store" && i + 1 < argc) {
      task_store = argv[++i];
    } else if (arg == "--replay-guard" && i + 1 < argc) {
      replay_guard = argv[++i];
    } else if (arg == "--event-store" && i + 1 < argc) {
      event_store = argv[++i];
    } else {
      std::cerr << "conformance_server: unknown argument '" << arg << "'\n\n" << conformance::usage;
      return 2;
    }
  }

  mcp::server_options server_opts;
  mcp::task_options task_opts;
  // Processes behind one load balancer must seal requestState with one key (tests/scaleout).
  if (const char* key = std::getenv("MCP_REQUEST_STATE_KEY"); key && *key) server_opts.request_state_key = key;
  mcp::http::options opts;
  if (!task_store.empty() || !replay_guard.empty() || !event_store.empty()) {
#if MCP_CONFORMANCE_REDIS
    try {
      if (!event_store.empty())
        opts.event_store = std::make_shared<mcp::http::redis_event_store>(mcp::redis_options::from_url(event_store));
      if (!task_store.empty())
        task_opts.store = std::make_shared<mcp::redis_task_store>(mcp::redis_options::from_url(task_store));
      if (!replay_guard.empty())
        server_opts.request_state_guard = std::make_shared<mcp::redis_replay_guard>(mcp::redis_options::from_url(replay_guard));
    } catch (const mcp::error& e) {
      std::cerr << "conformance_server: " << e.what() << "\n";
      return 2;
    }
#else
    std::cerr << "conformance_server: --task-store, --replay-guard and --event-store need a build with hiredis (Debian: libhiredis-dev)\n";
    return 2;
#endif
  }
  mcp::server srv({.name = "mcp-conformance-test-server", .version = "1.0.0"}, server_opts);
  mcp::enable_tasks(srv, task_opts);
  conformance::add_content_tools(srv);
  conformance::add_context_tools(srv);
  conformance::add_schema_tool(srv);
  conformance::add_input_required_tools(srv);
  conformance::add_stateless_diagnostics(srv);
  conformance::add_whoami_tool(srv);
  conformance::add_task_tools(srv);
  conformance::add_resources(srv);
  conformance::add_prompts(srv);
  // The skills extension (SEP-2640): the suite's sep-2640-skills-* scenarios read these.
  mcp::serve_skills(srv, MCP_CONFORMANCE_SKILLS_DIR, true);

  if (http_address.empty()) return mcp::serve_stdio(srv);
  auto where = mcp::http::parse_host_port(http_address);
  if (!where) {
    std::cerr << "conformance_server: --http wants HOST:PORT, e.g. 127.0.0.1:8080, not '" << http_address << "'\n";
    return 2;
  }
  opts.host = where->first;
  opts.port = where->second;
  opts.stateless = stateless_http;
  return mcp::http::serve(srv, opts);
}
