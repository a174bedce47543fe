// Skills (SEP-2640): the frontmatter reader, the checks made when a skill is added, and the
// methods and resources a client sees, in both eras.
#include "catch.hpp"

#include <mcp/ext/skills.hpp>
#include <mcp/mcp.hpp>
#include <mcp/testing.hpp>

#include <filesystem>
#include <map>
#include <fstream>
#include <set>

#include <unistd.h>

using mcp::json;

namespace test_skills {  // a namespace per file: CMake's unity build compiles several test files as one

namespace {

const std::string manifest = "---\nname: pdf-processing\ndescription: Work with PDFs.\nmetadata:\n  author: me\n  version: \"1.0\"\n---\n\n# PDF\n";

mcp::skill pdf_skill() {
  return {"pdf-processing", {{"references/FORMS.md", "# Forms\n"}, {"SKILL.md", manifest}, {"logo.bin", std::string("\x89PNG\0\xff", 6)}}};
}

std::string sha256_of(const std::string& bytes) { return mcp::detail::sha256_text(bytes); }

}  // namespace

TEST_CASE("skills: the frontmatter reads as YAML would, or is refused naming the line") {
  using mcp::detail::parse_skill_frontmatter;
  CHECK(parse_skill_frontmatter(manifest) ==
        json{{"name", "pdf-processing"}, {"description", "Work with PDFs."}, {"metadata", {{"author", "me"}, {"version", "1.0"}}}});
  CHECK(parse_skill_frontmatter("---\r\nname: 'it''s'\r\ndescription: \"a \\\"b\\\"\"\r\n---\r\n") ==
        json{{"name", "it's"}, {"description", "a \"b\""}});
  CHECK(parse_skill_frontmatter("\xEF\xBB\xBF---\n# a comment\nname: x\n\ndescription: d e f\n---") == json{{"name", "x"}, {"description", "d e f"}});
  auto refused = [](const std::string& text, const std::string& why) {
    INFO(text);
    try {
      parse_skill_frontmatter(text);
      FAIL("accepted");
    } catch (const std::invalid_argument& e) {
      CHECK(std::string(e.what()).find(why) != std::string::npos);
    }
  };
  refused("name: x\n", "must begin with a line '---'");
  refused("---\nname: x\n", "not closed");
  refused("---\nversion: 1.0\n---\n", "line 2: the value '1.0' would not read as plain text");
  refused("---\nready: yes\n---\n", "put it in double quotes");
  refused("---\nempty:\n---\n", "has nothing under it");
  refused("---\nname:\n---\n", "has nothing under it");
  refused("---\nlist: [a, b]\n---\n", "would not read as plain text");
  refused("---\ndescription: one\n  two\n---\n", "line 3: expected 'key: value'");
  refused("---\nname: a\nname: b\n---\n", "appears twice");
  refused("---\nm:\n  a: b\n    c: d\n---\n", "indent every line");
  refused("---\nd: \"open\n---\n", "closing quote");
  refused("---\nd: a: b\n---\n", "would not read as plain text");
}

TEST_CASE("skills: a skill is checked when added") {
  mcp::skill_set set;
  set.add(pdf_skill());
  CHECK(set.size() == 1);
  CHECK_THROWS_AS(set.add(pdf_skill()), mcp::definition_error);  // twice
  auto refused = [&](mcp::skill s, const std::string& why) {
    try {
      set.add(std::move(s));
      FAIL("accepted");
    } catch (const mcp::definition_error& e) {
      INFO(e.what());
      CHECK(std::string(e.what()).find(why) != std::string::npos);
    }
  };
  refused({"Bad--Name", {{"SKILL.md", manifest}}}, "lower-case letters");
  refused({"no-manifest", {{"README.md", "x"}}}, "no SKILL.md");
  refused({"other", {{"SKILL.md", manifest}}}, "name must be \"other\"");
  refused({"pdf-x", {{"SKILL.md", "---\nname: pdf-x\n---\n"}}}, "needs a description");
  refused({"pdf-y", {{"SKILL.md", "---\nname: pdf-y\ndescription: d\n---\n"}, {"../escape", "x"}}}, "file path '../escape'");
  refused({"pdf-z", {{"SKILL.md", "---\nname: pdf-z\ndescription: d\n---\n"}, {"a b.md", "x"}}}, "rename it");
  mcp::skill many{"many", {{"SKILL.md", "---\nname: many\ndescription: d\n---\n"}}};
  for (int i = 0; i < 512; ++i) many.files.push_back({"f" + std::to_string(i), "x"});
  refused(std::move(many), "513 files");
  refused({"huge", {{"SKILL.md", "---\nname: huge\ndescription: d\n---\n"}, {"big", std::string(16u * 1024 * 1024, 'x')}}},
          "bytes; a skill may hold 16777216");
}

TEST_CASE("skills: skills/list, skills/get and the files as resources, in both eras") {
  mcp::server srv({"skills", "1.0.0"});
  mcp::skill_set set;
  set.add(pdf_skill());
  set.serve(srv);

  mcp::testing::client c(srv);
  json init = c.initialize();
  CHECK(init["capabilities"]["extensions"][mcp::skills_extension] == json::object());
  CHECK(init["capabilities"].contains("resources"));
  json list = c.result("skills/list");
  REQUIRE(list["skills"].size() == 1);
  const json& entry = list["skills"][0];
  CHECK(entry["uri"] == "skill://pdf-processing/SKILL.md");
  CHECK(entry["frontmatter"]["metadata"]["version"] == "1.0");
  REQUIRE(entry["resources"].size() == 3);
  CHECK(entry["resources"][0] == json{{"uri", "skill://pdf-processing/SKILL.md"}, {"digest", sha256_of(manifest)}, {"size", manifest.size()}});
  CHECK(entry["resources"][2]["uri"] == "skill://pdf-processing/references/FORMS.md");
  CHECK(sha256_of("abc") == "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");  // FIPS 180-2 example

  CHECK(c.result("skills/get", {{"uri", "skill://pdf-processing/SKILL.md"}})["skill"] == entry);
  CHECK(c.request("skills/get", {{"uri", "skill://nope/SKILL.md"}})["error"]["code"] == -32602);
  CHECK(c.request("skills/get", json::object())["error"]["code"] == -32602);

  std::map<std::string, json> resources;
  const json listed = c.result("resources/list");
  for (const auto& r : listed["resources"]) resources[r["uri"].get<std::string>()] = r;
  const json& md = resources["skill://pdf-processing/SKILL.md"];
  CHECK(md["mimeType"] == "text/markdown");
  CHECK(md["name"] == "pdf-processing");
  CHECK(md["description"] == "Work with PDFs.");
  CHECK(resources["skill://pdf-processing/logo.bin"]["mimeType"] == "application/octet-stream");
  json read = c.result("resources/read", {{"uri", "skill://pdf-processing/SKILL.md"}});
  CHECK(read["contents"][0]["text"] == manifest);
  json blob = c.result("resources/read", {{"uri", "skill://pdf-processing/logo.bin"}});
  CHECK(blob["contents"][0]["blob"] == "iVBORwD/");

  // 2026-07-28: the cache attributes the extension asks for.
  mcp::testing::client modern(srv);
  json discovered = modern.stateless_request("server/discover");
  CHECK(discovered["result"]["capabilities"]["extensions"].contains(mcp::skills_extension));
  json modern_list = modern.stateless_request("skills/list");
  CHECK(modern_list["result"]["skills"].size() == 1);
  CHECK(modern_list["result"].contains("ttlMs"));
  CHECK(modern_list["result"].contains("cacheScope"));
  json modern_get = modern.stateless_request("skills/get", {{"uri", "skill://pdf-processing/SKILL.md"}});
  CHECK(modern_get["result"].contains("ttlMs"));
}

TEST_CASE("skills: a folder of skills loads with one call") {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(MCP_TEST_BINARY_DIR) / ("scratch-skills-" + std::to_string(getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "pdf-processing" / "references");
  fs::create_directories(root / "not-a-skill");
  std::ofstream(root / "pdf-processing" / "SKILL.md") << manifest;
  std::ofstream(root / "pdf-processing" / "references" / "FORMS.md") << "# Forms\n";
  std::ofstream(root / "not-a-skill" / "notes.txt") << "no manifest here";
  mcp::server srv({"skills", "1.0.0"});
  CHECK(mcp::serve_skills(srv, root) == 1);
  mcp::testing::client c(srv);
  c.initialize();
  json entry = c.result("skills/list")["skills"][0];
  std::set<std::string> uris;
  for (const auto& r : entry["resources"]) uris.insert(r["uri"].get<std::string>());
  CHECK(uris == std::set<std::string>{"skill://pdf-processing/SKILL.md", "skill://pdf-processing/references/FORMS.md"});
  CHECK_THROWS_AS(mcp::serve_skills(srv, root / "missing"), mcp::definition_error);
  fs::remove_all(root);
}

TEST_CASE("skills: resources/directory/read lists a folder's children, folders as inode/directory") {
  mcp::server srv({"skills", "1.0.0"});
  mcp::skill_set set;
  set.add(pdf_skill());
  set.serve(srv, true);
  mcp::testing::client c(srv);
  json init = c.initialize();
  CHECK(init["capabilities"]["extensions"][mcp::skills_extension] == json{{"directoryRead", true}});
  json root = c.result("resources/directory/read", {{"uri", "skill://pdf-processing"}});
  std::map<std::string, std::string> kinds;
  for (const auto& r : root["resources"]) kinds[r["uri"].get<std::string>()] = r["mimeType"].get<std::string>();
  CHECK(kinds == std::map<std::string, std::string>{{"skill://pdf-processing/SKILL.md", "text/markdown"},
                                                    {"skill://pdf-processing/logo.bin", "application/octet-stream"},
                                                    {"skill://pdf-processing/references", "inode/directory"}});
  json sub = c.result("resources/directory/read", {{"uri", "skill://pdf-processing/references"}});
  REQUIRE(sub["resources"].size() == 1);
  CHECK(sub["resources"][0]["uri"] == "skill://pdf-processing/references/FORMS.md");
  CHECK(c.request("resources/directory/read", {{"uri", "skill://pdf-processing/SKILL.md"}})["error"]["code"] == -32602);
  CHECK(c.request("resources/directory/read", {{"uri", 5}})["error"]["code"] == -32602);
}

}  // namespace test_skills
