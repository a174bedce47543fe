// Content blocks, CallToolResult, base64, text renderers and the context-window helpers.
#include "catch.hpp"
#include "official_schema.hpp"

#include <mcp/core/content.hpp>
#include <mcp/json/detail/base64.hpp>
#include <mcp/core/paging.hpp>
#include <mcp/tools/render.hpp>

#include <set>

using mcp::json;

namespace test_content {  // a namespace per file: CMake's unity build compiles several test files as one

TEST_CASE("content helpers produce the spec's blocks", "[content]") {
  CHECK(mcp::text("hello") == json::parse(R"({"type":"text","text":"hello"})"));

  const json img = mcp::image(std::string("\x89PNG", 4), "image/png");
  CHECK(img == json::parse(R"({"type":"image","data":"iVBORw==","mimeType":"image/png"})"));

  const json snd = mcp::audio("foobar", "audio/wav");
  CHECK(snd == json::parse(R"({"type":"audio","data":"Zm9vYmFy","mimeType":"audio/wav"})"));

  const json bare_link = mcp::resource_link("file:///a.txt", "a.txt");
  CHECK(bare_link == json::parse(R"({"type":"resource_link","uri":"file:///a.txt","name":"a.txt"})"));
  const json link = mcp::resource_link("file:///a.txt", "a.txt", "text/plain", "The first note");
  CHECK(link == json::parse(R"({"type":"resource_link","uri":"file:///a.txt","name":"a.txt",
                                "mimeType":"text/plain","description":"The first note"})"));

  const json et = mcp::embedded_text("note://1", "body", "text/markdown");
  CHECK(et == json::parse(R"({"type":"resource","resource":{"uri":"note://1","text":"body","mimeType":"text/markdown"}})"));
  CHECK(mcp::embedded_text("note://1", "") == json::parse(R"({"type":"resource","resource":{"uri":"note://1","text":""}})"));

  const json eb = mcp::embedded_blob("blob://x", "fo");
  CHECK(eb == json::parse(R"({"type":"resource","resource":{"uri":"blob://x","blob":"Zm8="}})"));
  CHECK(mcp::embedded_blob("blob://x", "f", "application/octet-stream")["resource"]["mimeType"] ==
        "application/octet-stream");
}

TEST_CASE("annotations are added only for the fields given, and checked", "[content]") {
  mcp::content_annotations a;
  CHECK(mcp::with_annotations(mcp::text("x"), a) == mcp::text("x"));

  a.audience = {"user", "assistant"};
  a.priority = 0.25;
  a.last_modified = "2025-01-12T15:00:58Z";
  const json block = mcp::with_annotations(mcp::text("x"), a);
  CHECK(block == json::parse(R"({"type":"text","text":"x","annotations":{"audience":["user","assistant"],
                                 "priority":0.25,"lastModified":"2025-01-12T15:00:58Z"}})"));

  mcp::content_annotations only_priority;
  only_priority.priority = 1.0;
  CHECK(mcp::with_annotations(mcp::embedded_text("u://", "t"), only_priority)["annotations"] ==
        json::parse(R"({"priority":1.0})"));

  mcp::content_annotations bad_role;
  bad_role.audience = {"system"};
  CHECK_THROWS_AS(mcp::with_annotations(mcp::text("x"), bad_role), mcp::error);
  mcp::content_annotations bad_priority;
  bad_priority.priority = 1.5;
  CHECK_THROWS_AS(mcp::with_annotations(mcp::text("x"), bad_priority), mcp::error);
}

TEST_CASE("tool_result serialises to a CallToolResult", "[content]") {
  SECTION("content is always present, the rest only when set") {
    CHECK(mcp::tool_result{}.to_json() == json::parse(R"({"content":[]})"));
    mcp::tool_result r;
    r.content.push_back(mcp::text("hi"));
    CHECK(r.to_json() == json::parse(R"({"content":[{"type":"text","text":"hi"}]})"));
  }
  SECTION("all fields") {
    mcp::tool_result r;
    r.content = {mcp::text("a"), mcp::image("f", "image/gif")};
    r.structured_content = json{{"n", 1}};
    r.is_error = true;
    r.meta = json{{"trace", "t1"}};
    const json out = r.to_json();
    CHECK(out == json::parse(R"({"content":[{"type":"text","text":"a"},
                                            {"type":"image","data":"Zg==","mimeType":"image/gif"}],
                                 "structuredContent":{"n":1},"isError":true,"_meta":{"trace":"t1"}})"));
  }
  SECTION("aggregate initialisation, as the tool pipeline uses it") {
    const json out = mcp::tool_result{{mcp::text("oops")}, std::nullopt, true, nullptr}.to_json();
    CHECK(out == json::parse(R"({"content":[{"type":"text","text":"oops"}],"isError":true})"));
  }
  SECTION("tool_error carries its message and is catchable as a runtime_error") {
    try {
      throw mcp::tool_error("Note 'x' does not exist. Use list_notes to see the titles.");
    } catch (const std::runtime_error& e) {
      CHECK(std::string(e.what()) == "Note 'x' does not exist. Use list_notes to see the titles.");
    }
  }
}

TEST_CASE("official schema: content blocks, annotations and tool results", "[.official-schema]") {
  mcp::content_annotations a;
  a.audience = {"user", "assistant"};
  a.priority = 0.25;
  a.last_modified = "2025-01-12T15:00:58Z";
  const json annotated = mcp::with_annotations(mcp::text("x"), a);
  const json et = mcp::embedded_text("note://1", "body", "text/markdown");
  const json eb = mcp::embedded_blob("blob://x", "fo");
  mcp::tool_result text_only;
  text_only.content.push_back(mcp::text("hi"));
  mcp::tool_result everything;
  everything.content = {mcp::text("a"), mcp::image("f", "image/gif")};
  everything.structured_content = json{{"n", 1}};
  everything.is_error = true;
  everything.meta = json{{"trace", "t1"}};
  const std::vector<std::pair<json, std::string>> checks = {
      {mcp::text("hello"), "TextContent"},
      {mcp::image(std::string("\x89PNG", 4), "image/png"), "ImageContent"},
      {mcp::audio("foobar", "audio/wav"), "AudioContent"},
      {mcp::resource_link("file:///a.txt", "a.txt"), "ResourceLink"},
      {mcp::resource_link("file:///a.txt", "a.txt", "text/plain", "The first note"), "ResourceLink"},
      {et, "EmbeddedResource"},
      {et["resource"], "TextResourceContents"},
      {mcp::embedded_text("note://1", ""), "EmbeddedResource"},
      {eb, "EmbeddedResource"},
      {eb["resource"], "BlobResourceContents"},
      {annotated, "TextContent"},
      {annotated["annotations"], "Annotations"},
      {mcp::with_annotations(mcp::embedded_text("u://", "t"), mcp::content_annotations{{}, 1.0, std::nullopt}),
       "EmbeddedResource"},
      {mcp::tool_result{}.to_json(), "CallToolResult"},
      {text_only.to_json(), "CallToolResult"},
      {everything.to_json(), "CallToolResult"},
      {mcp::tool_result{{mcp::text("oops")}, std::nullopt, true, nullptr}.to_json(), "CallToolResult"},
  };
  for (const auto& [value, definition] : checks) CHECK_OFFICIAL(value, definition);
}

TEST_CASE("base64 follows RFC 4648", "[content][base64]") {
  using mcp::detail::base64_decode;
  using mcp::detail::base64_encode;
  const std::pair<const char*, const char*> vectors[] = {{"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},
                                                         {"foo", "Zm9v"},  {"foob", "Zm9vYg=="},  {"fooba", "Zm9vYmE="},
                                                         {"foobar", "Zm9vYmFy"}};
  for (const auto& v : vectors) {
    INFO(v.first);
    CHECK(base64_encode(v.first) == v.second);
    auto back = base64_decode(v.second);
    REQUIRE(back);
    CHECK(*back == v.first);
  }

  std::string all_bytes;
  for (int i = 0; i < 256; ++i) all_bytes += char(i);
  for (std::size_t n = 0; n <= all_bytes.size(); n += 37) {
    const std::string slice = all_bytes.substr(all_bytes.size() - n);
    CHECK(base64_decode(base64_encode(slice)) == slice);
    CHECK(mcp::detail::base64url_decode(mcp::detail::base64url_encode(slice)) == slice);
  }
  CHECK(base64_encode("\xfb\xff") == "+/8=");
  CHECK(mcp::detail::base64url_encode("\xfb\xff") == "-_8");

  for (const char* bad : {"Zg=", "Zg", "Z===", "====", "Zg=a", "Zm9v YmFy", "Zm9v\n", "Zm9v*", "Zh==", "Zm9=",
                          "-_8=", "=Zg="}) {
    INFO(bad);
    CHECK_FALSE(base64_decode(bad));
  }
  for (const char* bad : {"Zg==", "+/8", "Z", "Zh"}) {
    INFO(bad);
    CHECK_FALSE(mcp::detail::base64url_decode(bad));
  }
}

TEST_CASE("render_json is compact and survives invalid UTF-8", "[render]") {
  CHECK(mcp::render_json(json::parse(R"({"b":[1,2.5,true,null],"a":"x y"})")) == R"({"a":"x y","b":[1,2.5,true,null]})");
  CHECK(mcp::render_json(json("caf\xc3\xa9")) == "\"caf\xc3\xa9\"");
  CHECK(mcp::render_json(json("bad \xff byte")) == "\"bad \xef\xbf\xbd byte\"");
}

TEST_CASE("render_markdown: Field: value lines in a fenced block", "[render]") {
  SECTION("flat object without schema, in the object's key order") {
    CHECK(mcp::render_markdown(json::parse(R"({"title":"Hello","word_count":42,"draft":false,"score":0.5})")) ==
          "```\nDraft: false\nScore: 0.5\nTitle: Hello\nWord count: 42\n```");
  }
  SECTION("schema properties are all shown, N/A for absent or null") {
    const json schema = json::parse(R"({"type":"object","properties":{
        "title":{"type":"string"},"summary":{"type":"string"},"word_count":{"type":"integer"}}})");
    CHECK(mcp::render_markdown(json::parse(R"({"title":"Hi","word_count":null})"), schema) ==
          "```\nSummary: N/A\nTitle: Hi\nWord count: N/A\n```");
  }
  SECTION("a property's title overrides the label; fields outside the schema follow") {
    const json schema = json::parse(R"({"type":"object","properties":{
        "word_count":{"type":"integer","title":"Number of words"}}})");
    CHECK(mcp::render_markdown(json::parse(R"({"word_count":7,"extra_field":"e"})"), schema) ==
          "```\nNumber of words: 7\nExtra field: e\n```");
  }
  SECTION("nested objects are indented under their label") {
    const json value = json::parse(R"({"author":{"name":"Ann","email":null,"address":{"city":"Oslo"}},"id":3})");
    CHECK(mcp::render_markdown(value) ==
          "```\nAuthor:\n  Address:\n    City: Oslo\n  Email: N/A\n  Name: Ann\nId: 3\n```");
  }
  SECTION("arrays of scalars are numbered; empty ones say so") {
    const json value = json::parse(R"({"headings":["Intro","Usage"],"tags":[]})");
    CHECK(mcp::render_markdown(value) == "```\nHeadings:\n  1. Intro\n  2. Usage\nTags: (none)\n```");
  }
  SECTION("arrays of objects are numbered with their fields indented, following the item schema") {
    const json schema = json::parse(R"({"type":"object","properties":{"users":{"type":"array","items":{
        "type":"object","properties":{"name":{"type":"string"},"role":{"type":"string","title":"Job"}}}}}})");
    const json value = json::parse(R"({"users":[{"name":"Ann","role":"dev"},{"name":"Bo"}]})");
    CHECK(mcp::render_markdown(value, schema) ==
          "```\nUsers:\n  1. Name: Ann\n     Job: dev\n  2. Name: Bo\n     Job: N/A\n```");
  }
  SECTION("multi-line strings are indented under their label") {
    CHECK(mcp::render_markdown(json{{"body", "line one\nline two"}}) == "```\nBody:\n  line one\n  line two\n```");
  }
  SECTION("the fence is longer than any backtick run inside") {
    CHECK(mcp::render_markdown(json{{"code", "```cpp\nint x;\n```"}}) ==
          "````\nCode:\n  ```cpp\n  int x;\n  ```\n````");
    CHECK(mcp::render_markdown(json{{"code", "a `````b"}}) == "``````\nCode: a `````b\n``````");
    CHECK(mcp::render_markdown(json{{"code", "a `b` ``c``"}}) == "```\nCode: a `b` ``c``\n```");
  }
  SECTION("optional values given as anyOf and recursive types through $ref are followed") {
    const json schema = json::parse(R"({"type":"object","$defs":{"node":{"type":"object","properties":{
          "label":{"type":"string"},"next":{"anyOf":[{"$ref":"#/$defs/node"},{"type":"null"}]}}}},
        "properties":{"head":{"$ref":"#/$defs/node"}}})");
    const json value = json::parse(R"({"head":{"label":"a","next":{"label":"b"}}})");
    CHECK(mcp::render_markdown(value, schema) == "```\nHead:\n  Label: a\n  Next:\n    Label: b\n    Next: N/A\n```");
  }
  SECTION("values that are not objects") {
    CHECK(mcp::render_markdown(json(12)) == "```\n12\n```");
    CHECK(mcp::render_markdown(json::parse(R"(["x",{"a":1}])")) == "```\n1. x\n2. A: 1\n```");
  }
  SECTION("invalid UTF-8 is replaced, not passed on") {
    CHECK(mcp::render_markdown(json{{"s", "\xff"}}) == "```\nS: \xef\xbf\xbd\n```");
  }
}

