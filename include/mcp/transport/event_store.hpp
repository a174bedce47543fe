// Where a 2025-11-25 session's resumable SSE streams keep their events beyond this process. By
// default (no store) a request's stream lives in the memory of the process that ran the request,
// so a client that lost it must come back to that process (Last-Event-ID). With a store shared by
// every process behind a load balancer, the process running the request also writes each event to
// the store, and any other process the client's GET lands on replays the events it missed from
// there and follows the rest until the response. mcp::http::redis_event_store
// (stores/redis_event_store.hpp) is one.
//
//   mcp::http::options opts;
//   opts.event_store = std::make_shared<mcp::http::redis_event_store>(mcp::redis_options::from_url(url));
//
// Only requests' streams are shared; a session's GET stream, like the session itself, stays with
// the process that opened it. A stream is named "<session id>/<stream id>": the session id is the
// unguessable secret that a client must present, and the owner (the subject of the caller that
// opened the session, when authenticated) must match the caller that resumes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace http {

// Threads: every member may be called from any thread at once (request threads and the threads
// that follow resumed streams). A store that cannot do its work throws mcp::error
// (error_code::event_store_unavailable): the writing process then keeps serving its own client
// from memory, and a resume elsewhere is answered as a stream it does not know.
class event_store {
 public:
  virtual ~event_store() = default;

  // A stream begins, before any event: `owner` may resume it (empty: anyone with the session id).
  virtual void open(const std::string& stream, const std::string& owner) = 0;
  // Event number `seq` of the stream, as SSE text ("id: ...\ndata: ...\n\n"); `last`: the stream
  // ends with it (the request's response). Called in increasing `seq` order for one stream.
  virtual void append(const std::string& stream, std::uint64_t seq, const std::string& event, bool last) = 0;

  struct replay {
    std::string owner;
    std::vector<std::pair<std::uint64_t, std::string>> events;  // seq and SSE text, seq increasing
    bool complete = false;                                      // the last event is among those kept
  };
  // The kept events with a number above `after`; nullopt for a stream it does not know (never
  // opened, or expired).
  virtual std::optional<replay> read(const std::string& stream, std::uint64_t after) = 0;
};

}  // namespace http
}  // namespace v0
}  // namespace mcp
