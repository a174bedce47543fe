// The SDK's own mcp::json_type mappings for std::chrono: a system_clock time point is an RFC 3339
// "date-time" string in UTC ("2026-11-24T16:20:26Z", with as many fraction digits as the clock's
// precision needs); a duration is a number of its own unit (std::chrono::milliseconds: an integer
// count of milliseconds), the unit said in the schema's description.
#pragma once

#include <mcp/json/json.hpp>
#include <mcp/schema/detail/reflect_traits.hpp>

#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <ratio>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace mcp {
inline namespace v0 {
namespace detail {

// Days since 1970-01-01 of a proleptic Gregorian date, and back (H. Hinnant's public-domain
// algorithms, as std::chrono::year_month_day does them in C++20).
constexpr std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}
inline void civil_from_days(std::int64_t z, std::int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y = static_cast<std::int64_t>(yoe) + era * 400 + (m <= 2);
}

// The unit of a duration in words, for the schema's description.
template <class Period>
std::string unit_name() {
  if constexpr (std::is_same_v<Period, std::nano>) return "nanoseconds";
  else if constexpr (std::is_same_v<Period, std::micro>) return "microseconds";
  else if constexpr (std::is_same_v<Period, std::milli>) return "milliseconds";
  else if constexpr (std::is_same_v<Period, std::ratio<1>>) return "seconds";
  else if constexpr (std::is_same_v<Period, std::ratio<60>>) return "minutes";
  else if constexpr (std::is_same_v<Period, std::ratio<3600>>) return "hours";
  else if constexpr (std::is_same_v<Period, std::ratio<86400>>) return "days";
  else return "units of " + std::to_string(Period::num) + "/" + std::to_string(Period::den) + " second";
}

}  // namespace detail

template <class Duration>
struct json_type<std::chrono::time_point<std::chrono::system_clock, Duration>> {
  using time_point = std::chrono::time_point<std::chrono::system_clock, Duration>;

  static json schema() { return json{{"type", "string"}, {"format", "date-time"}}; }

  static json encode(const time_point& t) {
    using namespace std::chrono;
    using fine = std::common_type_t<Duration, seconds>;
    const auto since = time_point_cast<fine>(t).time_since_epoch();
    auto secs = duration_cast<seconds>(since);
    if (secs > since) secs -= seconds(1);  // floor, for times before 1970
    const auto fraction = since - secs;
    std::int64_t day = secs.count() / 86400;
    std::int64_t rest = secs.count() % 86400;
    if (rest < 0) {
      rest += 86400;
      --day;
    }
    std::int64_t y;
    unsigned m, d;
    detail::civil_from_days(day, y, m, d);
    char text[64];
    std::snprintf(text, sizeof text, "%04lld-%02u-%02uT%02lld:%02lld:%02lld", static_cast<long long>(y), m, d,
                  static_cast<long long>(rest / 3600), static_cast<long long>(rest / 60 % 60),
                  static_cast<long long>(rest % 60));
    std::string out = text;
    if constexpr (fine::period::den > 1) {
      // As many digits as the unit has, trailing zeros dropped.
      std::string digits = std::to_string(fraction.count());
      int width = 0;
      for (auto den = fine::period::den; den > 1; den /= 10) ++width;
      digits.insert(0, static_cast<std::size_t>(width) - digits.size(), '0');
      while (!digits.empty() && digits.back() == '0') digits.pop_back();
      if (!digits.empty()) out += "." + digits;
    }
    return out + "Z";
  }

