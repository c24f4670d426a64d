#include "quiver/csv/date_format.h"

#include <fmt/format.h>

#include <map>
#include <memory>
#include <mutex>

#include "quiver/columnar/value_parse.h"

namespace quiver::csv {

Result<DateFormat> DateFormat::Compile(std::string_view pattern, bool timestamp, std::optional<int> two_digit_years_from) {
  DateFormat f;
  f.pattern_ = std::string(pattern);
  bool year = false, month = false, day = false;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%') {
      f.steps_.push_back({Op::kLiteral, pattern[i]});
      continue;
    }
    if (++i == pattern.size()) return Status::Invalid(fmt::format("date format '{}' ends in a lone %", pattern));
    Op op;
    switch (pattern[i]) {
      case 'Y': op = Op::kYear4; year = true; break;
      case 'y': op = Op::kYear2; year = true; break;
      case 'm': op = Op::kMonth; month = true; break;
      case 'd': op = Op::kDay; day = true; break;
      case 'H': op = Op::kHour; f.has_time_ = true; break;
      case 'M': op = Op::kMinute; f.has_time_ = true; break;
      case 'S': op = Op::kSecond; f.has_time_ = true; break;
      case '%': f.steps_.push_back({Op::kLiteral, '%'}); continue;
      default:
        return Status::Invalid(fmt::format("date format '{}': unknown directive %{} (known: %Y %y %m %d %H %M %S %%)",
                                           pattern, pattern[i]));
    }
    if (op == Op::kYear2) {
      if (!two_digit_years_from) {
        return Status::Invalid(fmt::format(
            "date format '{}' has a two-digit year (%y): say which century with two_digit_years_from "
            "(e.g. 1930 reads 30..99 as 1930..1999 and 00..29 as 2000..2029)",
            pattern));
      }
      f.two_digit_base_ = *two_digit_years_from;
    }
    f.steps_.push_back({op, '\0'});
  }
  if (!year || !month || !day) {
    return Status::Invalid(fmt::format("date format '{}' needs a year (%Y or %y), a month (%m) and a day (%d)", pattern));
  }
  if (f.has_time_ && !timestamp) {
    return Status::Invalid(fmt::format("date format '{}' has time fields: use timestamp:{}", pattern, pattern));
  }
  return f;
}

bool DateFormat::Match(std::string_view s, Fields* f) const {
  const char* p = s.data();
  const char* end = p + s.size();
  // Up to `max` digits (at least `min`) as a number.
  auto digits = [&](int min, int max, int64_t* v) {
    int n = 0;
    int64_t x = 0;
    while (p < end && n < max && IsDigit(*p)) {
      x = x * 10 + (*p++ - '0');
      ++n;
    }
    *v = x;
    return n >= min;
  };
  for (const Step& st : steps_) {
    switch (st.op) {
      case Op::kLiteral:
        if (p == end || *p != st.literal) return false;
        ++p;
        break;
      case Op::kYear4:
        if (!digits(4, 4, &f->year)) return false;
        break;
      case Op::kYear2: {
        int64_t y;
        if (!digits(2, 2, &y)) return false;
        const int base = two_digit_base_;
        f->year = base - base % 100 + y;
        if (f->year < base) f->year += 100;
        break;
      }
      case Op::kMonth:
        if (!digits(1, 2, &f->month) || f->month < 1 || f->month > 12) return false;
        break;
      case Op::kDay:
        if (!digits(1, 2, &f->day) || f->day < 1 || f->day > 31) return false;
        break;
      case Op::kHour:
        if (!digits(1, 2, &f->hour) || f->hour > 23) return false;
        break;
      case Op::kMinute:
        if (!digits(2, 2, &f->minute) || f->minute > 59) return false;
        break;
      case Op::kSecond:
        if (!digits(2, 2, &f->second) || f->second > 59) return false;
        if (p < end && *p == '.') {
          ++p;
          int n = 0;
          int64_t us = 0;
          while (p < end && IsDigit(*p) && n < 9) {
            if (n < 6) us = us * 10 + (*p - '0');
            ++p;
            ++n;
          }
          if (n == 0) return false;
          for (int k = n; k < 6; ++k) us *= 10;
          f->micros = us;
        }
        break;
    }
  }
  return p == end;
}

bool DateFormat::ParseDays(std::string_view s, int32_t* days) const {
  Fields f;
  int64_t d;
  if (!Match(s, &f) || !DaysFromCivil(f.year, static_cast<unsigned>(f.month), static_cast<unsigned>(f.day), &d)) {
    return false;
  }
  *days = static_cast<int32_t>(d);
  return true;
}

bool DateFormat::ParseMicros(std::string_view s, int64_t* micros) const {
  Fields f;
  int64_t d;
  if (!Match(s, &f) || !DaysFromCivil(f.year, static_cast<unsigned>(f.month), static_cast<unsigned>(f.day), &d)) {
    return false;
  }
  *micros = ((d * 24 + f.hour) * 60 + f.minute) * 60'000'000 + f.second * 1'000'000 + f.micros;
  return true;
}

const std::vector<DateFormat>& DateFormatCandidates(std::optional<int> two_digit_years_from) {
  static std::mutex mu;
  static std::map<int, std::unique_ptr<const std::vector<DateFormat>>> built;  // by window; -1: none
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = built[two_digit_years_from.value_or(-1)];
  if (!slot) {
    auto list = std::make_unique<std::vector<DateFormat>>();
    std::vector<std::string> dates;
    for (const char* sep : {"/", "-", "."}) {
      dates.push_back(fmt::format("%m{0}%d{0}%Y", sep));
      dates.push_back(fmt::format("%d{0}%m{0}%Y", sep));
      if (sep[0] != '-') dates.push_back(fmt::format("%Y{0}%m{0}%d", sep));
      if (two_digit_years_from) {
        dates.push_back(fmt::format("%m{0}%d{0}%y", sep));
        dates.push_back(fmt::format("%d{0}%m{0}%y", sep));
      }
    }
    for (const char* time : {"", " %H:%M", " %H:%M:%S"}) {
      for (const std::string& d : dates) {
        list->push_back(*DateFormat::Compile(d + time, true, two_digit_years_from));
      }
    }
    slot = std::move(list);
  }
  return *slot;
}

}  // namespace quiver::csv
