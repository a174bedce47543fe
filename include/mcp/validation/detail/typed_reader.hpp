// Reads a typed tool's arguments from their text straight into the handler's argument type,
// checking each value against the fast path's compiled schema on the way: no mcp::json tree is
// built, walked and freed for them (issue #24: that tree was two thirds of a call with a long list).
//
// It answers only "read, and valid". Whatever it does not follow makes it give up: a key the type
// lacks or one sent twice, an array or object where the type wants a scalar, a schema node with
// more than MCP_STRUCT's shape (combinators, "$ref", rules on an object), a type it does not read
// (maps, variants, sets, mcp::json, mapped types). The tool then takes its tree road: the validator
// of record, then decode, which also word the refusal. What it accepts, that road accepts and
// decodes to an equal value: each scalar is checked by the same plain_schema node and taken as the
// same decode_into takes it. A string or an enum's name is checked on its text (by that node's own
// check, unless the plan found the node takes every string, or, for an enum, exactly its wire
// names: then reading it, or enum_from_wire, is the check) and taken as the text or through
// enum_from_wire; an integer within 64 bits is checked by
// its sign and magnitude and taken within U's range, as decode_integer does; any other scalar is
// read into a json and decoded. The structure is checked as plain_schema checks it (through the
// few calls validation.hpp declares, so that a file with typed tools needs not compile the fast
// path).
// tests/unit/test_typed_reader.cpp and tests/fuzz/fuzz_arguments.cpp compare the two roads.
//
// A value may be read into an object that held an earlier one (a tool keeps its argument objects
// for the next call): what it reads is what a fresh object would get, members outside MCP_STRUCT
// included, while strings and lists keep their storage. With a list of items that each hold a list
// this saves an allocation per item, which was the largest cost of a call after the reading itself
// (glibc keeps only seven freed blocks of a size per thread; tests/bench/results/history.md). A struct of
// MCP_STRUCT_DEF, whose every member is a field, is made fresh in place: each field read overwrites
// what its member held, and one the text leaves out is copied from a fresh struct. A struct of
// MCP_STRUCT may hold members it does not name, so it is remade whole and its fields' storage
// swapped back, which costs about a third more per order line (libstdc++'s string moves and swaps
// are out of line). The same tests read every text into a fresh object and into one that held the
// text before, and compare.
#pragma once

#include <mcp/json/detail/reader.hpp>
#include <mcp/json/json.hpp>
#include <mcp/schema/reflect.hpp>
#include <mcp/validation/validation.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {

// Where the reader is in the schema, prepared once per type: a scalar's node, an array's item, a
// struct's fields in declaration order.
struct text_plan {
  const plain_schema* node = nullptr;
  std::string name;        // a struct field's JSON name
  bool plain_name = false;  // spelled in JSON as it is (no escapes needed): matched on the text
  std::uint64_t name_word = 0, name_mask = 0;  // a plain name of at most 8 bytes, as json_reader compares it
  bool required = false;   // a struct field the schema or decode requires
  // A string's or an enum's: whether its text goes to the node's check. Not where the node takes
  // every string, nor for an enum whose node takes exactly its wire names (enum_from_wire decides).
  bool check_text = true;
  std::vector<text_plan> parts;
  std::uint64_t min_items = 0, max_items = 0;
};

// Reads values of T (the plan built for T's schema). Immutable once made: safe to use from several
// threads at once.
template <class T>
class typed_reader {
 public:
  // Null when T's schema has a node the reader does not follow: the tool then has its tree road only.
  static std::unique_ptr<const typed_reader> make(const plain_schema* root) {
    auto out = std::unique_ptr<typed_reader>(new typed_reader());
    if (!root || !plan<T>(root, out->plan_, 0)) return nullptr;
    return out;
  }