  // RFC 3339 date-time: YYYY-MM-DDTHH:MM:SS[.frac](Z|+hh:mm|-hh:mm); 't', 'z' and ' ' for 'T' are allowed.
  static time_point decode(const json& j) {
    using namespace std::chrono;
    if (!j.is_string()) throw std::invalid_argument("expected an RFC 3339 date-time string, got " + j.dump());
    const std::string& s = j.get_ref<const std::string&>();
    auto bad = [&]() -> std::invalid_argument {
      return std::invalid_argument("\"" + s + "\" is not an RFC 3339 date-time such as 2026-11-24T16:20:26Z");
    };
    std::size_t i = 0;
    auto number = [&](std::size_t n) {
      long v = 0;
      for (std::size_t k = 0; k < n; ++k, ++i) {
        if (i >= s.size() || s[i] < '0' || s[i] > '9') throw bad();
        v = v * 10 + (s[i] - '0');
      }
      return v;
    };
    auto expect = [&](const char* chars) {
      if (i >= s.size() || std::string(chars).find(s[i]) == std::string::npos) throw bad();
      ++i;
    };
    const long y = number(4);
    expect("-");
    const long mo = number(2);
    expect("-");
    const long d = number(2);
    expect("Tt ");
    const long h = number(2);
    expect(":");
    const long mi = number(2);
    expect(":");
    const long sec = number(2);
    const bool leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    const long month_days[] = {31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (mo < 1 || mo > 12 || d < 1 || d > month_days[mo - 1] || h > 23 || mi > 59 || sec > 60) throw bad();
    nanoseconds frac{0};
    if (i < s.size() && s[i] == '.') {
      ++i;
      long long scale = 100000000;
      const std::size_t start = i;
      for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
        frac += nanoseconds((s[i] - '0') * scale);
        scale /= 10;
      }
      if (i == start) throw bad();
    }
    long offset = 0;
    if (i < s.size() && (s[i] == 'Z' || s[i] == 'z')) {
      ++i;
    } else if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
      const long sign = s[i] == '-' ? -1 : 1;
      ++i;
      const long oh = number(2);
      expect(":");
      const long om = number(2);
      if (oh > 23 || om > 59) throw bad();
      offset = sign * (oh * 3600 + om * 60);
    } else {
      throw bad();
    }
    if (i != s.size()) throw bad();
    const std::int64_t days = detail::days_from_civil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
    const seconds total{days * 86400 + h * 3600 + mi * 60 + (sec == 60 ? 59 : sec) - offset};
    return time_point_cast<Duration>(sys_time_of(total) + duration_cast<Duration>(frac));
  }

 private:
  static std::chrono::time_point<std::chrono::system_clock, std::chrono::seconds> sys_time_of(std::chrono::seconds s) {
    return std::chrono::time_point<std::chrono::system_clock, std::chrono::seconds>(s);
  }
};

template <class Rep, class Period>
struct json_type<std::chrono::duration<Rep, Period>> {
  using duration = std::chrono::duration<Rep, Period>;

  static json schema() {
    json s{{"type", std::is_integral_v<Rep> ? "integer" : "number"},
           {"description", "A duration in " + detail::unit_name<Period>() + "."}};
    if constexpr (std::is_integral_v<Rep>) {
      s["minimum"] = static_cast<std::int64_t>(std::numeric_limits<Rep>::min());
      s["maximum"] = static_cast<std::int64_t>(std::numeric_limits<Rep>::max());
    }
    return s;
  }
  static json encode(const duration& d) { return d.count(); }
  static duration decode(const json& j) {
    if constexpr (std::is_integral_v<Rep>) {
      const bool whole = j.is_number_integer() || (j.is_number_float() && std::trunc(j.get<double>()) == j.get<double>() &&
                                                   std::fabs(j.get<double>()) < 9.2e18);
      if (!whole)
        throw std::invalid_argument("expected a whole number of " + detail::unit_name<Period>() + ", got " + j.dump());
      return duration(static_cast<Rep>(j.is_number_float() ? static_cast<std::int64_t>(j.get<double>())
                                                           : j.get<std::int64_t>()));
    } else {
      if (!j.is_number()) throw std::invalid_argument("expected a number of " + detail::unit_name<Period>() + ", got " + j.dump());
      return duration(static_cast<Rep>(j.get<double>()));
    }
  }
};

}  // namespace v0
}  // namespace mcp
