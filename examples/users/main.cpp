// users: a small user directory whose results read as Markdown: one fenced block of
// `Field: value` lines per record, N/A for missing fields, "Found N users:" before a list.
// structuredContent carries the same records for clients that read JSON.
#include <mcp/mcp.hpp>

#include <algorithm>
#include <iostream>
#include <mutex>

namespace users {

enum class role { admin, member, guest };
MCP_ENUM(role, (admin, "admin", "Can change everything"), (member, "member", "A regular user"),
         (guest, "guest", "Read-only visitor"));

struct user {
  int id = 0;
  std::string name;
  std::string email;
  role access = role::member;
  std::optional<std::string> phone;
  std::optional<std::string> notes;
};
MCP_STRUCT(user, (id, "User id", mcp::minimum(1)), (name, "Full name"), (email, "Email address", mcp::format("email")),
           (access, "What the user may do"), (phone, "Phone number, if known"), (notes, "Free-form notes"));

struct user_list {
  std::vector<user> users;
};
MCP_STRUCT(user_list, (users, "Matching users"));

struct id_arg {
  int id = 0;
};
MCP_STRUCT(id_arg, (id, "User id, as shown by search_users", mcp::minimum(1)));

struct search_args {
  std::string query;
  std::optional<role> access;
};
MCP_STRUCT(search_args, (query, "Text to find in names and emails (case-insensitive); empty matches everyone"),
           (access, "Only users with this access level"));

struct create_args {
  std::string name;
  std::string email;
  role access = role::member;
  std::optional<std::string> phone;
  std::optional<std::string> notes;
};
MCP_STRUCT(create_args, (name, "Full name", mcp::min_length(1), mcp::max_length(100)),
           (email, "Email address; must be unique", mcp::format("email"), mcp::pattern("^[^@\\s]+@[^@\\s]+$")),
           (access, "What the user may do", mcp::default_value(role::member)), (phone, "Phone number"),
           (notes, "Free-form notes"));

struct update_args {
  int id = 0;
  std::optional<std::string> name;
  std::optional<std::string> email;
  std::optional<role> access;
  std::optional<std::string> phone;
  std::optional<std::string> notes;
};
MCP_STRUCT(update_args, (id, "Id of the user to change", mcp::minimum(1)), (name, "New full name"),
           (email, "New email address", mcp::pattern("^[^@\\s]+@[^@\\s]+$")), (access, "New access level"),
           (phone, "New phone number"), (notes, "New notes"));

class directory {
 public:
  directory() {
    rows_ = {
        {1, "Ada Lovelace", "ada@example.org", role::admin, "+44 20 7946 0001", "Writes the first programs."},
        {2, "Alan Turing", "alan@example.org", role::member, std::nullopt, "Likes long runs."},
        {3, "Grace Hopper", "grace@example.org", role::admin, "+1 202 555 0143", std::nullopt},
        {4, "Edsger Dijkstra", "edsger@example.org", role::member, std::nullopt, "Prefers `goto`-free code: ```no goto```."},
        {5, "Barbara Liskov", "barbara@example.org", role::member, "+1 617 555 0199", std::nullopt},
        {6, "Guest Visitor", "guest@example.org", role::guest, std::nullopt, std::nullopt},
    };
    next_id_ = 7;
  }

  template <class F>
  auto with(F&& f) {
    std::lock_guard lock(mutex_);
    return f(rows_, next_id_);
  }

