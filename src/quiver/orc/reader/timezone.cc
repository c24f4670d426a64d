// TZif parsing and offset lookup (timezone_internal.h).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "quiver/columnar/value_parse.h"
#include "quiver/orc/reader/timezone_internal.h"

namespace quiver::orc {
namespace {

uint32_t Be32(const uint8_t* p) { return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | p[3]; }
int64_t Be64(const uint8_t* p) { return static_cast<int64_t>(uint64_t{Be32(p)} << 32 | Be32(p + 4)); }

// The year holding second t since the epoch.
int64_t YearOf(int64_t t) {
  int64_t y;
  unsigned m, d;
  CivilFromDays(t >= 0 ? t / 86400 : (t - 86399) / 86400, &y, &m, &d);
  return y;
}
// Day of month of the w-th (5: last) weekday d (0 Sunday) of month m in year y.
int64_t RuleDay(int64_t y, int m, int w, int d) {
  int64_t first = 0;
  (void)DaysFromCivil(y, static_cast<unsigned>(m), 1, &first);  // ParseRule keeps m in 1..12
  int wd_first = static_cast<int>(((first % 7) + 11) % 7);  // 1970-01-01 was a Thursday (4)
  int day = 1 + ((d - wd_first) % 7 + 7) % 7 + (w - 1) * 7;
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  int dim = kDays[m - 1] + (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0));
  while (day > dim) day -= 7;
  return first + day - 1;
}

// POSIX TZ parsing helpers over a string cursor.
bool ParseName(const char*& p) {
  if (*p == '<') {
    const char* e = std::strchr(p, '>');
    if (e == nullptr) return false;
    p = e + 1;
    return true;
  }
  const char* s = p;
  while (std::isalpha(static_cast<unsigned char>(*p))) ++p;
  return p - s >= 3;
}
bool ParseTime(const char*& p, int* secs) {  // [+-]hh[:mm[:ss]]
  int sign = 1;
  if (*p == '+' || *p == '-') sign = *p++ == '-' ? -1 : 1;
  if (!std::isdigit(static_cast<unsigned char>(*p))) return false;
  int h = static_cast<int>(std::strtol(p, const_cast<char**>(&p), 10)), m = 0, s = 0;
  if (*p == ':') {
    ++p;
    m = static_cast<int>(std::strtol(p, const_cast<char**>(&p), 10));
    if (*p == ':') {
      ++p;
      s = static_cast<int>(std::strtol(p, const_cast<char**>(&p), 10));
    }
  }
  *secs = sign * (h * 3600 + m * 60 + s);
  return true;
}
bool ParseRule(const char*& p, int* month, int* week, int* day, int* secs) {
  if (*p != 'M') return false;  // Julian-day forms are not used by the zones ORC writers name
  ++p;
  *month = static_cast<int>(std::strtol(p, const_cast<char**>(&p), 10));
  if (*p++ != '.') return false;
  *week = static_cast<int>(std::strtol(p, const_cast<char**>(&p), 10));
  if (*p++ != '.') return false;
  *day = static_cast<int>(std::strtol(p, const_cast<char**>(&p), 10));
  if (*month < 1 || *month > 12 || *week < 1 || *week > 5 || *day < 0 || *day > 6) return false;
  *secs = 7200;
  if (*p == '/') {
    ++p;
    if (!ParseTime(p, secs)) return false;
  }
  return true;
}

}  // namespace

int64_t TimeZone::RuleOffset(int64_t t) const {
  if (!footer_dst_) return std_offset_;
  int64_t y = YearOf(t + std_offset_);
  int64_t start = RuleDay(y, start_month_, start_week_, start_day_) * 86400 + start_secs_ - std_offset_;
  int64_t end = RuleDay(y, end_month_, end_week_, end_day_) * 86400 + end_secs_ - dst_offset_;
  bool dst = start < end ? (t >= start && t < end) : !(t >= end && t < start);
  return dst ? dst_offset_ : std_offset_;
}

int64_t TimeZone::OffsetAt(int64_t t) const {
  if (utc_) return 0;
  if (transitions_.empty() || t < transitions_.front()) {
    return transitions_.empty() && has_footer_ ? RuleOffset(t) : initial_offset_;
  }
  if (t >= transitions_.back() && has_footer_) return RuleOffset(t);
  auto it = std::upper_bound(transitions_.begin(), transitions_.end(), t);
  return offsets_[static_cast<size_t>(it - transitions_.begin() - 1)];
}

