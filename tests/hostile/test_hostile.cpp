// Hostile input against a real server process: the notes example on real pipes. For every abuse
// the server must answer with the right error (or, for what needs no answer, stay silent), keep
// serving (a ping answers afterwards), and write nothing but JSON-RPC messages on stdout.
#include "catch.hpp"
#include "subprocess.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include <unistd.h>

using json = nlohmann::json;
using namespace std::chrono_literals;

namespace {

// A scratch folder for the notes store, removed at the end.
struct temp_dir {
  std::string path;
  temp_dir() {
    char tmpl[] = "/tmp/mcp-hostile-XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    path = tmpl;
  }
  ~temp_dir() {
    std::string store = path + "/notes.json";
    unlink(store.c_str());
    rmdir(path.c_str());
  }
};

// Sanitizer builds are several times slower; the deadlines are generous for them.
constexpr auto reply_deadline = 60s;

class notes_server {
 public:
  explicit notes_server(const std::string& store)
      : proc_({MCP_NOTES_BINARY, "--store", store}) {}

  // Every line on stdout goes through here: each must be one JSON-RPC 2.0 message.
  json next(std::chrono::milliseconds timeout = reply_deadline) {
    auto line = proc_.read_line(timeout);
    REQUIRE(line.has_value());
    return check_line(*line);
  }
  static json check_line(const std::string& line) {
    json m = json::parse(line, nullptr, false);
    INFO("stdout line: " << line.substr(0, 500));
    REQUIRE_FALSE(m.is_discarded());
    REQUIRE(m.is_object());
    REQUIRE(m.value("jsonrpc", "") == "2.0");
    if (!m.contains("method")) REQUIRE(m.contains("result") != m.contains("error"));
    if (m.contains("error")) {
      REQUIRE(m["error"]["code"].is_number_integer());
      REQUIRE(m["error"]["message"].is_string());
    }
    return m;
  }

  void send(const std::string& line) { proc_.write(line + "\n"); }
  void close_input() { proc_.close_stdin(); }
  void send_raw(const std::string& bytes) { proc_.write(bytes); }
  json ask(const std::string& line) {
    send(line);
    return next();
  }

  void initialize() {
    json r = ask(R"({"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25",)"
                 R"("capabilities":{},"clientInfo":{"name":"hostile","version":"1"}}})");
    REQUIRE(r["id"] == "init");
    REQUIRE(r.contains("result"));
    send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  }

  // Still serving, and nothing was sent since the last message read: the next line is the pong.
  void expect_alive() {
    const std::string id = "alive-" + std::to_string(++pings_);
    json pong = ask(json{{"jsonrpc", "2.0"}, {"id", id}, {"method", "ping"}}.dump());
    CHECK(pong == json{{"jsonrpc", "2.0"}, {"id", id}, {"result", json::object()}});
  }

  json call_tool(const json& id, const std::string& name, const json& arguments) {
    return ask(json{{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"},
                    {"params", {{"name", name}, {"arguments", arguments}}}}.dump());
  }

  // End of input: every remaining line is checked, and the process exits 0.
  void finish() {
    proc_.close_stdin();
    while (auto line = proc_.read_line(reply_deadline)) check_line(*line);
    auto code = proc_.wait(reply_deadline);
    REQUIRE(code.has_value());
    CHECK(*code == 0);
  }

  std::string stderr_text() { return proc_.stderr_text(); }

 private:
  test::subprocess proc_;
  int pings_ = 0;
};

int code_of(const json& m) { return m.at("error").at("code").get<int>(); }
std::string message_of(const json& m) { return m.at("error").at("message").get<std::string>(); }

std::string text_of(const json& response) {
  const json& content = response.at("result").at("content");
  REQUIRE_FALSE(content.empty());
  return content[0].at("text").get<std::string>();
}

}  // namespace

TEST_CASE("hostile: malformed JSON is a parse error and the stream goes on", "[hostile]") {
  temp_dir dir;
  notes_server s(dir.path + "/notes.json");
  s.initialize();
  for (const char* bad : {"{", R"({"jsonrpc":"2.0","id":1,"method":"ping")", R"({"jsonrpc":"2.0","id":1,"method":"ping"}})",
                          "nul", "[", R"({"jsonrpc":"2.0","id":1,"method":ping})", R"({'jsonrpc':'2.0'})",
                          R"({"jsonrpc":"2.0","id":1,"method":"ping"} trailing)", "\x01\x02\x03", "}{"}) {
    INFO("line: " << bad);
    json r = s.ask(bad);
    CHECK(code_of(r) == -32700);
    CHECK_FALSE(r.contains("id"));  // it could not be read
    s.expect_alive();
  }
  // Valid JSON that is not a request object.
  for (const char* bad : {"\"just a string\"", "123", "null", "true", "[]", R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])"}) {
    INFO("line: " << bad);
    CHECK(code_of(s.ask(bad)) == -32600);
    s.expect_alive();
  }
  // A NUL byte inside a line, and blank lines, which are not messages at all.
  // (nlohmann alone would stop reading at the NUL and accept the message.)
  s.send_raw(std::string("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\0junk\n", 46));
  CHECK(code_of(s.next()) == -32700);
  s.send_raw("\n\r\n   \n\t\n");
  s.expect_alive();
  s.finish();
}