  // True when `text` is one object that was read into `out` and is valid; false when it gave up
  // (`out` is then unspecified, and may be read into again). Where refreshable_v<T>, `out` may
  // hold an earlier value: it ends as a fresh T would; otherwise it must be fresh. `max_depth`: the
  // levels of arrays and objects the value may have, counted from the value (validator::validate's).
  bool read(std::string_view text, std::size_t max_depth, T& out) const {
    const std::size_t taken = read_leading(text, max_depth, out);
    return taken && json_reader(text.substr(taken), max_depth).at_end();
  }
  // The same for the object that `text` starts with, whatever follows it: the bytes it took, up to
  // and with its closing brace, or 0 when it gave up. Every byte it takes passes through
  // json_reader's checks, so what it took is an object json_reader::skip_value accepts within
  // `max_depth`, ending at the same byte: mcp::message reads a tools/call's arguments this way
  // instead of checking them first (tests/fuzz/fuzz_arguments.cpp holds it to that).
  std::size_t read_leading(std::string_view text, std::size_t max_depth, T& out) const {
    json_reader in(text, max_depth);
    scratch held{std::string(), json(), std::string()};
    if (!in.peek('{') || !value(in, out, plan_, 0, held, refreshable_v<T>)) return 0;
    return static_cast<std::size_t>(in.position() - text.data());
  }

 private:
  typed_reader() = default;

  // The scalar being checked, kept between values so that reading one allocates nothing: strings
  // apart, since a json holding a number drops a string's buffer.
  struct scratch {
    json text, other;
    std::string escaped;  // an enum's name, when it has escapes
  };

  // Whether an earlier value of U can be made fresh while keeping its storage: moved aside, then
  // replaced by a new U. Every struct reachable from one that is, is (a type's implicit moves need
  // its members'). One that is not is read only as new (read_leading's `out` must then be fresh).
 public:
  template <class U>
  static constexpr bool refreshable_v = std::is_move_constructible_v<U> && std::is_move_assignable_v<U>;

 private:
  // Members whose storage a reused struct takes back before reading into them: their reading
  // overwrites all they held (a string is cleared, a list's items are read over and the rest
  // dropped, a struct starts afresh).
  template <class M>
  static constexpr bool keeps_storage_v =
      std::is_same_v<M, std::string> || (is_vector<M>::value && !std::is_same_v<M, std::vector<bool>>) ||
      (is_reflected_v<M> && !has_json_type_v<M>);

  template <class M>
  static constexpr bool is_scalar_v =
      !has_json_type_v<M> && (std::is_same_v<M, bool> || is_number_v<M> || is_string_v<M> || is_reflected_enum_v<M>);