Result<std::shared_ptr<const TimeZone>> TimeZone::Load(const std::string& name) {
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<const TimeZone>> cache;
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = cache.find(name); it != cache.end()) return it->second;
  auto tz = std::shared_ptr<TimeZone>(new TimeZone());
  tz->name_ = name;
  if (name.empty() || name == "UTC" || name == "GMT" || name == "Etc/UTC" || name == "Etc/GMT" || name == "Z") {
    tz->utc_ = true;
    cache[name] = tz;
    return std::shared_ptr<const TimeZone>(tz);
  }
  const char* dir = std::getenv("TZDIR");
  std::string folder = dir != nullptr && *dir != '\0' ? dir : "/usr/share/zoneinfo";
  if (name.find("..") != std::string::npos || name.front() == '/') {
    return Status::Invalid(fmt::format("time zone '{}' is not a tz database name", name));
  }
  std::string path = folder + "/" + name;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    return Status::Invalid(fmt::format("unknown time zone '{}' (no file {} in the tz database)", name, path));
  }
  std::vector<uint8_t> bytes;
  uint8_t buf[65536];
  size_t got;
  while ((got = std::fread(buf, 1, sizeof(buf), f)) > 0 && bytes.size() < (1u << 22)) bytes.insert(bytes.end(), buf, buf + got);
  std::fclose(f);
  auto bad = [&](const char* why) {
    return Status::Corrupt(fmt::format("time zone file {}: {}", path, why));
  };
  if (bytes.size() < 44 || std::memcmp(bytes.data(), "TZif", 4) != 0) return bad("not a TZif file");
  size_t pos = 0;
  auto block_size = [&](size_t at, int time_size, uint32_t c[6]) {
    for (int i = 0; i < 6; ++i) c[i] = Be32(bytes.data() + at + 20 + 4 * i);
    // isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
    return size_t{c[3]} * time_size + c[3] + size_t{c[4]} * 6 + c[5] + size_t{c[2]} * (time_size + 4) + c[1] + c[0];
  };
  uint32_t c[6];
  size_t v1 = block_size(0, 4, c);
  int time_size = 4;
  if (bytes[4] >= '2') {
    pos = 44 + v1;
    if (bytes.size() < pos + 44 || std::memcmp(bytes.data() + pos, "TZif", 4) != 0) return bad("version 2 header missing");
    time_size = 8;
  }
  size_t data_size = block_size(pos, time_size, c);
  size_t data = pos + 44;
  if (bytes.size() < data + data_size) return bad("truncated");
  const uint32_t timecnt = c[3], typecnt = c[4];
  if (typecnt == 0) return bad("no local time types");
  const uint8_t* times = bytes.data() + data;
  const uint8_t* idx = times + size_t{timecnt} * time_size;
  const uint8_t* types = idx + timecnt;
  auto type_offset = [&](uint32_t i) { return static_cast<int32_t>(Be32(types + 6 * i)); };
  tz->initial_offset_ = type_offset(0);
  for (uint32_t i = 0; i < typecnt; ++i) {
    if (types[6 * i + 4] == 0) {  // the first standard-time type applies before any transition
      tz->initial_offset_ = type_offset(i);
      break;
    }
  }
  for (uint32_t i = 0; i < timecnt; ++i) {
    if (idx[i] >= typecnt) return bad("transition to an undefined type");
    tz->transitions_.push_back(time_size == 8 ? Be64(times + 8 * i) : static_cast<int32_t>(Be32(times + 4 * i)));
    tz->offsets_.push_back(type_offset(idx[i]));
  }
  // The POSIX footer: "\nSTDoff[DST[off][,rule,rule]]\n".
  size_t foot = data + data_size;
  if (time_size == 8 && foot + 2 < bytes.size() && bytes[foot] == '\n') {
    std::string posix(bytes.begin() + static_cast<long>(foot) + 1, bytes.end());
    if (auto nl = posix.find('\n'); nl != std::string::npos) posix.resize(nl);
    const char* p = posix.c_str();
    int std_west = 0;
    if (ParseName(p) && ParseTime(p, &std_west)) {
      tz->has_footer_ = true;
      tz->std_offset_ = -std_west;
      if (*p != '\0') {
        const char* q = p;
        if (ParseName(q)) {
          int dst_west = std_west - 3600;
          if (*q != ',' && *q != '\0') ParseTime(q, &dst_west);
          tz->dst_offset_ = -dst_west;
          if (*q == ',' && ParseRule(++q, &tz->start_month_, &tz->start_week_, &tz->start_day_, &tz->start_secs_) &&
              *q == ',' && ParseRule(++q, &tz->end_month_, &tz->end_week_, &tz->end_day_, &tz->end_secs_)) {
            tz->footer_dst_ = true;
          } else {
            tz->has_footer_ = false;  // a rule form not handled: the last transition stands
          }
        }
      }
    }
  }
  // 2015-01-01 00:00:00 local, with the offset in effect at 2015-01-01 00:00:00 UTC (as the
  // Java and C++ writers compute it).
  const int64_t local = 1420070400;
  tz->orc_epoch_ = local - tz->OffsetAt(local);
  cache[name] = tz;
  return std::shared_ptr<const TimeZone>(tz);
}

}  // namespace quiver::orc
