// Time zone rules from the system's tz database (TZif files under /usr/share/zoneinfo, or
// $TZDIR): the UTC offset in effect at an instant, for ORC's writer time zones. Instants past
// the file's last transition follow its POSIX TZ footer (M-form rules).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "quiver/core/result.h"

namespace quiver::orc {

class TimeZone {
 public:
  // Loaded once per name and shared; "UTC", "GMT" and "" need no file. An unknown name is
  // Invalid, naming the zone and the file looked for.
  static Result<std::shared_ptr<const TimeZone>> Load(const std::string& name);

  const std::string& name() const { return name_; }
  bool is_utc() const { return utc_; }
  // Seconds east of UTC at the UTC instant `t` (seconds since the epoch).
  int64_t OffsetAt(int64_t t) const;
  // Seconds since the epoch of 2015-01-01 00:00:00 local time (ORC's timestamp base).
  int64_t OrcEpoch() const { return orc_epoch_; }

  struct Rule;  // the POSIX footer's daylight rule

 private:
  TimeZone() = default;
  int64_t RuleOffset(int64_t t) const;

  std::string name_;
  bool utc_ = false;
  std::vector<int64_t> transitions_;  // UTC seconds, ascending
  std::vector<int32_t> offsets_;      // offset after each transition
  int32_t initial_offset_ = 0;        // before the first transition
  // POSIX footer: standard offset, and when it has daylight time, that offset and the rule.
  bool has_footer_ = false, footer_dst_ = false;
  int32_t std_offset_ = 0, dst_offset_ = 0;
  int start_month_ = 0, start_week_ = 0, start_day_ = 0, start_secs_ = 7200;
  int end_month_ = 0, end_week_ = 0, end_day_ = 0, end_secs_ = 7200;
  int64_t orc_epoch_ = 1420070400;
};

}  // namespace quiver::orc
