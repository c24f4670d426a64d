#include "quiver/csv/splitter_internal.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "quiver/csv/state_machine_internal.h"

namespace quiver::csv {
namespace {

struct Split {
  std::vector<uint32_t> pos;
  int64_t lines = 0;
  bool anomaly = false;
  bool cr = false;
  uint64_t in_quote = 0;
};

// Every split this CPU runs: each level, and at AVX-512 on a CPU with VBMI2 also the 32-bit
// compress write of AVX-512 CPUs without it.
struct Variant {
  SimdLevel level;
  bool compress_bytes;
  std::string name;
};
std::vector<Variant> Variants() {
  std::vector<Variant> v;
  for (SimdLevel level : SupportedSimdLevels()) {
    const bool bytes = level == SimdLevel::kAvx512 && CpuHasAvx512Vbmi2();
    v.push_back({level, true, std::string(SimdLevelName(level)) + (bytes ? "+vbmi2" : "")});
    if (bytes) v.push_back({level, false, std::string(SimdLevelName(level))});
  }
  return v;
}

Split RunKernel(const Variant& variant, const std::string& text, const SplitConfig& cfg, size_t piece = 0) {
  const SplitKernels& k = GetSplitKernels(variant.level, variant.compress_bytes);
  Split s;
  SplitCarry carry;
  std::vector<uint32_t> out(text.size() + kSplitOutputSlack);
  const auto* data = reinterpret_cast<const uint8_t*>(text.data());
  // Optionally in pieces, to exercise the carries between calls.
  size_t step = piece == 0 ? text.size() : piece;
  for (size_t at = 0; at < text.size() || at == 0; at += step) {
    size_t n = std::min(step, text.size() - at);
    int next = at + n < text.size() ? data[at + n] : -1;
    SplitResult r = k.split(data + at, n, next, cfg, &carry, out.data());
    for (size_t i = 0; i < r.count; ++i) s.pos.push_back(out[i] + static_cast<uint32_t>(at));
    s.lines += r.line_breaks;
    s.anomaly |= r.anomaly;
    s.cr |= r.cr;
    if (text.empty()) break;
  }
  s.in_quote = carry.in_quote;
  return s;
}

Split RunMachine(const std::string& text, const SplitConfig& cfg) {
  MachineConfig mc;
  mc.split = cfg;
  MachineState st;
  std::vector<uint32_t> out(text.size() + 1);
  MachineResult r = SplitWithStateMachine(reinterpret_cast<const uint8_t*>(text.data()), text.size(), -1, true, mc, &st,
                                          out.data());
  Split s;
  s.pos.assign(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(r.count));
  s.lines = r.line_breaks;
  s.anomaly = r.error != MachineError::kNone;
  return s;
}

std::string Describe(const std::vector<uint32_t>& pos) {
  std::string s;
  for (uint32_t p : pos) s += std::to_string(p & kPositionMask) + ((p & kRowEndFlag) ? "$ " : " ");
  return s;
}

TEST(Splitter, KnownPositionsOnEveryLevel) {
  const std::string text = "a,\"b,c\"\r\n\"x\"\"y\",z\nlast,\"multi\nline\"\rend";
  //                         0123 4567 8 9 0123456789...
  SplitConfig cfg;
  for (const Variant& level : Variants()) {
    Split s = RunKernel(level, text, cfg);
    EXPECT_EQ(Describe(s.pos), "1 8$ 15 17$ 22 35$ ") << level.name;
    EXPECT_EQ(s.lines, 4) << level.name;  // CRLF, LF, the quoted LF, lone CR
    EXPECT_FALSE(s.anomaly);
    EXPECT_EQ(s.in_quote, 0u);
  }
  Split m = RunMachine(text, cfg);
  EXPECT_EQ(Describe(m.pos), "1 8$ 15 17$ 22 35$ ");
  EXPECT_EQ(m.lines, 4);
}

// Blocks with more positions than one 16-lane store holds (up to 64 in a block of
// delimiters), row ends among them, whole and in pieces.
TEST(Splitter, DenseBlocksKeepEveryPosition) {
  SplitConfig cfg;
  std::mt19937_64 rng(5);
  for (int round = 0; round < 200; ++round) {
    std::string text;
    std::vector<uint32_t> want;
    const size_t len = 1 + rng() % 300;
    for (size_t i = 0; i < len; ++i) {
      // Mostly separators: a block holds 16 to 64 of them.
      const int pick = static_cast<int>(rng() % 10);
      const char c = pick < 6 ? ',' : pick < 8 ? '\n' : 'x';
      text += c;
      if (c == ',') want.push_back(static_cast<uint32_t>(i));
      if (c == '\n') want.push_back(static_cast<uint32_t>(i) | kRowEndFlag);
    }
    for (const Variant& level : Variants()) {
      for (size_t piece : {size_t{0}, size_t{64}, size_t{100}}) {
        Split s = RunKernel(level, text, cfg, piece);
        ASSERT_EQ(Describe(s.pos), Describe(want)) << level.name << " piece " << piece << "\n" << text;
        ASSERT_FALSE(s.cr);
      }
    }
  }
  const std::string all(64, ',');
  for (const Variant& level : Variants()) {
    Split s = RunKernel(level, all + all + "\n", cfg);
    ASSERT_EQ(s.pos.size(), 129u) << level.name;
    for (uint32_t i = 0; i < 128; ++i) ASSERT_EQ(s.pos[i], i) << level.name;
    EXPECT_EQ(s.pos[128], 128u | kRowEndFlag) << level.name;
  }
}

// The split says whether its bytes hold a CR anywhere (quoted or not), so that row assembly
// looks at rows' last bytes only then.
TEST(Splitter, ReportsCarriageReturns) {
  SplitConfig cfg;
  for (const Variant& level : Variants()) {
    EXPECT_FALSE(RunKernel(level, "a,b\nc,d\n", cfg).cr) << level.name;
    EXPECT_TRUE(RunKernel(level, "a,b\r\nc,d\n", cfg).cr) << level.name;
    EXPECT_TRUE(RunKernel(level, std::string(70, 'x') + "\"a\rb\"\n", cfg).cr) << level.name;  // quoted, in the tail
    EXPECT_TRUE(RunKernel(level, "x\r" + std::string(130, 'y'), cfg).cr) << level.name;       // in a full block
  }
}

TEST(Splitter, StrayQuotesAreAnomalies) {
  SplitConfig cfg;
  for (const Variant& level : Variants()) {
    EXPECT_TRUE(RunKernel(level, "a,5\"10,b\n", cfg).anomaly) << level.name;
    EXPECT_TRUE(RunKernel(level, "\"a\"b,c\n", cfg).anomaly) << level.name;
    EXPECT_FALSE(RunKernel(level, "\"a\"\"b\",c\n", cfg).anomaly) << level.name;
    // A quote as the last byte of a block, closing a field: no anomaly either way.
    std::string edge = std::string(62, 'x') + ",\"" + std::string(10, 'y') + "\"\n";
    EXPECT_FALSE(RunKernel(level, edge, cfg).anomaly) << level.name;
  }
}

TEST(Splitter, BackslashEscapes) {
  SplitConfig cfg{',', '"', '\\'};
  const std::string text = "\"a\\\"b,c\",d\n\"e\\\\\",f\n";  // "a\"b,c",d  and  "e\\",f
  for (const Variant& level : Variants()) {
    Split s = RunKernel(level, text, cfg);
    EXPECT_EQ(Describe(s.pos), "8 10$ 16 18$ ") << level.name;
    EXPECT_FALSE(s.anomaly) << level.name;
  }
  EXPECT_EQ(Describe(RunMachine(text, cfg).pos), "8 10$ 16 18$ ");
}

// Random CSV with quoted fields full of delimiters, quotes and newlines: every level, whole
// or in pieces, agrees with the state machine.
TEST(Splitter, RandomInputsAgreeAcrossLevelsAndPieces) {
  std::mt19937_64 rng(99);
  const char* atoms[] = {"a", "bc", "12345", "", " ", "\xc3\xa9"};
  for (int round = 0; round < 300; ++round) {
    SplitConfig cfg;
    cfg.delimiter = "\t,;|"[rng() % 4];
    if (rng() % 5 == 0) cfg.escape = '\\';
    std::string text;
    int rows = static_cast<int>(rng() % 40);
    for (int r = 0; r < rows; ++r) {
      int fields = 1 + static_cast<int>(rng() % 6);
      for (int f = 0; f < fields; ++f) {
        if (f) text += static_cast<char>(cfg.delimiter);
        if (rng() % 3 == 0) {
          text += '"';
          int parts = static_cast<int>(rng() % 5);
          for (int p = 0; p < parts; ++p) {
            switch (rng() % 6) {
              case 0: text += cfg.escape == '\\' ? "\\\"" : "\"\""; break;
              case 1: text += static_cast<char>(cfg.delimiter); break;
              case 2: text += "\r\n"; break;
              case 3: text += '\n'; break;
              default: text += atoms[rng() % 6];
            }
          }
          text += '"';
        } else {
          text += atoms[rng() % 6];
        }
      }
      text += (rng() % 4 == 0) ? "\r\n" : (rng() % 10 == 0 ? "\r" : "\n");
    }
    if (rng() % 2) text += "tail,no,newline";
    Split ref = RunMachine(text, cfg);
    ASSERT_FALSE(ref.anomaly) << text;
    for (const Variant& level : Variants()) {
      for (size_t piece : {size_t{0}, size_t{64}, size_t{7}, size_t{100}}) {
        Split s = RunKernel(level, text, cfg, piece);
        ASSERT_EQ(Describe(s.pos), Describe(ref.pos)) << level.name << " piece " << piece << "\n" << text;
        ASSERT_EQ(s.lines, ref.lines) << level.name;
        ASSERT_FALSE(s.anomaly) << level.name << " piece " << piece << "\n" << text;
      }
    }
  }
}

// Quote-free blocks take a shorter loop than the rest, which takes over at the first block
// with a quote or a CR: every kind of such block after stretches of plain rows of every
// length (so at every byte of a block, a block's first and last byte among them), whole and
// in pieces, agrees with the state machine, and a quote out of place right after the stretch
// is still seen.
TEST(Splitter, QuotesAndCarriageReturnsAfterPlainBlocks) {
  struct Case {
    std::string text;  // follows the plain stretch
    bool anomaly;
  };
  const std::vector<Case> cases = {
      {"\"q,\nq\",z\n", false},    // a quoted field opening right after a row end
      {",\"q\"\"\",z\n", false},    // ... after a delimiter, with a doubled quote
      {"\r\nz,z\r\n", false},       // CR LF
      {"\rz,z\n", false},           // a lone CR
      {"\"q\"z,z\n", true},          // text after a closing quote
      {"q\"z\n", true},             // a quote inside an unquoted field
  };
  const SplitConfig cfg;
  const std::string row = "ab,c,,defgh\n";
  for (const Case& tc : cases) {
    for (size_t len = 0; len < 200; ++len) {
      // Rows of plain fields cut at a field's end: the case starts at byte `len`.
      std::string text;
      while (text.size() < len) text += row;
      text.resize(len);
      if (len > 0 && text.back() != '\n') text.back() = ',';
      text += tc.text;
      text += "x,y\n" + std::string(130, 'w') + "\n";
      const Split ref = RunMachine(text, cfg);
      if (!tc.anomaly) {
        ASSERT_FALSE(ref.anomaly) << text;
      }
      for (const Variant& level : Variants()) {
        for (size_t piece : {size_t{0}, size_t{64}, size_t{128}, size_t{100}, size_t{7}}) {
          const Split s = RunKernel(level, text, cfg, piece);
          ASSERT_EQ(s.anomaly, tc.anomaly) << level.name << " piece " << piece << "\n" << text;
          ASSERT_EQ(s.cr, text.find('\r') != std::string::npos) << level.name << " piece " << piece << "\n" << text;
          if (tc.anomaly) continue;
          ASSERT_EQ(Describe(s.pos), Describe(ref.pos)) << level.name << " piece " << piece << "\n" << text;
          ASSERT_EQ(s.lines, ref.lines) << level.name << " piece " << piece << "\n" << text;
          ASSERT_EQ(s.in_quote, 0u) << level.name;
        }
      }
    }
  }
}

// A split call goes through its blocks in segments of 4 KiB, each starting in the quote-free
// loop: long texts with a quoted field or a CR here and there (some across a segment's end),
// whole and in pieces, agree with the state machine; a quote out of place as a segment's
// first byte is still seen.
TEST(Splitter, SparseQuotesOverSegments) {
  std::mt19937_64 rng(7);
  const SplitConfig cfg;
  for (int round = 0; round < 12; ++round) {
    std::string text;
    while (text.size() < 40000) {
      const int fields = 1 + static_cast<int>(rng() % 6);
      for (int f = 0; f < fields; ++f) {
        if (f) text += ',';
        if (rng() % 200 == 0) {
          text += "\"a,\n\"\"b\r\nc\"";
        } else {
          text += std::string(rng() % 12, static_cast<char>('a' + rng() % 26));
        }
      }
      text += rng() % 300 == 0 ? "\r\n" : "\n";
    }
    const Split ref = RunMachine(text, cfg);
    ASSERT_FALSE(ref.anomaly);
    for (const Variant& level : Variants()) {
      for (size_t piece : {size_t{0}, size_t{100}, size_t{4096 + 64}}) {
        const Split s = RunKernel(level, text, cfg, piece);
        ASSERT_EQ(Describe(s.pos), Describe(ref.pos)) << level.name << " piece " << piece << " round " << round;
        ASSERT_EQ(s.lines, ref.lines) << level.name << " piece " << piece << " round " << round;
        ASSERT_FALSE(s.anomaly) << level.name << " piece " << piece << " round " << round;
        ASSERT_EQ(s.cr, text.find('\r') != std::string::npos) << level.name;
      }
    }
  }
  // Around the first segment's end: a quoted field across it, a CR LF split by it, and a quote
  // after text as the next segment's first byte.
  const std::string plain = [] {
    std::string t;
    while (t.size() < 6000) t += "abc,de,,fghij\n";
    return t;
  }();
  struct Case {
    size_t at;
    std::string text;
    bool anomaly;
  };
  for (const Case& tc : {Case{4092, "\n\"x\ny\",z\n", false}, Case{4095, "\r\n", false},
                         Case{4095, "q\"", true}, Case{4095, ",\"x\"\n", false}}) {
    std::string text = plain.substr(0, tc.at) + tc.text + plain;
    const Split ref = RunMachine(text, cfg);
    for (const Variant& level : Variants()) {
      const Split s = RunKernel(level, text, cfg);
      ASSERT_EQ(s.anomaly, tc.anomaly) << level.name << " at " << tc.at << " " << tc.text;
      if (tc.anomaly) continue;
      ASSERT_EQ(Describe(s.pos), Describe(ref.pos)) << level.name << " at " << tc.at;
      ASSERT_EQ(s.lines, ref.lines) << level.name;
    }
  }
}

// Without a quote character (--quote none) quotes are text: every level, whole or in pieces,
// splits at every delimiter and line end, quoted or not, and sees no anomaly; also with an
// escape character set, which then escapes nothing.
TEST(Splitter, WithoutQuotingQuotesAreText) {
  std::string text = "\"a,b\",c\n\"x\ny\"z,\"\"\r\n";
  for (int i = 0; i < 9; ++i) text += "\"q\"\"w,\"" + std::string(static_cast<size_t>(i), 'e') + "\n";
  for (uint8_t escape : {uint8_t{0}, uint8_t{'\\'}}) {
    const SplitConfig cfg{',', 0, escape};
    const Split ref = RunMachine(text, cfg);
    ASSERT_FALSE(ref.anomaly);
    ASSERT_EQ(Describe(ref.pos).substr(0, 29), "2 5 7$ 10$ 14 18$ 24 26$ 32 3");
    for (const Variant& level : Variants()) {
      for (size_t piece : {size_t{0}, size_t{64}, size_t{7}}) {
        const Split s = RunKernel(level, text, cfg, piece);
        EXPECT_EQ(Describe(s.pos), Describe(ref.pos)) << level.name << " piece " << piece;
        EXPECT_EQ(s.lines, 12) << level.name;
        EXPECT_FALSE(s.anomaly) << level.name;
        EXPECT_TRUE(s.cr) << level.name;
        EXPECT_EQ(s.in_quote, 0u) << level.name;
      }
    }
  }
}

TEST(Splitter, QuoteParityMatchesTheSplitCarry) {
  std::string text = "\"a\",\"b\n" + std::string(100, 'x') + "\"\"";
  for (SimdLevel level : SupportedSimdLevels()) {
    uint64_t esc = 0;
    uint64_t parity = GetSplitKernels(level).quote_parity(reinterpret_cast<const uint8_t*>(text.data()), text.size(),
                                                          SplitConfig{}, &esc);
    EXPECT_EQ(parity, 1u) << SimdLevelName(level);  // 5 quotes
    SplitConfig bs{',', '"', '\\'};
    std::string esc_text = "\"a\\\"\"";  // "a\"" : the middle quote is escaped, 2 count
    esc = 0;
    EXPECT_EQ(GetSplitKernels(level).quote_parity(reinterpret_cast<const uint8_t*>(esc_text.data()), esc_text.size(), bs, &esc), 0u);
  }
}

TEST(StateMachine, ErrorsAndLenience) {
  MachineConfig mc;
  MachineState st;
  std::vector<uint32_t> out(64);
  std::string bad = "a,b\nc,d\"e\n";
  MachineResult r = SplitWithStateMachine(reinterpret_cast<const uint8_t*>(bad.data()), bad.size(), -1, true, mc, &st, out.data());
  EXPECT_EQ(r.error, MachineError::kQuoteInUnquotedField);
  EXPECT_EQ(r.error_pos, 7u);
  std::string after = "\"ab\"c,d\n";
  st = MachineState{};
  r = SplitWithStateMachine(reinterpret_cast<const uint8_t*>(after.data()), after.size(), -1, true, mc, &st, out.data());
  EXPECT_EQ(r.error, MachineError::kTextAfterClosingQuote);
  EXPECT_EQ(r.error_pos, 4u);
  std::string open = "a,b\n\"never closed,\nx\n";
  st = MachineState{};
  r = SplitWithStateMachine(reinterpret_cast<const uint8_t*>(open.data()), open.size(), -1, true, mc, &st, out.data());
  EXPECT_EQ(r.error, MachineError::kUnterminatedQuote);
  EXPECT_EQ(r.error_pos, 4u);
  mc.lenient = true;
  st = MachineState{};
  r = SplitWithStateMachine(reinterpret_cast<const uint8_t*>(bad.data()), bad.size(), -1, true, mc, &st, out.data());
  EXPECT_EQ(r.error, MachineError::kNone);
  EXPECT_EQ(r.count, 4u);
}

// Lenient: a quote that opens a field and never closes, or closes lines later before text
// (its own closing quote missing, it paired with the next field's opening one), is text: the
// field is split again from after it, and the output and line count are those of that reading.
TEST(StateMachine, LenientRereadsAQuoteLeftOpenOrClosedBeforeText) {
  MachineConfig mc;
  mc.lenient = true;
  std::vector<uint32_t> out(64);
  // Every separator as "offset" with "/" after row ends.
  auto split = [&](const std::string& text, bool at_end, MachineResult* r) {
    MachineState st;
    *r = SplitWithStateMachine(reinterpret_cast<const uint8_t*>(text.data()), text.size(), -1, at_end, mc, &st, out.data());
    std::string s;
    for (size_t i = 0; i < r->count; ++i) s += std::to_string(out[i] & kPositionMask) + ((out[i] & kRowEndFlag) ? "/ " : " ");
    return s;
  };
  MachineResult r;
  // Open to the end: rows 2 and 3 are still rows.
  EXPECT_EQ(split("a,b\n1,\"x\n2,y\n", true, &r), "1 3/ 5 8/ 10 12/ ");
  EXPECT_EQ(r.stray_quotes, 1);
  EXPECT_EQ(r.line_breaks, 3);
  // Before the end of the input the field may still close: kept open.
  EXPECT_EQ(split("a,b\n1,\"x\n2,y\n", false, &r), "1 3/ 5 ");
  EXPECT_EQ(r.stray_quotes, 0);
  // Closed on a later line before text ("two): read again from after the first quote; the
  // second opens a field of its own that closes on its line.
  EXPECT_EQ(split("1,\"x\n2,\"two\"\n", true, &r), "1 4/ 6 12/ ");
  EXPECT_EQ(r.stray_quotes, 1);
  EXPECT_EQ(r.line_breaks, 2);
  // A quoted field over lines that closes before a delimiter is a field.
  EXPECT_EQ(split("1,\"x\ny\",2\n", true, &r), "1 7 9/ ");
  EXPECT_EQ(r.stray_quotes, 0);
}

TEST(StateMachine, CommentLinesIgnoreQuotesAndDelimiters) {
  MachineConfig mc;
  mc.comment = '#';
  MachineState st;
  std::string text = "# it's \"odd, isn't it\nx,y\n";
  std::vector<uint32_t> out(64);
  MachineResult r = SplitWithStateMachine(reinterpret_cast<const uint8_t*>(text.data()), text.size(), -1, true, mc, &st, out.data());
  EXPECT_EQ(r.error, MachineError::kNone);
  ASSERT_EQ(r.count, 3u);
  EXPECT_EQ(out[0], 21u | kRowEndFlag);
  EXPECT_EQ(out[1], 23u);
}

}  // namespace
}  // namespace quiver::csv