TEST_CASE("render_markdown_list: a heading line and one block per record", "[render]") {
  const json schema = json::parse(R"({"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}}})");
  const json users = json::parse(R"([{"name":"Ann","age":31},{"name":"Bo"}])");
  CHECK(mcp::render_markdown_list(users, schema, "users") ==
        "Found 2 users:\n\n```\nAge: 31\nName: Ann\n```\n\n```\nAge: N/A\nName: Bo\n```");
  CHECK(mcp::render_markdown_list(json::array(), schema, "users") == "No users found.");
}

TEST_CASE("truncate_text cuts on a UTF-8 boundary and says how to continue", "[paging]") {
  CHECK(mcp::truncate_text("short", 5, "ask again") == "short");
  CHECK(mcp::truncate_text("abcdef", 4, "use offset=4") == "abcd\n[truncated: showed 4 of 6 characters; use offset=4]");
  CHECK(mcp::truncate_text("abcdef", 0, "") == "\n[truncated: showed 0 of 6 characters]");

  // "a" + "é" (2 bytes) + "€" (3 bytes) + "b": a budget inside the euro sign backs up before it.
  const std::string text = "a\xc3\xa9\xe2\x82\xac" "b";
  for (std::size_t budget : {3u, 4u, 5u}) {
    INFO(budget);
    CHECK(mcp::truncate_text(text, budget, "page 2") == "a\xc3\xa9\n[truncated: showed 2 of 4 characters; page 2]");
  }
  CHECK(mcp::truncate_text(text, 2, "x") == "a\n[truncated: showed 1 of 4 characters; x]");
  CHECK(mcp::truncate_text(text, 6, "x") == "a\xc3\xa9\xe2\x82\xac\n[truncated: showed 3 of 4 characters; x]");
}

