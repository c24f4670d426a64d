// The benchmark page's quiver side of the scan jobs (not a product feature): TPC-H Q1 and Q6
// shaped queries over a lineitem Parquet file through the library's scan (projection, every
// condition pushed down as predicates that must all hold, the aggregation in a loop here), a
// streamed scan of every column, the materialized read with the fault floor measured after it
// in the same process, and the fault floor alone (fresh memory got as the read gets its
// output, to set beside a materialized read). Each prints one JSON line like ../shared/peers.
//   lineitem_queries q1|q6|scan|readall FILE.parquet [--threads N] [--mmap]
//   lineitem_queries fault-floor|fault-floor-huge BYTES [--threads N]
#include <fmt/format.h>
#include "quiver/core/intrinsics_internal.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "quiver/core/bit_util.h"
#include "quiver/core/memory_pool.h"
#include "quiver/core/page_mapping.h"
#include "quiver/core/simd_dispatch.h"
#include "quiver/core/thread_pool.h"
#include "quiver/io/file.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/reader/output_arena_internal.h"
#include "quiver/stream/parquet_scan.h"
#include "quiver/stream/scan_literal.h"

namespace q = quiver;

namespace {

double Now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

int64_t PeakKib() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::strtoll(line.c_str() + 6, nullptr, 10);
  }
  return -1;
}

[[noreturn]] void Die(const std::string& what) {
  fmt::print(stderr, "lineitem_queries: {}\n", what);
  std::exit(1);
}

template <typename T>
T Check(q::Result<T> r, const char* what) {
  if (!r.ok()) Die(fmt::format("{}: {}", what, r.status().ToString()));
  return std::move(*r);
}

// Days since the epoch of an ISO date, through the library's literal parser.
q::parquet::Literal Date(const char* text) {
  return Check(q::stream::ParseLiteral(*q::date32(), text, "l_shipdate"), "date literal");
}

// The columns it reads have no nulls in lineitem; one would make the sums wrong, so it stops.
void NoNulls(const q::RecordBatch& b) {
  for (int i = 0; i < b.num_columns(); ++i) {
    if (b.column(i).null_count() != 0) Die(fmt::format("column '{}' has nulls; the queries assume none", b.schema()->field(i).name));
  }
}

// --mmap: the file mapped (column chunks are views of the mapping) instead of read with pread
// into recycled buffers, the library's choice; to compare the two.
bool g_mmap = false;

struct Scan {
  std::unique_ptr<q::ThreadPool> pool;
  std::shared_ptr<q::parquet::ParquetFileReader> file;
  std::unique_ptr<q::stream::ParquetScan> scan;
};

// `where`: predicates that must all hold, pushed down.
Scan Open(const std::string& path, int threads, std::vector<std::string> columns,
          std::vector<q::stream::ScanPredicate> where) {
  Scan s;
  q::parquet::ParquetReaderOptions o;
  if (threads > 0) {
    s.pool = std::make_unique<q::ThreadPool>(threads);
    o.thread_pool = s.pool.get();
  }
  if (g_mmap) {
    auto file = Check(q::io::OpenFile(path, q::io::ReadMode::kMmap), "open");
    s.file = Check(q::parquet::ParquetFileReader::Open(std::move(file), o), "open");
  } else {
    s.file = Check(q::parquet::ParquetFileReader::Open(path, o), "open");
  }
  q::stream::ScanOptions so;
  so.columns = std::move(columns);
  if (!where.empty()) {
    so.where = std::move(where[0]);
    so.and_where.assign(std::make_move_iterator(where.begin() + 1), std::make_move_iterator(where.end()));
  }
  s.scan = Check(q::stream::ParquetScan::Make(s.file, std::move(so)), "scan");
  return s;
}