TEST_CASE("hostile: invalid UTF-8, in strings and raw, is refused whole", "[hostile]") {
  temp_dir dir;
  notes_server s(dir.path + "/notes.json");
  s.initialize();
  const std::vector<std::string> lines = {
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\xfe\"}",                                  // invalid bytes in a string
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"\xc0\xaf\"}}",     // overlong encoding
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"\xed\xa0\x80\"}}", // encoded surrogate
      R"({"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"\ud800"}})",                  // lone surrogate escape
      "\xff\xfe\xfd",                                                                           // raw garbage
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"create_note\","
      "\"arguments\":{\"title\":\"t\xe2\x82\",\"body\":\"b\"}}}",                               // truncated sequence
  };
  for (const auto& line : lines) {
    INFO("line: " << json(line).dump(-1, ' ', true, json::error_handler_t::replace));
    json r = s.ask(line);
    CHECK(code_of(r) == -32700);
    s.expect_alive();
  }
  // A UTF-8 byte order mark may be ignored (RFC 8259 §8.1), and is.
  CHECK(s.ask("\xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")["id"] == 1);
  // Valid non-ASCII text goes through unchanged.
  json created = s.call_tool(2, "create_note", {{"title", "Ünïcødé ✓ 𝄞"}, {"body", "b"}});
  CHECK_FALSE(created["result"].value("isError", false));
  json read = s.call_tool(3, "read_note", {{"title", "Ünïcødé ✓ 𝄞"}});
  CHECK(read["result"]["structuredContent"]["title"] == "Ünïcødé ✓ 𝄞");
  s.expect_alive();
  s.finish();
}

TEST_CASE("hostile: nesting 100,000 deep is refused before parsing", "[hostile]") {
  temp_dir dir;
  notes_server s(dir.path + "/notes.json");
  s.initialize();
  const std::size_t depth = 100000;
  const std::string arrays = std::string(depth, '[') + std::string(depth, ']');
  std::string objects;
  for (std::size_t i = 0; i < depth; ++i) objects += "{\"a\":";
  objects += "1" + std::string(depth, '}');
  const std::vector<std::string> lines = {
      arrays,
      objects,
      std::string(depth, '['),  // never closed
      R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_notes","arguments":{"query":)" + arrays +
          "}}}",
  };
  for (const auto& line : lines) {
    json r = s.ask(line);
    CHECK(code_of(r) == -32600);
    CHECK(message_of(r).find("nested deeper than") != std::string::npos);
    s.expect_alive();
  }
  // Brackets inside strings are text, not nesting.
  json r = s.call_tool(2, "search_notes", {{"query", std::string(depth, '[')}});
  CHECK(r.contains("result"));
  s.expect_alive();
  s.finish();
}

