// Integrity-protected MRTR requestState. The client echoes requestState verbatim and the spec says to
// treat it as attacker-controlled, so the server signs it with HMAC-SHA256 and binds it to the method,
// a digest of the request params, an expiry and a single-use nonce.
//
// The token is signed, not encrypted: the client can read the payload. Keep secrets out of it.
#pragma once

#include <mcp/core/replay_guard.hpp>
#include <mcp/error.hpp>
#include <mcp/json/detail/base64.hpp>
#include <mcp/json/detail/reader.hpp>
#include <mcp/core/detail/sha256.hpp>
#include <mcp/json/json.hpp>
#include <mcp/core/jsonrpc.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp {
inline namespace v0 {
namespace detail {

// Keys the client adds or changes on a retry; the rest of params must be the original request's.
inline std::string request_params_digest(const json& params) {
  json stable = params;
  if (stable.is_object()) {
    stable.erase("_meta");
    stable.erase("inputResponses");
    stable.erase("requestState");
  }
  // CBOR rather than dump(): it never throws on invalid UTF-8 and keeps distinct strings distinct.
  // Objects are std::map based, so the encoding does not depend on key order in the request.
  const std::vector<std::uint8_t> bytes = json::to_cbor(stable);
  const sha256_digest d =
      sha256(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  return base64url_encode(digest_bytes(d));
}

class state_sealer {
 public:
  using clock_function = std::function<std::int64_t()>;  // seconds since the Unix epoch

  // Processes that share a key accept each other's tokens, which is what scale-out needs; an empty
  // key draws a random one, valid for this object only. `clock` is for tests; by default the system
  // clock, whose epoch seconds agree across processes. `max_depth`: the nesting a sealed token may
  // have when read back (the server's max_json_depth: the payload holds the client's answers,
  // which arrived within it, at the same depth as in the request). `guard` remembers the tokens
  // used; null: a memory_replay_guard of `max_remembered` keys, for this object only.
  explicit state_sealer(std::string key, clock_function clock = {}, std::size_t max_remembered = 100000,
                        std::size_t max_depth = default_max_json_depth, std::shared_ptr<replay_guard> guard = nullptr)
      : key_(std::move(key)),
        clock_(std::move(clock)),
        max_depth_(max_depth),
        guard_(guard ? std::move(guard) : std::make_shared<memory_replay_guard>(max_remembered)) {
    std::random_device device;
    if (key_.empty())
      for (int i = 0; i < 32; ++i) key_ += char(device() & 0xFF);
    std::seed_seq seed{device(), device(), device(), device(), device(), device(), device(), device()};
    rng_.seed(seed);
    if (!clock_)
      clock_ = [] {
        return std::int64_t(
            std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
                .count());
      };
  }

  std::string seal(const json& payload, std::string_view method, const json& params, std::chrono::seconds ttl) const {
    json sealed = {{"payload", payload},
                   {"method", std::string(method)},
                   {"params", request_params_digest(params)},
                   {"expires", saturating_add(clock_(), std::int64_t(ttl.count()))},
                   {"nonce", new_nonce()}};
    const std::string body = base64url_encode(sealed.dump());
    return body + "." + mac_of(body);
  }

  // Checks, in order: MAC, then binding to this request, then expiry, then single use. Any failure,
  // whatever the input, is a protocol_error (invalid_params).
  json open(std::string_view token, std::string_view method, const json& params) {
    try {
      return open_checked(token, method, params);
    } catch (const protocol_error&) {
      throw;
    } catch (const std::exception&) {
      throw failure("requestState integrity check failed");
    }
  }

 private:
  json open_checked(std::string_view token, std::string_view method, const json& params) {
    const auto dot = token.find('.');
    if (dot == std::string_view::npos) throw failure("requestState integrity check failed");
    const std::string_view body = token.substr(0, dot);
    // Compare the encodings: the decoder is strict, so each MAC has exactly one accepted spelling.
    if (!constant_time_equal(token.substr(dot + 1), mac_of(body)))
      throw failure("requestState integrity check failed");

    json sealed;
    const auto text = base64url_decode(body);
    if (!text || read_json(*text, sealed, max_depth_) != read_result::ok) sealed = json();
    // Only reachable with a key shared with something that signs other data; still never trust it.
    if (!sealed.is_object() || !sealed.contains("payload") || !is_string(sealed, "method") ||
        !is_string(sealed, "params") || !is_string(sealed, "nonce") || !sealed.contains("expires") ||
        !sealed["expires"].is_number_integer())
      throw failure("requestState integrity check failed");

    if (sealed["method"].get_ref<const std::string&>() != method ||
        sealed["params"].get_ref<const std::string&>() != request_params_digest(params))
      throw failure("requestState does not belong to this request");

    const std::int64_t expires = sealed["expires"].get<std::int64_t>();
    const std::int64_t now = clock_();
    if (now >= expires) throw failure("requestState expired");

    remember_once(sealed["nonce"].get<std::string>(), expires, now);
    return std::move(sealed["payload"]);
  }

  static std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
    if (b > 0 && a > std::numeric_limits<std::int64_t>::max() - b) return std::numeric_limits<std::int64_t>::max();
    if (b < 0 && a < std::numeric_limits<std::int64_t>::min() - b) return std::numeric_limits<std::int64_t>::min();
    return a + b;
  }

  static protocol_error failure(const char* message) { return protocol_error(error_code::invalid_params, message); }

  static bool is_string(const json& j, const char* key) { return j.contains(key) && j[key].is_string(); }

  std::string mac_of(std::string_view body) const { return base64url_encode(digest_bytes(hmac_sha256(key_, body))); }

  std::string new_nonce() const {
    std::lock_guard<std::mutex> lock(rng_mutex_);
    std::string bytes;
    for (int i = 0; i < 2; ++i) {
      const std::uint64_t r = rng_();
      for (int b = 0; b < 8; ++b) bytes += char((r >> (8 * b)) & 0xFF);
    }
    return base64url_encode(bytes);
  }

  // Single use holds wherever the guard's memory reaches: this process for the default one, every
  // process that shares a Redis one. A guard that cannot tell is a refusal, never a second use.
  void remember_once(const std::string& nonce, std::int64_t expires, std::int64_t now) {
    bool first = false;
    try {
      first = guard_->first_use(nonce, expires, now);
    } catch (const std::exception& e) {
      throw protocol_error(error_code::internal_error,
                           std::string("requestState could not be checked for reuse: ") + e.what());
    }
    if (!first) throw failure("requestState was already used");
  }

  std::string key_;
  clock_function clock_;
  std::size_t max_depth_;
  std::shared_ptr<replay_guard> guard_;
  mutable std::mutex rng_mutex_;
  mutable std::mt19937_64 rng_;
};

}  // namespace detail
}  // namespace v0
}  // namespace mcp