// SELECT sum(l_extendedprice * l_discount) WHERE l_shipdate >= '1994-01-01' AND l_shipdate <
// '1995-01-01' AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24
void Q6(const std::string& path, int threads) {
  const double t0 = Now();
  using Op = q::parquet::CompareOp;
  auto num = [](double v) { return q::parquet::Literal::Float(v); };
  // Every condition pushed into the scan: it returns only the rows that satisfy them all.
  Scan s = Open(path, threads, {"l_extendedprice", "l_discount"},
                {{"l_shipdate", Op::kGe, Date("1994-01-01")},
                 {"l_shipdate", Op::kLt, Date("1995-01-01")},
                 {"l_discount", Op::kGe, num(0.05)},
                 {"l_discount", Op::kLe, num(0.07)},
                 {"l_quantity", Op::kLt, num(24)}});
  double revenue = 0;
  int64_t rows = 0;
  for (;;) {
    auto b = Check(s.scan->Next(), "q6");
    if (!b) break;
    NoNulls(*b);
    const double* price = q::PrimitiveArray<double>(b->column(0)).raw_values();
    const double* disc = q::PrimitiveArray<double>(b->column(1)).raw_values();
    const int64_t n = b->num_rows();
    double sum = 0;
    for (int64_t i = 0; i < n; ++i) sum += price[i] * disc[i];
    revenue += sum;
    rows += n;
  }
  fmt::print("{{\"engine\":\"quiver\",\"op\":\"q6\",\"revenue\":{},\"rows_kept\":{},\"seconds\":{:.4f},\"vm_hwm_kib\":{}}}\n",
             revenue, rows, Now() - t0, PeakKib());
}

// Q1's five sums (quantity, price, discounted price, charge, discount) and count per group.
struct Q1Acc {
  double qty = 0, price = 0, disc_price = 0, charge = 0, disc = 0;
  int64_t count = 0;
};

// The (l_returnflag, l_linestatus) pairs seen so far, named 0, 1, ... as they first come: the
// key of a pair of one-byte values is flag * 256 + status.
class Q1Groups {
 public:
  Q1Groups() : slot_of_(256 * 256, 0) {}
  // The pair's slot, naming it if new.
  size_t SlotOf(int key) {
    uint8_t s = slot_of_[static_cast<size_t>(key)];
    if (s == 0) [[unlikely]] {
      if (keys_.size() == 255) Die("more than 255 (l_returnflag, l_linestatus) groups");
      keys_.push_back(key);
      s = slot_of_[static_cast<size_t>(key)] = static_cast<uint8_t>(keys_.size());
    }
    return s - 1u;
  }
  const std::vector<int64_t>& keys() const { return keys_; }

 private:
  std::vector<uint8_t> slot_of_;  // slot + 1 by key, 0: not seen
  std::vector<int64_t> keys_;
};

constexpr int kQ1MaxVectorGroups = 8;

#define Q1_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq")))

// The eight lanes' sum (stored and added: GCC 12 warns in _mm512_reduce_add_pd).
Q1_AVX512 inline double AddLanes(__m512d v) {
  alignas(64) double lanes[8];
  _mm512_store_pd(lanes, v);
  double t = 0;
  for (double x : lanes) t += x;
  return t;
}