TEST_CASE("hostile: a 100 MB line is refused with a clear error and serving goes on", "[hostile]") {
  temp_dir dir;
  notes_server s(dir.path + "/notes.json");
  s.initialize();
  // Inside a JSON string so that only the size is wrong; the default limit is 64 MiB.
  std::string huge = R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_notes","arguments":{"query":")";
  huge += std::string(100 * 1000 * 1000, 'x');
  huge += "\"}}}";
  json r = s.ask(huge);
  CHECK(code_of(r) == -32600);
  CHECK(message_of(r).find("longer than the limit") != std::string::npos);
  CHECK_FALSE(r.contains("id"));
  s.expect_alive();
  // The same in several writes, followed directly by a request in the same write as its end.
  std::string part(30 * 1000 * 1000, 'y');
  s.send_raw(part);
  s.send_raw(part);
  s.send_raw(part + "\n" + json{{"jsonrpc", "2.0"}, {"id", 5}, {"method", "ping"}}.dump() + "\n");
  CHECK(code_of(s.next()) == -32600);
  CHECK(s.next()["id"] == 5);
  s.expect_alive();
  s.finish();
}

TEST_CASE("hostile: numbers beyond int64 and double", "[hostile]") {
  temp_dir dir;
  notes_server s(dir.path + "/notes.json");
  s.initialize();
  // A double overflow makes the whole message unreadable.
  CHECK(code_of(s.ask(R"({"jsonrpc":"2.0","id":1e400,"method":"ping"})")) == -32700);
  s.expect_alive();
  // Too big for int64: the id reads as a double, which is not a valid id.
  json r = s.ask(R"({"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"})");
  CHECK(code_of(r) == -32600);
  CHECK_FALSE(r.contains("id"));
  // The extremes of the integer ids are echoed exactly.
  for (const char* id : {"18446744073709551615", "-9223372036854775808", "9223372036854775807"}) {
    json pong = s.ask(std::string(R"({"jsonrpc":"2.0","id":)") + id + R"(,"method":"ping"})");
    CHECK(pong["id"].dump() == id);
  }
  // As tool arguments: a validation error for the model, never a crash or a wrapped-around value.
  for (const char* limit : {"123456789012345678901234567890", "-123456789012345678901234567890", "1e308",
                            "18446744073709551615", "2147483648", "-2147483649", "5.5"}) {
    INFO("limit: " << limit);
    json reply = s.ask(std::string(R"({"jsonrpc":"2.0","id":")") + limit + R"(","method":"tools/call","params":{"name":"search_notes",)" +
                       R"("arguments":{"query":"x","limit":)" + limit + "}}}");
    REQUIRE(reply.contains("result"));
    CHECK(reply["result"]["isError"] == true);
    CHECK(text_of(reply).find("limit") != std::string::npos);
  }
  CHECK(code_of(s.ask(R"({"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"search_notes",)"
                      R"("arguments":{"query":"x","limit":1e400}}})")) == -32700);
  s.expect_alive();
  s.finish();
}

TEST_CASE("hostile: wrong types everywhere", "[hostile]") {
  temp_dir dir;
  notes_server s(dir.path + "/notes.json");
  s.initialize();
  struct expectation {
    std::string line;
    int code;
    bool has_id;
  };
  const std::vector<expectation> cases = {
      {R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":[1,2]})", -32602, true},
      {R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":"name"})", -32602, true},
      {R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":42})", -32602, true},
      {R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":null})", -32602, true},
      {R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":7}})", -32602, true},
      {R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":null}})", -32602, true},
      {R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":["read_note"]}})", -32602, true},
      {R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_note","arguments":"title=x"}})", -32602, true},
      {R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_note","arguments":[1]}})", -32602, true},
      {R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_note","arguments":5}})", -32602, true},
      {R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":5}})", -32602, true},
      {R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"not-a-cursor"}})", -32602, true},
      {R"({"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":3}})", -32602, true},
      {R"({"jsonrpc":"2.0","id":1,"method":42})", -32600, true},
      {R"({"jsonrpc":"2.0","id":1,"method":null})", -32600, true},
      {R"({"jsonrpc":2.0,"id":1,"method":"ping"})", -32600, true},
      {R"({"jsonrpc":"1.0","id":1,"method":"ping"})", -32600, true},
      {R"({"id":1,"method":"ping"})", -32600, true},
      {R"({"jsonrpc":"2.0","id":{"a":1},"method":"ping"})", -32600, false},
      {R"({"jsonrpc":"2.0","id":[1],"method":"ping"})", -32600, false},
      {R"({"jsonrpc":"2.0","id":true,"method":"ping"})", -32600, false},
      {R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})", -32600, false},
  };
  int n = 100;
  for (auto c : cases) {
    // A fresh id each time: MCP forbids reusing one, and the server may not have retired it yet.
    if (auto at = c.line.find(R"("id":1,)"); at != std::string::npos)
      c.line.replace(at, 7, "\"id\":" + std::to_string(++n) + ",");
    INFO("line: " << c.line);
    json r = s.ask(c.line);
    CHECK(code_of(r) == c.code);
    CHECK(r.contains("id") == c.has_id);
    s.expect_alive();
  }
  // Arguments of the wrong shape for a typed tool: an isError result naming the field.
  json r = s.call_tool(2, "create_note", {{"title", {{"nested", true}}}, {"body", 5}, {"visibility", "everyone"}});
  REQUIRE(r.contains("result"));
  CHECK(r["result"]["isError"] == true);
  for (const char* field : {"title", "body", "visibility"}) CHECK(text_of(r).find(field) != std::string::npos);
  s.expect_alive();
  s.finish();
}

