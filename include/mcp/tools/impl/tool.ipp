// Out-of-line bodies of tools/tool.hpp, included once from its bottom (or compiled into the
// library in compiled mode): the non-template steps every typed tool shares, compiled once there
// rather than in each file that registers a tool.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {

MCP_DECL std::map<std::string, int> count_keywords(const std::vector<violation>& v) {
  std::map<std::string, int> counts;
  for (const auto& x : v) ++counts[x.keyword];
  return counts;
}

MCP_DECL const json* check_arguments(const json& args, const validator& in, const pipeline_settings& s, context& ctx,
                                     json& scratch, result_sink& sink) {
  const std::size_t max_depth = argument_depth_limit(s.owner->options().max_json_depth);
  auto problems = in.validate(args, max_depth);
  if (problems.empty()) return &args;
  if (s.coerce != coercion::off) {
    scratch = args;
    coercion_report report = coerce(scratch, in, s.coerce, max_depth);
    if (report.count > 0) {
      auto after = in.validate(scratch, max_depth);
      if (after.empty()) {
        s.stats->record_coercions(report.by_kind);
        ctx.log(log_level::debug, json{{"tool", s.tool_name}, {"coerced", report.log}}, "mcp.coercion");
        return &scratch;
      }
      problems = std::move(after);
    }
    problems.insert(problems.end(), report.refused.begin(), report.refused.end());
  }
  s.stats->record_validation_failure(count_keywords(problems));
  sink.text(describe_violations(s.tool_name, problems, in.schema()), true);
  return nullptr;
}

MCP_DECL json no_argument_schema() { return json{{"type", "object"}, {"additionalProperties", false}}; }

MCP_DECL pipeline_settings prepare_tool(tool_definition& def, std::string name, std::string description, json input_schema,
                                        json output_schema, nlohmann::ordered_json display_schema,
                                        const tool_options& options, const server& owner, bool output_may_break) {
  pipeline_settings s;
  s.tool_name = name;
  s.coerce = options.coerce.value_or(owner.options().coerce);
  s.validate_output = options.validate_output.value_or(owner.options().validate_output);
  s.format = options.format;
  s.render = options.render;
  s.text_budget = options.text_budget;
  s.truncation_hint = options.truncation_hint;
  if (!output_schema.is_null() && output_may_break)  // also checks a runtime output schema at registration
    s.output_validator = std::make_shared<const validator>(output_schema, validator::root::any);
  s.output_schema = output_schema;
  s.display_schema = std::move(display_schema);
  s.owner = &owner;
  s.stats = std::make_shared<tool_stats>();

  def.name = std::move(name);
  def.title = options.title;
  def.description = std::move(description);
  def.input_schema = std::move(input_schema);
  def.output_schema = std::move(output_schema);
  def.hints = options.hints;
  def.icons = options.icons;
  def.meta = detail::tool_meta(options, def.name);
  def.scopes = options.scopes;
  def.task = options.task;
  def.task_begins = options.task_begins;
  return s;
}

}  // namespace detail
}  // namespace v0
}  // namespace mcp