// Rows [i, n) of a batch whose groups are the G `keys`, 8 rows a step: each step's keys are
// compared with every group's at once, and each group's sums add the step's values under its
// mask (so a step never waits on a row's group). Stops at the first step with a key not among
// `keys`, adding nothing of it; returns where it stopped (n when done). The sums of the rows
// it went through are added to `acc[0, G)`. Two passes over each 1024 rows, the first naming
// the groups and summing quantity and price, the second (from the first's masks) discount,
// discounted price and charge: the five sums of six groups at once would not fit the 32
// registers, and the spills cost more than reading the rows twice from L1/L2.
template <int G>
Q1_AVX512 int64_t SumQ1Steps(const int64_t* keys, const uint8_t* flag, const uint8_t* status, const double* qty,
                             const double* price, const double* disc, const double* tax, int64_t i, int64_t n,
                             Q1Acc* acc) {
  constexpr int kG = G > 0 ? G : 1;
  constexpr int64_t kChunk = 1024;
  __m512i key[kG];
  for (int g = 0; g < G; ++g) key[g] = _mm512_set1_epi64(keys[g]);
  __m512d total[kG][5];
  int64_t count[kG] = {};
  for (int g = 0; g < G; ++g) {
    for (auto& t : total[g]) t = _mm512_setzero_pd();
  }
  const __m512d one = _mm512_set1_pd(1.0);
  const auto all = static_cast<__mmask8>(0xFF);
  __mmask8 masks[kChunk / 8][kG];
  bool stopped = false;
  while (i < n && !stopped) {
    const int64_t from = i, end = std::min(n, i + kChunk);
    __m512d a[kG][2];
    for (int g = 0; g < G; ++g) a[g][0] = a[g][1] = _mm512_setzero_pd();
    int64_t steps = 0;
    for (; i < end; i += 8, ++steps) {
      const auto valid = end - i >= 8 ? all : static_cast<__mmask8>((1u << (end - i)) - 1);
      const __m512i f = _mm512_maskz_cvtepu8_epi64(all, _mm_maskz_loadu_epi8(valid, flag + i));
      const __m512i s = _mm512_maskz_cvtepu8_epi64(all, _mm_maskz_loadu_epi8(valid, status + i));
      const __m512i k = _mm512_or_si512(_mm512_maskz_slli_epi64(all, f, 8), s);
      unsigned named = 0;
      for (int g = 0; g < G; ++g) {
        masks[steps][g] = _mm512_mask_cmpeq_epi64_mask(valid, k, key[g]);
        named |= masks[steps][g];
      }
      if (named != valid) {
        stopped = true;
        break;
      }
      const __m512d q = _mm512_maskz_loadu_pd(valid, qty + i);
      const __m512d p = _mm512_maskz_loadu_pd(valid, price + i);
      for (int g = 0; g < G; ++g) {
        a[g][0] = _mm512_mask_add_pd(a[g][0], masks[steps][g], a[g][0], q);
        a[g][1] = _mm512_mask_add_pd(a[g][1], masks[steps][g], a[g][1], p);
        count[g] += std::popcount(static_cast<unsigned>(masks[steps][g]));
      }
    }
    for (int g = 0; g < G; ++g) {
      total[g][0] = _mm512_add_pd(total[g][0], a[g][0]);
      total[g][1] = _mm512_add_pd(total[g][1], a[g][1]);
    }
    __m512d b[kG][3];
    for (int g = 0; g < G; ++g) b[g][0] = b[g][1] = b[g][2] = _mm512_setzero_pd();
    for (int64_t t = 0, r = from; t < steps; ++t, r += 8) {
      const auto valid = end - r >= 8 ? all : static_cast<__mmask8>((1u << (end - r)) - 1);
      const __m512d p = _mm512_maskz_loadu_pd(valid, price + r);
      const __m512d d = _mm512_maskz_loadu_pd(valid, disc + r);
      const __m512d x = _mm512_maskz_loadu_pd(valid, tax + r);
      const __m512d dp = _mm512_mul_pd(p, _mm512_sub_pd(one, d));
      const __m512d charge = _mm512_mul_pd(dp, _mm512_add_pd(one, x));
      for (int g = 0; g < G; ++g) {
        b[g][0] = _mm512_mask_add_pd(b[g][0], masks[t][g], b[g][0], d);
        b[g][1] = _mm512_mask_add_pd(b[g][1], masks[t][g], b[g][1], dp);
        b[g][2] = _mm512_mask_add_pd(b[g][2], masks[t][g], b[g][2], charge);
      }
    }
    for (int g = 0; g < G; ++g) {
      total[g][2] = _mm512_add_pd(total[g][2], b[g][0]);
      total[g][3] = _mm512_add_pd(total[g][3], b[g][1]);
      total[g][4] = _mm512_add_pd(total[g][4], b[g][2]);
    }
  }
  for (int g = 0; g < G; ++g) {
    acc[g].qty += AddLanes(total[g][0]);
    acc[g].price += AddLanes(total[g][1]);
    acc[g].disc += AddLanes(total[g][2]);
    acc[g].disc_price += AddLanes(total[g][3]);
    acc[g].charge += AddLanes(total[g][4]);
    acc[g].count += count[g];
  }
  return std::min(i, n);
}