TEST_CASE("hostile: null and duplicate ids, notifications with ids, responses to nothing", "[hostile]") {
  temp_dir dir;
  notes_server s(dir.path + "/notes.json");
  s.initialize();
  // A null id is not a valid request id; the error cannot name it.
  json r = s.ask(R"({"jsonrpc":"2.0","id":null,"method":"ping"})");
  CHECK(code_of(r) == -32600);
  CHECK_FALSE(r.contains("id"));
  s.expect_alive();
  // The same id twice in a row (not overlapping) is answered twice.
  CHECK(s.ask(R"({"jsonrpc":"2.0","id":9,"method":"ping"})")["id"] == 9);
  CHECK(s.ask(R"({"jsonrpc":"2.0","id":9,"method":"ping"})")["id"] == 9);
  // 1 and "1" are different ids, echoed with their own type.
  CHECK(s.ask(R"({"jsonrpc":"2.0","id":"9","method":"ping"})")["id"] == "9");
  // A duplicate key: the parser keeps the last one, and exactly one reply comes.
  CHECK(s.ask(R"({"jsonrpc":"2.0","id":1,"id":2,"method":"ping"})")["id"] == 2);
  s.expect_alive();
  // Unknown methods, including long and odd names.
  for (const std::string& method : {std::string("no/such/method"), std::string("rpc.discover"), std::string(10000, 'm'),
                                   std::string("")}) {
    json e = s.ask(json{{"jsonrpc", "2.0"}, {"id", 3}, {"method", method}}.dump());
    CHECK(code_of(e) == -32601);
    CHECK(e["id"] == 3);
  }
  // A notification method sent with an id is a request, for a method that does not exist.
  json n = s.ask(R"({"jsonrpc":"2.0","id":4,"method":"notifications/initialized"})");
  CHECK(code_of(n) == -32601);
  CHECK(n["id"] == 4);
  // Notifications, known or not, well-formed or not, get no reply at all.
  s.send(R"({"jsonrpc":"2.0","method":"notifications/unknown","params":{"x":1}})");
  s.send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":12345}})");
  s.send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":"oops"})");
  s.send(R"({"jsonrpc":"2.0","method":"notifications/progress","params":[1]})");
  s.expect_alive();
  // Responses to requests the server never sent are dropped silently (and logged on stderr).
  s.send(R"({"jsonrpc":"2.0","id":99,"result":{}})");
  s.send(R"({"jsonrpc":"2.0","id":"s1","error":{"code":-1,"message":"no"}})");
  s.expect_alive();
  // Malformed responses: both result and error, or neither, or a null id.
  CHECK(code_of(s.ask(R"({"jsonrpc":"2.0","id":5,"result":{},"error":{"code":1,"message":"x"}})")) == -32600);
  CHECK(code_of(s.ask(R"({"jsonrpc":"2.0","id":5})")) == -32600);
  CHECK(code_of(s.ask(R"({"jsonrpc":"2.0","id":null,"result":{}})")) == -32600);
  s.expect_alive();
  s.finish();
}

