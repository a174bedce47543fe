// booking: asking the user, typed. `book_table` asks for the booking in a form derived from an
// MCP_STRUCT and gets the answer back as that struct (ctx.elicit<T>); `connect_calendar` sends the
// user to a URL (URL-mode elicitation) for what must not pass through the client; `sync_calendar`
// refuses with -32042 until the calendar is connected; `finish_calendar_sign_in` stands in for the
// calendar's OAuth redirect, which in a real server would be a route of its web server: it tells
// the client the out-of-band step is done (server::complete_elicitation).
//
// Serves stdio, or Streamable HTTP with --http HOST:PORT; 2025-11-25 sessions and 2026-07-28
// requests alike (in 2026 the questions come back as input_required rounds).
#include <mcp/mcp.hpp>
#include <mcp/transport/http.hpp>

#include <atomic>
#include <iostream>
#include <mutex>
#include <optional>
#include <set>
#include <string>

namespace booking {

enum class seating { indoor, terrace };
MCP_ENUM(seating, (indoor, "indoor", "Indoors"), (terrace, "terrace", "On the terrace"));

enum class diet { vegetarian, vegan, gluten_free };
MCP_ENUM(diet, (vegetarian, "vegetarian"), (vegan, "vegan"), (gluten_free, "gluten-free"));

// The form book_table asks: one field per question, with the rules a form can show.
struct table_request {
  std::string name;
  std::string date;
  int guests = 2;
  seating where = seating::indoor;
  std::set<diet> diets;
  std::optional<std::string> note;
};
MCP_STRUCT(table_request, (name, "Name for the booking", mcp::min_length(1), mcp::max_length(60)),
           (date, "Day of the visit", mcp::format("date")),
           (guests, "How many people", mcp::minimum(1), mcp::maximum(12), mcp::default_value(2)),
           (where, "Where to sit", mcp::default_value(seating::indoor), mcp::json_name("seating")),
           (diets, "Dietary needs at the table"), (note, "Anything the restaurant should know"));

struct sign_in_args {
  std::string elicitation_id;
};
MCP_STRUCT(sign_in_args, (elicitation_id, "The id of the sign-in that connect_calendar started"));

// The calendar connection: sign-ins under way and whether one finished. Safe from any thread.
class calendar {
 public:
  std::string start() {
    std::lock_guard lock(mutex_);
    std::string id = "calendar-" + std::to_string(++count_);
    pending_.insert(id);
    return id;
  }
  bool finish(const std::string& id) {
    std::lock_guard lock(mutex_);
    if (!pending_.erase(id)) return false;
    connected_ = true;
    return true;
  }
  bool connected() const {
    std::lock_guard lock(mutex_);
    return connected_;
  }

 private:
  mutable std::mutex mutex_;
  std::set<std::string> pending_;
  int count_ = 0;
  bool connected_ = false;
};

const char* sign_in_url = "https://calendar.example.com/oauth/authorize?client_id=booking-demo";

void register_tools(mcp::server& srv, calendar& cal) {
  srv.tool("book_table", "Book a table: asks the user for the details in a form, then confirms the booking.",
           [](mcp::context& ctx) -> std::string {
             auto answer = ctx.elicit<table_request>("Which day, for how many, and where would you like to sit?");
             if (!answer.accepted()) return std::string("No booking made: the user chose to ") + mcp::to_string(answer.action) + ".";
             const table_request& t = *answer.content;
             std::string text = "Booked a table for " + std::to_string(t.guests) + " on " + t.date + " for " + t.name +
                                " (" + mcp::encode(t.where).get<std::string>() + ")";
             if (!t.diets.empty()) text += ", diets: " + mcp::encode(t.diets).dump();
             if (t.note) text += ", note: " + *t.note;
             return text + ".";
           });

  srv.tool("connect_calendar", "Connect the user's calendar: sends them to the calendar's sign-in page.",
           [&cal](mcp::context& ctx) -> std::string {
             if (cal.connected()) return "The calendar is already connected.";
             const std::string id = cal.start();
             auto action = ctx.elicit_url("Sign in to your calendar so bookings can be added to it.", sign_in_url, id);
             if (action != mcp::elicit_action::accept)
               return std::string("The calendar was not connected: the user chose to ") + mcp::to_string(action) + ".";
             return "The user is signing in (sign-in " + id + "); sync_calendar works once it is finished.";
           });

  srv.tool("finish_calendar_sign_in",
           "Demo only: stands in for the calendar's OAuth redirect, which would finish the sign-in in a real server.",
           [&cal, &srv](const sign_in_args& in) -> mcp::result<std::string> {
             if (!cal.finish(in.elicitation_id)) return mcp::tool_error("No sign-in '" + in.elicitation_id + "' is under way.");
             srv.complete_elicitation(in.elicitation_id);  // tells the client that asked (2025-11-25)
             return "Sign-in " + in.elicitation_id + " finished; the calendar is connected.";
           });

  srv.tool("sync_calendar", "Add the bookings to the user's calendar. Needs a connected calendar.",
           [&cal](mcp::context&) -> std::string {
             if (!cal.connected())
               throw mcp::url_elicitation_required(
                   {{"Sign in to your calendar first.", sign_in_url, cal.start()}},
                   "The calendar is not connected yet: the user must sign in first");
             return "Bookings added to the calendar.";
           });
}

}  // namespace booking

int main(int argc, char** argv) {
  std::optional<std::pair<std::string, unsigned short>> http_address;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--http" && i + 1 < argc) {
      http_address = mcp::http::parse_host_port(argv[++i]);
      if (!http_address) return std::cerr << "booking: --http wants HOST:PORT, not '" << argv[i] << "'\n", 2;
    } else {
      const bool help = arg == "--help" || arg == "-h";
      (help ? std::cout : std::cerr) << "Usage: booking [--http HOST:PORT]\n\nBooks tables by asking the user "
                                        "(typed and URL-mode elicitation), over stdio or Streamable HTTP.\n";
      return help ? 0 : 2;
    }
  }
  booking::calendar cal;
  mcp::server srv({.name = "booking", .version = "1.0.0", .title = "Table booking"});
  booking::register_tools(srv, cal);
  if (http_address) {
    mcp::http::options options;
    options.host = http_address->first;
    options.port = http_address->second;
    return mcp::http::serve(srv, options);
  }
  return mcp::serve_stdio(srv);
}
