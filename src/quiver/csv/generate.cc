#include "quiver/csv/generate.h"

#include <cstring>

#include "quiver/columnar/pretty_print.h"
#include "quiver/core/splitmix_internal.h"

namespace quiver::csv {

namespace {

const char* const kNames[kLineitemColumns] = {
    "l_orderkey", "l_partkey", "l_suppkey", "l_linenumber", "l_quantity", "l_extendedprice",
    "l_discount", "l_tax", "l_returnflag", "l_linestatus", "l_shipdate", "l_commitdate",
    "l_receiptdate", "l_shipinstruct", "l_shipmode", "l_comment"};

const char* const kInstruct[] = {"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"};
const char* const kMode[] = {"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"};
const char* const kWords[] = {"furiously", "carefully", "quickly", "blithely", "ironic", "final",
                              "pending", "regular", "express", "special", "deposits", "packages",
                              "requests", "accounts", "theodolites", "pinto", "beans", "foxes",
                              "sleep", "haggle", "nag", "wake", "above", "along", "slyly", "bold"};

using Rng = SplitMix64;

class Line {
 public:
  void Clear() { n_ = 0; }
  void Char(char c) { buf_[n_++] = c; }
  void Str(const char* s) {
    size_t l = std::strlen(s);
    std::memcpy(buf_ + n_, s, l);
    n_ += l;
  }
  void Int(int64_t v) {
    char tmp[24];
    int k = 0;
    bool neg = v < 0;
    uint64_t u = neg ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    do {
      tmp[k++] = static_cast<char>('0' + u % 10);
      u /= 10;
    } while (u);
    if (neg) Char('-');
    while (k) Char(tmp[--k]);
  }
  void Cents(int64_t cents) {  // two decimals
    Int(cents / 100);
    Char('.');
    Char(static_cast<char>('0' + cents % 100 / 10));
    Char(static_cast<char>('0' + cents % 10));
  }
  void Date(int32_t days) {
    std::string s;
    FormatDate(days, &s);
    std::memcpy(buf_ + n_, s.data(), s.size());
    n_ += s.size();
  }
  const char* data() const { return buf_; }
  size_t size() const { return n_; }

 private:
  char buf_[1024];
  size_t n_ = 0;
};

}  // namespace

const char* const* LineitemColumnNames() { return kNames; }

Status GenerateLineitem(const LineitemOptions& o, io::OutputStream* out,
                        const std::function<void(int64_t, int64_t)>& progress) {
  Rng rng{o.seed};
  Line line;
  const char d = o.delimiter;
  if (o.jsonl && o.messy) return Status::Invalid("gen: --messy applies to CSV, not JSON Lines");
  // Before field i: CSV's delimiter, or JSON's key (and the object's opening brace).
  auto Sep = [&](int i) {
    if (!o.jsonl) {
      if (i > 0) line.Char(d);
      return;
    }
    line.Str(i == 0 ? "{\"" : ",\"");
    line.Str(kNames[i]);
    line.Str("\":");
  };
  auto Quote = [&] {
    if (o.jsonl) line.Char('"');
  };
  if (o.header && !o.jsonl) {
    for (int i = 0; i < kLineitemColumns; ++i) {
      if (i) line.Char(d);
      line.Str(kNames[i]);
    }
    line.Char('\n');
    QUIVER_RETURN_NOT_OK(out->Write(line.data(), static_cast<int64_t>(line.size())));
  }
  const int32_t kStart = 8035;  // 1992-01-01
  int64_t orderkey = 1;
  int linenumber = 1;
  int lines_in_order = static_cast<int>(rng.Range(1, 7));
  for (int64_t r = 0; r < o.rows; ++r) {
    line.Clear();
    int64_t partkey = rng.Range(1, 200000);
    int64_t qty = rng.Range(1, 50);
    int64_t price_cents = qty * (90000 + partkey / 10 % 20001 + partkey % 1000 * 100);
    int32_t ship = kStart + static_cast<int32_t>(rng.Range(1, 2526));
    int f = 0;
    Sep(f);
    line.Int(orderkey);
    Sep(++f);
    line.Int(partkey);
    Sep(++f);
    line.Int(rng.Range(1, 10000));
    Sep(++f);
    line.Int(linenumber);
    Sep(++f);
    line.Cents(qty * 100);
    Sep(++f);
    line.Cents(price_cents);
    Sep(++f);
    line.Cents(rng.Range(0, 10));
    Sep(++f);
    line.Cents(rng.Range(0, 8));
    Sep(++f);
    Quote();
    line.Char("RAN"[rng.Range(0, 2)]);
    Quote();
    Sep(++f);
    Quote();
    line.Char("OF"[rng.Range(0, 1)]);
    Quote();
    Sep(++f);
    Quote();
    line.Date(ship);
    Quote();
    Sep(++f);
    Quote();
    line.Date(ship + static_cast<int32_t>(rng.Range(-60, 60)));
    Quote();
    Sep(++f);
    Quote();
    line.Date(ship + static_cast<int32_t>(rng.Range(1, 30)));
    Quote();
    Sep(++f);
    Quote();
    line.Str(kInstruct[rng.Range(0, 3)]);
    Quote();
    Sep(++f);
    Quote();
    line.Str(kMode[rng.Range(0, 6)]);
    Quote();
    Sep(++f);
    int words = static_cast<int>(rng.Range(2, 7));
    bool quote = o.messy && rng.Range(0, 2) == 0;
    if (quote || o.jsonl) line.Char('"');
    for (int w = 0; w < words; ++w) {
      if (w) line.Char(' ');
      line.Str(kWords[rng.Range(0, 25)]);
      if (quote) {
        switch (rng.Range(0, 5)) {
          case 0: line.Str("\"\""); break;  // an escaped quote
          case 1: line.Char(d); break;
          case 2: line.Char('\n'); break;
          default: break;
        }
      }
    }
    if (quote || o.jsonl) line.Char('"');
    if (o.jsonl) line.Char('}');
    line.Char('\n');
    QUIVER_RETURN_NOT_OK(out->Write(line.data(), static_cast<int64_t>(line.size())));
    if (++linenumber > lines_in_order) {
      ++orderkey;
      linenumber = 1;
      lines_in_order = static_cast<int>(rng.Range(1, 7));
    }
    if (progress && (r & 0x3fff) == 0) progress(out->Tell(), r);
  }
  if (progress) progress(out->Tell(), o.rows);
  return Status::OK();
}

}  // namespace quiver::csv
