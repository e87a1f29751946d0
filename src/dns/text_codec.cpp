// Character-string escapes, numbers, periods and RRSIG times in presentation format.
#include "dns/text_codec.h"

#include <fmt/format.h>

namespace cutover::dns {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
std::int64_t days_from_civil(std::int64_t year, unsigned month, unsigned day) {
  year -= month <= 2 ? 1 : 0;
  std::int64_t era = (year >= 0 ? year : year - 399) / 400;
  auto year_of_era = static_cast<unsigned>(year - era * 400);
  unsigned day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  unsigned day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + static_cast<std::int64_t>(day_of_era) - 719468;
}

struct CivilDate {
  std::int64_t year;
  unsigned month;
  unsigned day;
};

CivilDate civil_from_days(std::int64_t days) {
  days += 719468;
  std::int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  auto day_of_era = static_cast<unsigned>(days - era * 146097);
  unsigned year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  unsigned day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  unsigned mp = (5 * day_of_year + 2) / 153;
  unsigned day = day_of_year - (153 * mp + 2) / 5 + 1;
  unsigned month = mp < 10 ? mp + 3 : mp - 9;
  std::int64_t year = static_cast<std::int64_t>(year_of_era) + era * 400 + (month <= 2 ? 1 : 0);
  return {year, month, day};
}

unsigned days_in_month(std::int64_t year, unsigned month) {
  static constexpr unsigned kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

unsigned digits_value(std::string_view text, std::size_t pos, std::size_t count) {
  unsigned value = 0;
  for (std::size_t i = pos; i < pos + count; ++i) value = value * 10 + static_cast<unsigned>(text[i] - '0');
  return value;
}

}  // namespace

bool decode_escapes(std::string_view text, std::string& out) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\') {
      out.push_back(text[i]);
      continue;
    }
    if (i + 1 >= text.size()) return false;
    if (!is_digit(text[i + 1])) {
      out.push_back(text[++i]);
      continue;
    }
    if (i + 3 >= text.size() || !is_digit(text[i + 2]) || !is_digit(text[i + 3])) return false;
    unsigned value = digits_value(text, i + 1, 3);
    if (value > 255) return false;
    out.push_back(static_cast<char>(value));
    i += 3;
  }
  return true;
}

void append_quoted(std::span<const std::uint8_t> bytes, std::string& out) {
  out.push_back('"');
  for (std::uint8_t c : bytes) {
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
    } else if (c < 0x20 || c > 0x7E) {
      out.append(fmt::format("\\{:03}", c));
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  out.push_back('"');
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i] >= 'a' && a[i] <= 'z' ? static_cast<char>(a[i] - 32) : a[i];
    char y = b[i] >= 'a' && b[i] <= 'z' ? static_cast<char>(b[i] - 32) : b[i];
    if (x != y) return false;
  }
  return true;
}

std::optional<std::uint32_t> parse_decimal(std::string_view text, std::uint32_t max) {
  if (text.empty() || text.size() > 10) return std::nullopt;
  std::uint64_t value = 0;
  for (char c : text) {
    if (!is_digit(c)) return std::nullopt;
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (value > max) return std::nullopt;
  return static_cast<std::uint32_t>(value);
}

bool parse_ipv4(std::string_view text, std::span<std::uint8_t, 4> out) {
  // Every zone has many A records and inet_pton needs a NUL-terminated copy and handles
  // more than this, so it is parsed here; the rules are inet_pton's (glibc inet_pton4).
  std::size_t octet = 0;
  unsigned value = 0;
  std::size_t digits = 0;
  for (char c : text) {
    if (is_digit(c)) {
      if (digits == 1 && value == 0) return false;  // a leading zero
      value = value * 10 + static_cast<unsigned>(c - '0');
      if (value > 255) return false;
      ++digits;
      continue;
    }
    if (c != '.' || digits == 0 || octet == 3) return false;
    out[octet++] = static_cast<std::uint8_t>(value);
    value = 0;
    digits = 0;
  }
  if (digits == 0 || octet != 3) return false;
  out[3] = static_cast<std::uint8_t>(value);
  return true;
}

std::optional<std::uint32_t> parse_period(std::string_view text) {
  if (auto plain = parse_decimal(text, UINT32_MAX)) return plain;
  if (text.empty()) return std::nullopt;
  std::uint64_t total = 0;
  std::uint64_t number = 0;
  bool have_digits = false;
  for (char c : text) {
    if (is_digit(c)) {
      number = number * 10 + static_cast<std::uint64_t>(c - '0');
      if (number > UINT32_MAX) return std::nullopt;
      have_digits = true;
      continue;
    }
    if (!have_digits) return std::nullopt;
    std::uint64_t unit = 0;
    switch (c | 0x20) {
      case 'w': unit = 604800; break;
      case 'd': unit = 86400; break;
      case 'h': unit = 3600; break;
      case 'm': unit = 60; break;
      case 's': unit = 1; break;
      default: return std::nullopt;
    }
    total += number * unit;
    if (total > UINT32_MAX) return std::nullopt;
    number = 0;
    have_digits = false;
  }
  // A trailing bare number counts as seconds (BIND accepts "1h30").
  total += number;
  if (total > UINT32_MAX) return std::nullopt;
  return static_cast<std::uint32_t>(total);
}

std::optional<std::uint32_t> parse_rrsig_time(std::string_view text) {
  if (text.size() != 14) return parse_decimal(text, UINT32_MAX);
  for (char c : text) {
    if (!is_digit(c)) return std::nullopt;
  }
  std::int64_t year = digits_value(text, 0, 4);
  unsigned month = digits_value(text, 4, 2);
  unsigned day = digits_value(text, 6, 2);
  unsigned hour = digits_value(text, 8, 2);
  unsigned minute = digits_value(text, 10, 2);
  unsigned second = digits_value(text, 12, 2);
  if (year < 1970 || month < 1 || month > 12 || day < 1 || day > days_in_month(year, month) || hour > 23 ||
      minute > 59 || second > 59) {
    return std::nullopt;
  }
  std::int64_t seconds = days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second;
  return static_cast<std::uint32_t>(static_cast<std::uint64_t>(seconds) & 0xFFFFFFFFu);
}

std::string rrsig_time_to_text(std::uint32_t seconds) {
  CivilDate date = civil_from_days(seconds / 86400);
  std::uint32_t in_day = seconds % 86400;
  return fmt::format("{:04}{:02}{:02}{:02}{:02}{:02}", date.year, date.month, date.day, in_day / 3600,
                     in_day / 60 % 60, in_day % 60);
}

}  // namespace cutover::dns
