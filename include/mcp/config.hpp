// How the SDK is built into a program: header-only (the default) or compiled.
//
// Header-only: every function is defined in the headers; nothing to build or link but them.
// Compiled: define MCP_SEPARATE_COMPILATION for every translation unit and compile
// <mcp/impl/src.hpp> once (the CMake target mcp::compiled does both). The SDK's non-template code
// (the server's dispatch, the stdio and HTTP transports) is then compiled once, in that library,
// instead of in every translation unit that serves; templates (typed tools, reflection) stay in
// the headers.
#pragma once

#if defined(MCP_SEPARATE_COMPILATION)
#define MCP_DECL
#else
#define MCP_DECL inline
#endif

// For the few small functions on the reader's path that run once per token, which the compiler
// may otherwise leave out of line in a large caller (json/detail/reader.hpp).
#if defined(__GNUC__) || defined(__clang__)
#define MCP_ALWAYS_INLINE __attribute__((always_inline)) inline
#elif defined(_MSC_VER)
#define MCP_ALWAYS_INLINE __forceinline
#else
#define MCP_ALWAYS_INLINE inline
#endif