// SumQ1Steps for the number of groups named so far (at most kQ1MaxVectorGroups).
int64_t SumQ1StepsOf(const std::vector<int64_t>& keys, const uint8_t* flag, const uint8_t* status, const double* qty,
                     const double* price, const double* disc, const double* tax, int64_t i, int64_t n, Q1Acc* acc) {
  auto run = [&]<int G>(std::integral_constant<int, G>) {
    return SumQ1Steps<G>(keys.data(), flag, status, qty, price, disc, tax, i, n, acc);
  };
  switch (keys.size()) {
    case 0: return i;
    case 1: return run(std::integral_constant<int, 1>{});
    case 2: return run(std::integral_constant<int, 2>{});
    case 3: return run(std::integral_constant<int, 3>{});
    case 4: return run(std::integral_constant<int, 4>{});
    case 5: return run(std::integral_constant<int, 5>{});
    case 6: return run(std::integral_constant<int, 6>{});
    case 7: return run(std::integral_constant<int, 7>{});
    default: return run(std::integral_constant<int, 8>{});
  }
}

// SELECT l_returnflag, l_linestatus, sum(l_quantity), sum(l_extendedprice),
//   sum(l_extendedprice * (1 - l_discount)), sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)),
//   avg(l_quantity), avg(l_extendedprice), avg(l_discount), count(*)
// WHERE l_shipdate <= '1998-09-02' GROUP BY 1, 2 ORDER BY 1, 2
void Q1(const std::string& path, int threads) {
  const double t0 = Now();
  Scan s = Open(path, threads,
                {"l_returnflag", "l_linestatus", "l_quantity", "l_extendedprice", "l_discount", "l_tax"},
                {{"l_shipdate", q::parquet::CompareOp::kLe, Date("1998-09-02")}});
  Q1Groups groups;
  // With AVX-512, while there are at most 8 groups (lineitem has 4 after the filter, 6 in all),
  // 8 rows a step (SumQ1Steps); otherwise row by row, each group's sums kept four times over
  // (row i adding to copy i % 4) so that rows of one group in a row do not wait for each
  // other's additions. Both add into `acc` by slot; the copies are added up at the end.
  const bool vector = q::ActiveSimdLevel() == q::SimdLevel::kAvx512;
  std::vector<Q1Acc> acc(5 * 256);  // [0, 256): the vector sums; then copy c at 256 * (c + 1)
  for (;;) {
    auto b = Check(s.scan->Next(), "q1");
    if (!b) break;
    NoNulls(*b);
    const q::BinaryArray flag(b->column(0)), status(b->column(1));
    const int32_t* fo = flag.raw_offsets();
    const int32_t* so = status.raw_offsets();
    const int64_t n = b->num_rows();
    // Every value one byte: checked for the batch at once, then read by row number.
    int32_t not_one = 0;
    for (int64_t i = 0; i < n; ++i) not_one |= ((fo[i + 1] - fo[i]) ^ 1) | ((so[i + 1] - so[i]) ^ 1);
    if (not_one != 0) Die("l_returnflag and l_linestatus must be one byte each");
    const uint8_t* fd = flag.data()->buffers[2]->data() + fo[0];
    const uint8_t* sd = status.data()->buffers[2]->data() + so[0];
    const double* qty = q::PrimitiveArray<double>(b->column(2)).raw_values();
    const double* price = q::PrimitiveArray<double>(b->column(3)).raw_values();
    const double* disc = q::PrimitiveArray<double>(b->column(4)).raw_values();
    const double* tax = q::PrimitiveArray<double>(b->column(5)).raw_values();
    int64_t i = 0;
    while (vector && i < n && groups.keys().size() <= kQ1MaxVectorGroups) {
      i = SumQ1StepsOf(groups.keys(), fd, sd, qty, price, disc, tax, i, n, acc.data());
      // Stopped at a step with a pair not named yet: its rows' pairs named, the step done again.
      for (int64_t r = i; r < std::min(i + 8, n); ++r) groups.SlotOf(fd[r] * 256 + sd[r]);
    }
    for (; i < n; ++i) {
      Q1Acc& a = acc[256 * ((i & 3) + 1) + groups.SlotOf(fd[i] * 256 + sd[i])];
      const double dp = price[i] * (1 - disc[i]);
      a.qty += qty[i];
      a.price += price[i];
      a.disc_price += dp;
      a.charge += dp * (1 + tax[i]);
      a.disc += disc[i];
      ++a.count;
    }
  }
  const double secs = Now() - t0;
  std::vector<std::pair<int64_t, Q1Acc>> sums;  // by key: ORDER BY l_returnflag, l_linestatus
  for (size_t slot = 0; slot < groups.keys().size(); ++slot) {
    Q1Acc t;
    for (size_t c = 0; c < 5; ++c) {
      const Q1Acc& a = acc[c * 256 + slot];
      t.qty += a.qty;
      t.price += a.price;
      t.disc_price += a.disc_price;
      t.charge += a.charge;
      t.disc += a.disc;
      t.count += a.count;
    }
    sums.emplace_back(groups.keys()[slot], t);
  }
  std::sort(sums.begin(), sums.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::string out;
  for (const auto& [k, a] : sums) {
    if (!out.empty()) out += ",";
    const double c = static_cast<double>(a.count);
    out += fmt::format("[\"{}\",\"{}\",{},{},{},{},{},{},{},{}]", static_cast<char>(k / 256), static_cast<char>(k % 256),
                       a.qty, a.price, a.disc_price, a.charge, a.qty / c, a.price / c, a.disc / c, a.count);
  }
  fmt::print("{{\"engine\":\"quiver\",\"op\":\"q1\",\"groups\":[{}],\"seconds\":{:.4f},\"vm_hwm_kib\":{}}}\n", out, secs,
             PeakKib());
}

// Every column, each row group released before the next (what `quiver cat --format none` does).
void FullScan(const std::string& path, int threads) {
  const double t0 = Now();
  Scan s = Open(path, threads, {}, {});
  int64_t rows = 0, bytes = 0;
  for (;;) {
    auto b = Check(s.scan->Next(), "scan");
    if (!b) break;
    rows += b->num_rows();
    bytes += b->buffer_bytes();
  }
  fmt::print("{{\"engine\":\"quiver\",\"op\":\"scan\",\"rows\":{},\"decoded_bytes\":{},\"seconds\":{:.4f},\"vm_hwm_kib\":{}}}\n",
             rows, bytes, Now() - t0, PeakKib());
}

// Seconds to get `bytes` of fresh memory the way a materialized read gets its output
// (parquet::reader::OutputArenaPool with small pages): `threads` threads at once, each mapping
// its share in blocks of 256 MiB on 4 KiB pages and writing them in 2 MiB at a time
// (PopulatePages). With `huge`, 2 MiB transparent huge pages touched once per 4 KiB instead
// (how the read got its output before; for comparison). Unmapped after the clock stops.
double FreshPagesSeconds(int64_t bytes, int threads, bool huge) {
  constexpr int64_t kBlock = int64_t{256} << 20;
  const int64_t share = q::bit_util::RoundUp((bytes + threads - 1) / threads, q::kHugePageBytes);
  std::vector<std::vector<std::pair<uint8_t*, int64_t>>> maps(static_cast<size_t>(threads));
  const double t0 = Now();
  std::vector<std::thread> ts;
  for (int t = 0; t < threads; ++t) {
    ts.emplace_back([&, t] {
      int64_t left = std::max<int64_t>(0, std::min(share, bytes - t * share));
      while (left > 0) {
        const int64_t n = q::bit_util::RoundUp(std::min(left, kBlock), q::kHugePageBytes);
        uint8_t* p = q::MapPages(n, huge ? q::PageSize::kHuge : q::PageSize::kSmall);
        if (p == nullptr) Die("mmap failed");
        for (int64_t i = 0; i < n; i += q::parquet::reader::OutputArenaPool::kPopulateStep) {
          if (huge) {
            for (int64_t j = i; j < i + q::parquet::reader::OutputArenaPool::kPopulateStep; j += 4096) p[j] = 1;
          } else {
            q::PopulatePages(p + i, q::parquet::reader::OutputArenaPool::kPopulateStep);
          }
        }
        maps[static_cast<size_t>(t)].emplace_back(p, n);
        left -= n;
      }
    });
  }
  for (auto& t : ts) t.join();
  const double secs = Now() - t0;
  for (const auto& m : maps) {
    for (auto [p, n] : m) q::UnmapPages(p, n);
  }
  return secs;
}

// The fault floor alone, in a process of its own.
void FaultFloor(int64_t bytes, int threads, bool huge) {
  const double secs = FreshPagesSeconds(bytes, threads, huge);
  fmt::print("{{\"engine\":\"quiver\",\"op\":\"{}\",\"bytes\":{},\"threads\":{},\"seconds\":{:.4f},\"vm_hwm_kib\":{}}}\n",
             huge ? "fault-floor-huge" : "fault-floor", bytes, threads, secs, PeakKib());
}

// The materialized read (ReadAll, every batch kept) and, in the same process once the batches
// are freed, the fault floor of as many bytes got as the read got them. Freed first, because
// the read's 4 KiB pages come first from the free fragments below 2 MiB the guest never
// reported to its host (docs/DESIGN.md, "Fresh memory"): with the batches still held, the
// floor would find those used up and measure the host's cost instead of the read's.
void ReadAllJob(const std::string& path, int threads) {
  const double t0 = Now();
  Scan s = Open(path, threads, {}, {});
  auto batches = Check(s.scan->ReadAll(), "read all");
  const double secs = Now() - t0;
  int64_t rows = 0, bytes = 0;
  for (const auto& b : batches) {
    rows += b->num_rows();
    bytes += b->buffer_bytes();
  }
  const int64_t peak = PeakKib();
  batches.clear();
  s.scan.reset();
  const double floor = FreshPagesSeconds(bytes, threads, false);
  fmt::print("{{\"engine\":\"quiver\",\"op\":\"readall\",\"rows\":{},\"decoded_bytes\":{},\"seconds\":{:.4f},"
             "\"fault_floor_seconds\":{:.4f},\"vm_hwm_kib\":{}}}\n",
             rows, bytes, secs, floor, peak);
}

}  // namespace

