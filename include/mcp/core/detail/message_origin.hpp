// What a transport learned about a message beyond its text: who sent it (its authentication) and
// the trace context of its HTTP headers. It travels with a request into its request_state.
#pragma once

#include <mcp/core/identity.hpp>
#include <mcp/core/trace_context.hpp>

#include <memory>
#include <optional>

namespace mcp {
inline namespace v0 {
namespace detail {

struct message_origin {
  std::shared_ptr<const identity> caller;     // null: the transport authenticated nobody
  std::optional<trace_context> header_trace;  // traceparent/tracestate headers, when valid
};

}  // namespace detail
}  // namespace v0
}  // namespace mcp
