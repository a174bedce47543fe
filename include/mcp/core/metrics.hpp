// Per-tool counters: calls, isError results, validation failures by rule, coercions, latency.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace mcp {
inline namespace v0 {

// A snapshot, read through server::metrics().
struct tool_metrics {
  // Upper bounds of the latency histogram buckets, in microseconds; the last bucket is open-ended.
  static constexpr std::array<std::uint64_t, 12> bucket_bounds_us = {100,    250,    500,     1000,    2500,    5000,
                                                                     10000,  25000,  100000,  250000,  1000000, 10000000};
  std::uint64_t calls = 0;
  std::uint64_t errors = 0;               // isError results, whatever the cause
  std::uint64_t validation_failures = 0;  // calls refused because the arguments broke the schema
  std::map<std::string, std::uint64_t> failures_by_keyword;  // "minLength" -> 3
  std::uint64_t coercions = 0;            // argument values fixed by the coercion policy, all kinds
  // coercions by kind (mcp::coercion_report::by_kind's names), summing to coercions:
  // "unknown_argument" -> 12 counts the arguments a host added that the schema does not know.
  std::map<std::string, std::uint64_t> coercions_by_kind;
  std::uint64_t latency_count = 0;
  std::uint64_t latency_sum_us = 0;
  std::uint64_t latency_max_us = 0;
  std::array<std::uint64_t, bucket_bounds_us.size() + 1> latency_buckets{};  // counts, not cumulative
};

namespace detail {

class tool_stats {
 public:
  void record_call(std::chrono::microseconds latency, bool is_error) {
    const auto us = static_cast<std::uint64_t>(latency.count());
    std::lock_guard lock(mutex_);
    ++m_.calls;
    if (is_error) ++m_.errors;
    ++m_.latency_count;
    m_.latency_sum_us += us;
    if (us > m_.latency_max_us) m_.latency_max_us = us;
    std::size_t b = 0;
    while (b < tool_metrics::bucket_bounds_us.size() && us > tool_metrics::bucket_bounds_us[b]) ++b;
    ++m_.latency_buckets[b];
  }
  void record_validation_failure(const std::map<std::string, int>& keywords) {
    std::lock_guard lock(mutex_);
    ++m_.validation_failures;
    for (const auto& [k, n] : keywords) m_.failures_by_keyword[k] += static_cast<std::uint64_t>(n);
  }
  // One call's coercions, by kind (the kinds' counts summing to the total).
  void record_coercions(const std::map<std::string, int>& by_kind) {
    std::lock_guard lock(mutex_);
    for (const auto& [kind, n] : by_kind) {
      if (n <= 0) continue;
      m_.coercions += static_cast<std::uint64_t>(n);
      m_.coercions_by_kind[kind] += static_cast<std::uint64_t>(n);
    }
  }
  tool_metrics snapshot() const {
    std::lock_guard lock(mutex_);
    return m_;
  }

 private:
  mutable std::mutex mutex_;
  tool_metrics m_;
};

}  // namespace detail
}  // namespace v0
}  // namespace mcp