 private:
  std::mutex mutex_;
  std::vector<user> rows_;
  int next_id_;
};

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

mcp::tool_error no_user(int id) {
  return mcp::tool_error("No user has id " + std::to_string(id) + ". Use search_users to find the right id.");
}

void register_tools(mcp::server& srv, directory& dir) {
  mcp::tool_options markdown;
  markdown.format = mcp::text_format::markdown;

  mcp::tool_options list_markdown;
  list_markdown.render = [](const mcp::json& result) {
    return mcp::render_markdown_list(result["users"], mcp::schema_of_ordered<user>(), "users", "user");
  };
  list_markdown.hints = {.read_only = true, .open_world = false};

  mcp::tool_options read_only = markdown;
  read_only.hints = {.read_only = true, .open_world = false};

  srv.tool("get_user", "Show one user by id. Use search_users when you only know a name or email.",
           [&dir](const id_arg& in) -> mcp::result<user> {
             return dir.with([&](auto& rows, int&) -> mcp::result<user> {
               for (const auto& u : rows)
                 if (u.id == in.id) return u;
               return no_user(in.id);
             });
           },
           read_only);

  srv.tool("search_users", "Find users whose name or email contains the query, optionally of one access level.",
           [&dir](const search_args& in) {
             return dir.with([&](auto& rows, int&) {
               user_list out;
               const std::string q = lower(in.query);
               for (const auto& u : rows)
                 if ((!in.access || u.access == *in.access) &&
                     (lower(u.name).find(q) != std::string::npos || lower(u.email).find(q) != std::string::npos))
                   out.users.push_back(u);
               return out;
             });
           },
           list_markdown);

  mcp::tool_options create_options = markdown;
  create_options.hints = {.read_only = false, .destructive = false, .idempotent = false, .open_world = false};
  srv.tool("create_user", "Add a new user. Emails are unique; to change an existing user use update_user.",
           [&dir](const create_args& in) -> mcp::result<user> {
             return dir.with([&](auto& rows, int& next_id) -> mcp::result<user> {
               for (const auto& u : rows)
                 if (lower(u.email) == lower(in.email))
                   return mcp::tool_error("User " + std::to_string(u.id) + " already has the email '" + in.email +
                                          "'. Use update_user to change that user, or choose another email.");
               rows.push_back(user{next_id++, in.name, in.email, in.access, in.phone, in.notes});
               return rows.back();
             });
           },
           create_options);

  mcp::tool_options update_options = markdown;
  update_options.hints = {.read_only = false, .destructive = true, .idempotent = true, .open_world = false};
  srv.tool("update_user", "Change fields of an existing user; fields you leave out keep their value.",
           [&dir](const update_args& in) -> mcp::result<user> {
             return dir.with([&](auto& rows, int&) -> mcp::result<user> {
               for (auto& u : rows)
                 if (u.id == in.id) {
                   if (in.name) u.name = *in.name;
                   if (in.email) u.email = *in.email;
                   if (in.access) u.access = *in.access;
                   if (in.phone) u.phone = *in.phone;
                   if (in.notes) u.notes = *in.notes;
                   return u;
                 }
               return no_user(in.id);
             });
           },
           update_options);

  srv.tool("delete_user", "Remove a user permanently.",
           [&dir](const id_arg& in) -> mcp::result<std::string> {
             return dir.with([&](auto& rows, int&) -> mcp::result<std::string> {
               auto it = std::find_if(rows.begin(), rows.end(), [&](const user& u) { return u.id == in.id; });
               if (it == rows.end()) return no_user(in.id);
               std::string name = it->name;
               rows.erase(it);
               return "Deleted user " + std::to_string(in.id) + " (" + name + ").";
             });
           },
           mcp::annotations{.read_only = false, .destructive = true, .idempotent = true, .open_world = false});
}

}  // namespace users

int main(int argc, char** argv) {
  if (argc > 1) {
    std::string arg = argv[1];
    std::ostream& out = (arg == "--help" || arg == "-h") ? std::cout : std::cerr;
    out << "Usage: users\n\nA demo user directory served over MCP on stdin/stdout; results read as Markdown.\n";
    return (arg == "--help" || arg == "-h") ? 0 : 2;
  }
  users::directory dir;
  mcp::server srv({.name = "users", .version = "1.0.0", .title = "User directory"});
  users::register_tools(srv, dir);
  return mcp::serve_stdio(srv);
}
