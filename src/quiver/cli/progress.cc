#include "quiver/cli/progress.h"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace quiver::cli {

Progress::Progress(std::string label, int64_t total_bytes)
    : label_(std::move(label)), total_(total_bytes), start_(std::chrono::steady_clock::now()) {
  const char* env = std::getenv("QUIVER_PROGRESS");
  bool forced_off = env != nullptr && std::strcmp(env, "0") == 0;
  enabled_ = !forced_off && isatty(STDERR_FILENO);
  last_draw_ = start_;
}

static std::string HumanBytes(double b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (b >= 1024 && u < 4) {
    b /= 1024;
    ++u;
  }
  return u == 0 ? fmt::format("{:.0f} {}", b, units[u]) : fmt::format("{:.1f} {}", b, units[u]);
}

std::string Progress::Render(const std::string& label, int64_t bytes, int64_t total, int64_t rows,
                             double seconds, int width) {
  double rate = seconds > 0 ? bytes / seconds / 1e6 : 0;
  std::string tail = fmt::format(" {} {} rows {:.0f} MB/s", HumanBytes(static_cast<double>(bytes)), rows, rate);
  if (total > 0) {
    double frac = std::min(1.0, static_cast<double>(bytes) / static_cast<double>(total));
    double eta = (frac > 0 && rate > 0) ? (total - bytes) / 1e6 / rate : 0;
    tail += fmt::format(" ETA {:.0f}s", eta);
    int bar = std::max(10, width - static_cast<int>(label.size()) - static_cast<int>(tail.size()) - 10);
    int filled = static_cast<int>(frac * bar);
    return fmt::format("{} [{}{}] {:3.0f}%{}", label, std::string(filled, '#'), std::string(bar - filled, '.'),
                       frac * 100, tail);
  }
  return label + tail;
}

void Progress::MaybeDraw(bool force) {
  auto now = std::chrono::steady_clock::now();
  if (!force && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  struct winsize ws{};
  int width = (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20) ? ws.ws_col : 80;
  double secs = std::chrono::duration<double>(now - start_).count();
  std::string line = Render(label_, bytes_, total_, rows_, secs, width - 1);
  if (static_cast<int>(line.size()) > width - 1) line.resize(static_cast<size_t>(width - 1));
  std::fprintf(stderr, "\r%s\x1b[K", line.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void Progress::Finish() {
  if (drawn_) {
    std::fprintf(stderr, "\r\x1b[K");
    std::fflush(stderr);
    drawn_ = false;
  }
}

}  // namespace quiver::cli