TEST_CASE("hostile: lifecycle abuse: before initialize, twice, and after end of input", "[hostile]") {
  temp_dir dir;
  {
    notes_server s(dir.path + "/notes.json");
    // Before initialize only ping is served.
    json r = s.ask(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
    CHECK(code_of(r) == -32600);
    CHECK(r["id"] == 1);
    s.expect_alive();
    CHECK(code_of(s.ask(R"({"jsonrpc":"2.0","id":2,"method":"initialize","params":{}})")) == -32602);
    s.initialize();
    CHECK(code_of(s.ask(R"({"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})")) ==
          -32600);
    s.expect_alive();
    s.finish();
  }
  {
    // Requests written right before end of input are all answered, then the process exits 0.
    notes_server s(dir.path + "/notes.json");
    s.initialize();
    std::string burst;
    for (int i = 0; i < 20; ++i)
      burst += json{{"jsonrpc", "2.0"}, {"id", i}, {"method", i % 2 ? "ping" : "tools/call"},
                    {"params", {{"name", "search_notes"}, {"arguments", {{"query", "x"}}}}}}.dump() + "\n";
    s.send_raw(burst);
    std::vector<bool> answered(20, false);
    for (int i = 0; i < 20; ++i) {
      json m = s.next();
      REQUIRE(m["id"].is_number_integer());
      answered[m["id"].get<int>()] = true;
    }
    for (int i = 0; i < 20; ++i) CHECK(answered[i]);
    s.finish();
  }
  {
    // A last message without its newline is still served; then the exit.
    notes_server s(dir.path + "/notes.json");
    s.send_raw(R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
    s.close_input();
    CHECK(s.next()["id"] == 1);
    s.finish();
  }
}

TEST_CASE("hostile: huge argument arrays and a 10,000-character tool name", "[hostile]") {
  temp_dir dir;
  notes_server s(dir.path + "/notes.json");
  s.initialize();
  json big = json::array();
  for (int i = 0; i < 100000; ++i) big.push_back(i);
  // Where a string is expected.
  json r = s.call_tool(1, "search_notes", {{"query", big}});
  REQUIRE(r.contains("result"));
  CHECK(r["result"]["isError"] == true);
  CHECK(text_of(r).size() < 10000);  // the error describes the value, it does not echo it
  s.expect_alive();
  // As an unknown extra property: left out by lossless coercion (issue #56), the call runs.
  r = s.call_tool(2, "search_notes", {{"query", "x"}, {"extra", big}});
  CHECK(r["result"].value("isError", false) == false);
  CHECK(text_of(r).size() < 10000);
  // As a near miss of a field, which is refused.
  r = s.call_tool(5, "search_notes", {{"query", "x"}, {"limt", big}});
  CHECK(r["result"]["isError"] == true);
  CHECK(text_of(r).find("did you mean 'limit'?") != std::string::npos);
  CHECK(text_of(r).size() < 10000);
  // As params and as a whole message.
  CHECK(code_of(s.ask(json{{"jsonrpc", "2.0"}, {"id", 3}, {"method", "tools/call"}, {"params", big}}.dump())) == -32602);
  CHECK(code_of(s.ask(big.dump())) == -32600);
  s.expect_alive();

  const std::string long_name(10000, 'a');
  r = s.call_tool(4, long_name, json::object());
  CHECK(code_of(r) == -32602);
  CHECK(message_of(r).find("Unknown tool") != std::string::npos);
  s.expect_alive();
  s.finish();
}

TEST_CASE("hostile: handler failures never leak paths or internal details", "[hostile]") {
  // A store in a folder that does not exist: reading finds nothing, every write fails inside the
  // handler with an exception naming the path.
  const std::string missing = "/nonexistent-mcp-hostile-dir/deeper/notes.json";
  notes_server s(missing);
  s.initialize();
  json r = s.call_tool(1, "create_note", {{"title", "secret plans"}, {"body", "b"}});
  REQUIRE(r.contains("result"));
  CHECK(r["result"]["isError"] == true);
  const std::string reply = r.dump();
  CHECK(reply.find("nonexistent") == std::string::npos);
  CHECK(reply.find("notes.json") == std::string::npos);
  CHECK(reply.find("internal error") != std::string::npos);
  s.expect_alive();
  s.finish();
  // The details went to stderr, for the operator.
  CHECK(s.stderr_text().find("nonexistent-mcp-hostile-dir") != std::string::npos);
}