int main(int argc, char** argv) {
  q::ConfigureAllocatorForStreaming();
  std::vector<std::string> args(argv + 1, argv + argc);
  int threads = 2;
  if (auto it = std::find(args.begin(), args.end(), "--mmap"); it != args.end()) {
    g_mmap = true;
    args.erase(it);
  }
  for (size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] == "--threads") {
      threads = std::atoi(args[i + 1].c_str());
      args.erase(args.begin() + static_cast<std::ptrdiff_t>(i), args.begin() + static_cast<std::ptrdiff_t>(i) + 2);
      break;
    }
  }
  if (args.size() != 2 || threads < 1) Die("usage: lineitem_queries q1|q6|scan|readall FILE.parquet [--mmap] | fault-floor|fault-floor-huge BYTES [--threads N]");
  const std::string& op = args[0];
  if (op == "q1") Q1(args[1], threads);
  else if (op == "q6") Q6(args[1], threads);
  else if (op == "scan") FullScan(args[1], threads);
  else if (op == "readall") ReadAllJob(args[1], threads);
  else if (op == "fault-floor") FaultFloor(std::atoll(args[1].c_str()), threads, false);
  else if (op == "fault-floor-huge") FaultFloor(std::atoll(args[1].c_str()), threads, true);
  else Die("unknown job '" + op + "'");
  return 0;
}
