// What a handler looks like: its parameter and return types, read from its call operator, so
// that registration can derive schemas from them. Shared by tools, resources and prompts.
#pragma once

#include <mcp/core/context.hpp>
#include <mcp/tools/result.hpp>
#include <mcp/schema/schema.hpp>
#include <mcp/validation/validation.hpp>
#include <mcp/validation/detail/validator_for.hpp>

#include <cstddef>
#include <tuple>
#include <type_traits>

namespace mcp {
inline namespace v0 {
namespace detail {

// --- what a handler looks like ---------------------------------------------------------------

template <class R, class... A>
struct fn_signature {
  using return_type = R;
  using args = std::tuple<A...>;
  static constexpr bool known = true;
};
template <class F, class = void>
struct handler_signature {
  static constexpr bool known = false;
};
template <class M>
struct member_signature {};
#define MCP_DETAIL_MEMBER_SIG(QUALS)                                                    \
  template <class C, class R, class... A>                                               \
  struct member_signature<R (C::*)(A...) QUALS> : fn_signature<R, A...> {};
MCP_DETAIL_MEMBER_SIG()
MCP_DETAIL_MEMBER_SIG(const)
MCP_DETAIL_MEMBER_SIG(noexcept)
MCP_DETAIL_MEMBER_SIG(const noexcept)
#undef MCP_DETAIL_MEMBER_SIG
template <class F>
struct handler_signature<F, std::void_t<decltype(&F::operator())>> : member_signature<decltype(&F::operator())> {};
template <class R, class... A>
struct handler_signature<R (*)(A...), void> : fn_signature<R, A...> {};
template <class R, class... A>
struct handler_signature<R(A...), void> : fn_signature<R, A...> {};

template <class T>
inline constexpr bool is_context_ref_v = std::is_same_v<T, context&>;

template <class T>
struct unwrap_result {
  using type = T;
  static constexpr bool wrapped = false;
};
template <class T>
struct unwrap_result<result<T>> {
  using type = T;
  static constexpr bool wrapped = true;
};

template <class Sig, std::size_t N = std::tuple_size_v<typename Sig::args>>
struct handler_shape;
template <class Sig>
struct handler_shape<Sig, 0> {
  using input = void;
  static constexpr bool takes_context = false;
  static constexpr bool valid = true;
};
template <class Sig>
struct handler_shape<Sig, 1> {
  using a0 = std::tuple_element_t<0, typename Sig::args>;
  static constexpr bool takes_context = is_context_ref_v<a0>;
  using input = std::conditional_t<takes_context, void, std::decay_t<a0>>;
  static constexpr bool valid = takes_context || std::is_same_v<a0, const std::decay_t<a0>&> ||
                                std::is_same_v<a0, std::decay_t<a0>>;
};
template <class Sig>
struct handler_shape<Sig, 2> {
  using a0 = std::tuple_element_t<0, typename Sig::args>;
  using a1 = std::tuple_element_t<1, typename Sig::args>;
  using input = std::decay_t<a0>;
  static constexpr bool takes_context = true;
  static constexpr bool valid =
      is_context_ref_v<a1> && (std::is_same_v<a0, const input&> || std::is_same_v<a0, input>);
};
template <class Sig, std::size_t N>
struct handler_shape {
  using input = void;
  static constexpr bool takes_context = false;
  static constexpr bool valid = false;
};

}  // namespace detail
}  // namespace v0
}  // namespace mcp