TEST_CASE("cursors are opaque, tagged and checked", "[paging]") {
  for (std::size_t offset : {std::size_t(0), std::size_t(1), std::size_t(4000), std::size_t(-1)}) {
    const std::string c = mcp::make_cursor(offset, "q=notes");
    CHECK(c.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") == std::string::npos);
    CHECK(mcp::read_cursor(c, "q=notes") == offset);
    CHECK_FALSE(mcp::read_cursor(c, "q=other"));
    CHECK_FALSE(mcp::read_cursor(c));
  }
  CHECK(mcp::read_cursor(mcp::make_cursor(9)) == std::size_t(9));
  CHECK(mcp::make_cursor(1, "a") != mcp::make_cursor(2, "a"));

  const std::string good = mcp::make_cursor(5, "t");
  std::string flipped = good;
  flipped[2] = flipped[2] == 'A' ? 'B' : 'A';
  CHECK_FALSE(mcp::read_cursor(flipped, "t"));
  CHECK_FALSE(mcp::read_cursor(good.substr(1), "t"));
  for (const char* junk : {"", "garbage", "!!!", "5", "MTA", "YzE6OjA"}) {
    INFO(junk);
    CHECK_FALSE(mcp::read_cursor(junk));
  }
  // Well-formed base64url of a payload whose offset is not a canonical number.
  const std::string hash = mcp::detail::to_hex(mcp::detail::fnv1a(""));
  CHECK(mcp::read_cursor(mcp::detail::base64url_encode("c1:7:" + hash)) == std::size_t(7));
  for (const char* offset : {"", "07", "-1", "1x", "99999999999999999999999"}) {
    INFO(offset);
    CHECK_FALSE(mcp::read_cursor(mcp::detail::base64url_encode("c1:" + std::string(offset) + ":" + hash)));
  }
}

TEST_CASE("paginate walks every item exactly once", "[paging]") {
  for (std::size_t total : {0u, 1u, 9u, 10u, 11u, 25u}) {
    for (std::size_t page_size : {1u, 3u, 10u}) {
      INFO("total " << total << ", page size " << page_size);
      std::vector<int> seen(total, 0);
      std::optional<std::string> cursor;
      std::size_t pages = 0;
      do {
        const mcp::page_window w = mcp::paginate(total, page_size, cursor, "tools");
        REQUIRE(w.begin <= w.end);
        REQUIRE(w.end <= total);
        CHECK(w.end - w.begin <= page_size);
        for (std::size_t i = w.begin; i < w.end; ++i) ++seen[i];
        cursor = w.next_cursor;
        REQUIRE(++pages <= total + 1);
      } while (cursor);
      CHECK(pages == std::max<std::size_t>(1, (total + page_size - 1) / page_size));
      CHECK(std::count(seen.begin(), seen.end(), 1) == std::ptrdiff_t(total));
    }
  }
  SECTION("page size 0 returns everything at once") {
    const auto w = mcp::paginate(7, 0, std::nullopt);
    CHECK(w.begin == 0);
    CHECK(w.end == 7);
    CHECK_FALSE(w.next_cursor);
  }
  SECTION("bad cursors are rejected with a clear message") {
    std::string message;
    try {
      mcp::paginate(10, 3, std::string("nope"), "tools");
    } catch (const mcp::error& e) {
      CHECK(e.code() == mcp::error_code::invalid_cursor);
      message = e.what();
    }
    CHECK(message.find("invalid cursor") != std::string::npos);
    const auto first = mcp::paginate(10, 3, std::nullopt, "tools");
    REQUIRE(first.next_cursor);
    CHECK_THROWS_AS(mcp::paginate(10, 3, first.next_cursor, "prompts"), mcp::error);
  }
  SECTION("a cursor beyond a shrunken list gives an empty last page") {
    const auto w = mcp::paginate(2, 3, mcp::make_cursor(6, "tools"), "tools");
    CHECK(w.begin == 2);
    CHECK(w.end == 2);
    CHECK_FALSE(w.next_cursor);
  }
}

TEST_CASE("page<T> is a plain aggregate", "[paging]") {
  mcp::page<int> p{{1, 2, 3}, mcp::make_cursor(3)};
  CHECK(p.items.size() == 3);
  CHECK(mcp::read_cursor(*p.next_cursor) == std::size_t(3));
}

}  // namespace test_content
