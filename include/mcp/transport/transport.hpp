// What a transport of your own needs, in one include: the port the core sends through
// (mcp::outbound, mcp::executor: core/port.hpp) and the connection it hands each message to
// (mcp::connection: core/connection.hpp). examples/custom_transport shows one whole.
#pragma once

#include <mcp/core/connection.hpp>
#include <mcp/core/port.hpp>
