#include "quiver/json/syntax_internal.h"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

namespace quiver::json {
namespace {

class Scanner {
 public:
  Scanner(std::string_view t, size_t max_depth) : t_(t), max_depth_(max_depth) {}

  SyntaxProblem Run() {
    SkipSpace();
    if (!Value(0)) return problem_;
    SkipSpace();
    if (i_ < t_.size()) Fail("more than one JSON value on the line");
    return problem_;
  }

 private:
  bool Fail(std::string what) {
    problem_.offset = i_;
    problem_.what = std::move(what);
    return false;
  }
  bool Ended() { return Fail("the text ends inside a value"); }
  void SkipSpace() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\n' || t_[i_] == '\r')) ++i_;
  }
  bool Literal(std::string_view word) {
    if (t_.substr(i_, word.size()) == word) {
      i_ += word.size();
      return true;
    }
    return Fail(fmt::format("not a JSON value (expected {})", word));
  }
  // One UTF-8 sequence at i_ (RFC 3629: no overlongs, surrogates or values past U+10FFFF).
  bool Utf8() {
    const auto b = [&](size_t k) { return static_cast<unsigned char>(t_[i_ + k]); };
    const unsigned char c = b(0);
    size_t n;
    unsigned lo = 0x80, hi = 0xBF;
    if (c < 0x80) n = 1;
    else if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
      n = 3;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 4;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    } else {
      return Fail("invalid UTF-8");
    }
    if (i_ + n > t_.size()) return Fail("invalid UTF-8 (a sequence cut short)");
    for (size_t k = 1; k < n; ++k) {
      const unsigned lim_lo = k == 1 ? lo : 0x80, lim_hi = k == 1 ? hi : 0xBF;
      if (b(k) < lim_lo || b(k) > lim_hi) return Fail("invalid UTF-8");
    }
    i_ += n;
    return true;
  }
  bool String() {
    ++i_;  // the opening quote
    while (true) {
      if (i_ >= t_.size()) return Fail("the text ends inside a string");
      const unsigned char c = static_cast<unsigned char>(t_[i_]);
      if (c == '"') {
        ++i_;
        return true;
      }
      if (c < 0x20) return Fail("a control character inside a string (escape it)");
      if (c == '\\') {
        if (++i_ >= t_.size()) return Fail("the text ends inside a string");
        const char e = t_[i_];
        if (e == 'u') {
          for (int k = 1; k <= 4; ++k) {
            if (i_ + k >= t_.size() || !std::isxdigit(static_cast<unsigned char>(t_[i_ + k]))) {
              i_ += k;
              return Fail("a \\u escape needs four hex digits");
            }
          }
          i_ += 5;
        } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
          ++i_;
        } else {
          return Fail("an unknown escape in a string");
        }
        continue;
      }
      if (!Utf8()) return false;
    }
  }
  bool Digits() {
    const size_t s = i_;
    while (i_ < t_.size() && t_[i_] >= '0' && t_[i_] <= '9') ++i_;
    return i_ > s;
  }
  bool Number() {
    const size_t start = i_;
    if (!NumberSyntax()) return false;
    // Within the grammar but past what a reader holds: an integer past uint64 that is not
    // written as a float, or any number past float64's range.
    const std::string text(t_.substr(start, i_ - start));
    const bool integer = text.find_first_of(".eE") == std::string::npos;
    errno = 0;
    if (integer) {
      const char* digits = text.c_str() + (text[0] == '-' ? 1 : 0);
      const unsigned long long u = std::strtoull(digits, nullptr, 10);
      if (errno == ERANGE || (text[0] == '-' && u > (1ULL << 63))) {
        i_ = start;
        return Fail("an integer past the 64-bit range (quote it to keep it as text)");
      }
    } else {
      const double d = std::strtod(text.c_str(), nullptr);
      if (std::isinf(d)) {
        i_ = start;
        return Fail("a number past float64's range (quote it to keep it as text)");
      }
    }
    return true;
  }
  bool NumberSyntax() {
    if (t_[i_] == '-') ++i_;
    if (i_ >= t_.size()) return Ended();
    if (t_[i_] == '0') {
      ++i_;
    } else if (!Digits()) {
      return Fail("not a JSON value");
    }
    if (i_ < t_.size() && t_[i_] == '.') {
      ++i_;
      if (!Digits()) return Fail("a number needs digits after its '.'");
    }
    if (i_ < t_.size() && (t_[i_] == 'e' || t_[i_] == 'E')) {
      ++i_;
      if (i_ < t_.size() && (t_[i_] == '+' || t_[i_] == '-')) ++i_;
      if (!Digits()) return Fail("a number needs digits in its exponent");
    }
    return true;
  }
  bool Value(size_t depth) {
    if (i_ >= t_.size()) return Ended();
    const char c = t_[i_];
    if (c == '{' || c == '[') {
      if (depth >= max_depth_) return Fail(fmt::format("nested deeper than {} arrays and objects", max_depth_));
      return c == '{' ? Object(depth + 1) : Array(depth + 1);
    }
    if (c == '"') return String();
    if (c == 't') return Literal("true");
    if (c == 'f') return Literal("false");
    if (c == 'n') return Literal("null");
    if (c == '-' || (c >= '0' && c <= '9')) return Number();
    return Fail("not a JSON value");
  }
  bool Object(size_t depth) {
    ++i_;
    SkipSpace();
    if (i_ < t_.size() && t_[i_] == '}') {
      ++i_;
      return true;
    }
    while (true) {
      if (i_ >= t_.size()) return Ended();
      if (t_[i_] != '"') return Fail("expected a key (a string) in an object");
      if (!String()) return false;
      SkipSpace();
      if (i_ >= t_.size()) return Ended();
      if (t_[i_] != ':') return Fail("expected ':' after an object key");
      ++i_;
      SkipSpace();
      if (!Value(depth)) return false;
      SkipSpace();
      if (i_ >= t_.size()) return Ended();
      if (t_[i_] == '}') {
        ++i_;
        return true;
      }
      if (t_[i_] != ',') return Fail("expected ',' or '}' in an object");
      ++i_;
      SkipSpace();
    }
  }
  bool Array(size_t depth) {
    ++i_;
    SkipSpace();
    if (i_ < t_.size() && t_[i_] == ']') {
      ++i_;
      return true;
    }
    while (true) {
      if (!Value(depth)) return false;
      SkipSpace();
      if (i_ >= t_.size()) return Ended();
      if (t_[i_] == ']') {
        ++i_;
        return true;
      }
      if (t_[i_] != ',') return Fail("expected ',' or ']' in an array");
      ++i_;
      SkipSpace();
    }
  }

  std::string_view t_;
  size_t max_depth_;
  size_t i_ = 0;
  SyntaxProblem problem_;
};

}  // namespace

SyntaxProblem FindSyntaxProblem(std::string_view text, size_t max_depth) { return Scanner(text, max_depth).Run(); }

}  // namespace quiver::json
