// Progress bar on stderr for long commands; silent unless stderr is a terminal.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace quiver::cli {

class Progress {
 public:
  // `total_bytes` <= 0 when unknown (then no percentage or ETA is shown).
  Progress(std::string label, int64_t total_bytes);
  ~Progress() { Finish(); }

  // Cheap to call often: it redraws at most ten times a second.
  void Update(int64_t bytes_done, int64_t rows_done) {
    bytes_ = bytes_done;
    rows_ = rows_done;
    if (enabled_) MaybeDraw(false);
  }
  // Clears the bar so that a summary line can follow.
  void Finish();

  // Whether the bar draws at all (stderr is a terminal, and QUIVER_PROGRESS is not 0).
  bool enabled() const { return enabled_; }
  // The text of one frame, for tests.
  static std::string Render(const std::string& label, int64_t bytes, int64_t total, int64_t rows,
                            double seconds, int width);

 private:
  void MaybeDraw(bool force);

  std::string label_;
  int64_t total_;
  int64_t bytes_ = 0;
  int64_t rows_ = 0;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace quiver::cli