  // The plan for a value of U at `node`; false where the reader can not follow it.
  template <class U>
  static bool plan(const plain_schema* node, text_plan& out, int level) {
    if (!node || level > 32) return false;  // types nest shallowly; recursive ones stop at their "$ref"
    out.node = node;
    if constexpr ((is_string_v<U> || is_reflected_enum_v<U>) && !has_json_type_v<U>) {
      out.check_text = !decided_without_check<U>(*node);
      return true;
    } else if constexpr (is_scalar_v<U> || (is_optional<U>::value && !has_json_type_v<U>)) {
      return true;  // an optional here (an item) is a scalar or gives up when read
    } else if constexpr (is_vector<U>::value && !std::is_same_v<U, std::vector<bool>>) {
      const plain_shape shape = shape_of(*node);
      if (!shape.array_items) return false;
      out.min_items = shape.min_items;
      out.max_items = shape.max_items;
      out.parts.resize(1);
      return plan<typename U::value_type>(shape.items, out.parts[0], level + 1);
    } else if constexpr (is_reflected_v<U> && !has_json_type_v<U>) {
      const plain_shape shape = shape_of(*node);
      if (!shape.object_properties) return false;
      const auto& fields = fields_of<U>();
      if (std::tuple_size_v<std::decay_t<decltype(fields)>> > 64) return false;
      const auto& required = required_of<U>();
      bool ok = true;
      std::size_t schema_required = 0;
      out.parts.resize(std::tuple_size_v<std::decay_t<decltype(fields)>>);
      for_each_field(fields, [&](const auto& f, auto index) {
        using M = typename std::decay_t<decltype(f)>::member_type;
        text_plan& part = out.parts[index];
        bool in_schema = false;
        const plain_schema* child = property_schema(*node, f.name, in_schema);
        part.name = f.name;
        part.plain_name = plain_run_end(part.name.data(), part.name.data() + part.name.size()) ==
                          part.name.data() + part.name.size();
        if (part.name.size() <= 8) {
          const unsigned char ones[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
          std::memcpy(&part.name_word, part.name.data(), part.name.size());
          std::memcpy(&part.name_mask, ones, part.name.size());
        }
        part.required = in_schema || required[index];
        schema_required += in_schema;
        if constexpr (is_optional<M>::value)  // a field: absent or its value's schema (never null)
          ok = ok && plan<typename M::value_type>(child, part, level + 1);
        else
          ok = ok && plan<M>(child, part, level + 1);
      });
      // Every property the schema requires is a field, so a missing one is seen.
      return ok && schema_required == shape.required_count;
    } else {
      return false;
    }
  }

  // Whether the node's verdict on a string read into U is known without asking it: it takes every
  // string, or (for an enum) exactly U's wire names, which is what enum_from_wire takes.
  template <class U>
  static bool decided_without_check(const plain_schema& node) {
    const std::vector<std::string_view>* choices = nullptr;
    if (!plain_decides_strings(node, choices)) return false;
    if (!choices) return true;  // it takes every string
    if constexpr (is_reflected_enum_v<U>) {
      U ignored{};
      for (std::string_view name : *choices)
        if (!enum_from_wire(name, ignored)) return false;  // a name the enum lacks
      for (const auto& e : enum_table_of<U>().entries)
        if (std::find(choices->begin(), choices->end(), e.wire) == choices->end()) return false;
      return true;
    } else {
      return false;  // a string field with an enum: its check looks the text up
    }
  }

  // `reused`: for a struct, that `out` may hold an earlier value (it is made fresh first). The items
  // a list already holds are read over as reused ones (or dropped first, where they can not be).
  template <class U>
  static bool value(json_reader& in, U& out, const text_plan& p, std::size_t depth, scratch& held,
                    bool reused = false) {
    if constexpr (is_string_v<U> && !has_json_type_v<U>) {  // straight into the member, checked on its text
      return in.next() == '"' && in.read_string(out) && (!p.check_text || plain_accepts_string(*p.node, out));
    } else if constexpr (is_reflected_enum_v<U> && !has_json_type_v<U>) {
      std::string_view name;
      return in.next() == '"' && in.read_string_view(name, held.escaped) &&
             (!p.check_text || plain_accepts_string(*p.node, name)) && enum_from_wire(name, out);
    } else if constexpr (is_integer_v<U> && !has_json_type_v<U>) {
      bool negative = false;
      std::uint64_t magnitude = 0;
      if (in.read_integer(negative, magnitude))  // the usual integer: checked and taken without a json
        return plain_accepts_integer(*p.node, negative, magnitude) && integer_into(negative, magnitude, out);
      return scalar(in, out, p, held);  // 5.0, 1e2, beyond 64 bits, not a number: as any scalar
    } else if constexpr (is_scalar_v<U> || (is_optional<U>::value && !has_json_type_v<U>)) {
      return scalar(in, out, p, held);
    } else if constexpr (is_vector<U>::value && !std::is_same_v<U, std::vector<bool>>) {
      if (!enter(in, '[', depth)) return false;
      if constexpr (!refreshable_v<typename U::value_type>) out.clear();
      std::size_t n = 0;
      if (!in.consume(']')) {
        // Short lists are the usual: one allocation instead of three for 3 or 4 items (no more
        // than maxItems allows).
        if (out.capacity() == 0) out.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(4, p.max_items)));
        do {
          if (n == p.max_items) return false;
          const bool ok = n < out.size() ? value(in, out[n], p.parts[0], depth + 1, held, true)
                                         : value(in, out.emplace_back(), p.parts[0], depth + 1, held);
          if (!ok) return false;
          ++n;
        } while (in.consume(','));
        if (!in.consume(']')) return false;
      }
      out.resize(n);  // drops the items an earlier value had beyond this one's
      return n >= p.min_items;
    } else if constexpr (is_reflected_v<U> && !has_json_type_v<U>) {
      if (!enter(in, '{', depth)) return false;
      // Reused, where every member is a field (MCP_STRUCT_DEF): a field read overwrites all the
      // member held, and an absent one is copied from a fresh U below, so `out` is made fresh in
      // place. Otherwise `out` becomes a fresh U (so members outside MCP_STRUCT are as new), and
      // each field read below takes its old storage back first.
      constexpr bool in_place = has_every_member_hook<U>::value && std::is_copy_assignable_v<U>;
      std::optional<U> old;
      if constexpr (refreshable_v<U> && !in_place) {
        if (reused) {
          old.emplace(std::move(out));
          out = U();
        }
      }
      const auto& fields = fields_of<U>();
      std::uint64_t seen = 0;
      if (!in.consume('}')) {
        std::string key_scratch;
        std::string_view key;
        std::size_t i = 0;
        do {
          // Members usually come in declaration order: the field after the last one is tried first.
          if (i >= p.parts.size() || !p.parts[i].plain_name ||
              !in.consume_plain(p.parts[i].name, p.parts[i].name_word, p.parts[i].name_mask)) {
            if (!in.read_string_view(key, key_scratch)) return false;
            i = 0;
            while (i < p.parts.size() && p.parts[i].name != key) ++i;
          }
          if (!in.consume(':')) return false;
          if (i == p.parts.size() || (seen >> i & 1)) return false;  // unknown or repeated
          seen |= std::uint64_t{1} << i;
          bool ok = false;
          for_each_field(fields, [&](const auto& f, auto index) {
            if (index != i) return;
            using M = typename std::decay_t<decltype(f)>::member_type;
            auto& member = out.*f.member;
            if constexpr (is_optional<M>::value) {
              member.emplace();
              ok = value(in, *member, p.parts[index], depth + 1, held);
            } else if constexpr (in_place) {
              ok = value(in, member, p.parts[index], depth + 1, held, reused);
            } else {
              if constexpr (keeps_storage_v<M>)
                if (old) std::swap(member, (*old).*f.member);
              ok = value(in, member, p.parts[index], depth + 1, held, old.has_value());
            }
          });
          if (!ok) return false;
          ++i;
        } while (in.consume(','));
        if (!in.consume('}')) return false;
      }
      bool complete = true;
      for_each_field(fields, [&](const auto& f, auto index) {  // absent ones, as decode_struct does
        if (seen >> index & 1) return;
        if (p.parts[index].required) complete = false;
        if constexpr (in_place)
          if (reused) out.*f.member = fresh<U>().*f.member;
        std::apply([&](const auto&... c) { (assign_if_default(out.*f.member, c), ...); }, f.constraints);
      });
      return complete;
    } else {
      return false;
    }
  }

  // A U as made new, for the members a reused struct's text leaves out. Read only, from any thread.
  template <class U>
  static const U& fresh() {
    static const U value = U();
    return value;
  }

  // A scalar read into a held json, checked by its node and taken as decode_into takes it.
  template <class U>
  static bool scalar(json_reader& in, U& out, const text_plan& p, scratch& held) {
    json* scalar = &held.other;
    if (in.next() == '"') {  // into the held string's own buffer: no allocation once it has grown
      scalar = &held.text;
      if (!in.read_string(scalar->get_ref<std::string&>())) return false;
    } else if (!in.read_scalar(*scalar)) {
      return false;
    }
    if (!plain_accepts(*p.node, *scalar)) return false;
    try {
      decode_into(*scalar, out, nullptr);
    } catch (const decode_error&) {
      return false;
    }
    return true;
  }

  // An integer into U as decode_into takes it: within U's range, else refused.
  template <class U>
  static bool integer_into(bool negative, std::uint64_t magnitude, U& out) {
    using limits = std::numeric_limits<U>;
    if (!negative) {
      if (magnitude > static_cast<std::uint64_t>(limits::max())) return false;
      out = static_cast<U>(magnitude);
      return true;
    }
    if constexpr (limits::is_signed) {
      // -(min + 1) + 1: min's magnitude, without the overflow of negating min itself
      const auto most = static_cast<std::uint64_t>(-(static_cast<std::int64_t>(limits::min()) + 1)) + 1;
      if (magnitude > most) return false;
      out = static_cast<U>(negative_of(magnitude));
      return true;
    } else {
      return false;
    }
  }

  // Opens an array or object `depth` levels down, unless that is past the reader's limit or the
  // depth where the fast path hands over to valijson.
  static bool enter(json_reader& in, char open, std::size_t depth) {
    if (depth + 1 > in.max_depth() || depth >= default_max_json_depth) return false;
    return in.consume(open);
  }

  text_plan plan_;
};

}  // namespace detail
}  // namespace v0
}  // namespace mcp
