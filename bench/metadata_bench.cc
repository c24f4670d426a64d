// Footer decode/encode benchmark: the grid of Apache Arrow's ReadMetadata/WriteMetadata
// (num_columns x num_row_groups, required INT32 columns with one value per row group,
// statistics, data page V2, no dictionary), selective decoding, and the largest corpus footers.
#include <benchmark/benchmark.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "quiver/io/file.h"
#include "quiver/parquet/footer.h"
#include "quiver/parquet/metadata_codec.h"
#include "quiver/thrift/compact_reader_internal.h"

namespace quiver::parquet {
namespace {

// A footer built from the model as Arrow's benchmark file would have it. Everything the model
// points to lives in `arena`/`names`.
struct GridFooter {
  Arena arena;
  std::vector<std::string> names;
  FileMetaData md;
  std::shared_ptr<Buffer> bytes;
};

template <typename T>
List<T> ArenaList(Arena* arena, uint32_t n) {
  T* p = static_cast<T*>(arena->Allocate(static_cast<int64_t>(n) * static_cast<int64_t>(sizeof(T)), alignof(T)));
  for (uint32_t i = 0; i < n; ++i) new (p + i) T();
  return List<T>(p, n);
}

std::unique_ptr<GridFooter> MakeGridFooter(int num_columns, int num_row_groups) {
  auto g = std::make_unique<GridFooter>();
  Arena* a = &g->arena;
  g->names.reserve(static_cast<size_t>(num_columns));
  for (int c = 0; c < num_columns; ++c) g->names.push_back("column_" + std::to_string(c));
  static const int32_t kMin = 0, kMax = 1;  // one value per row group: min == max, still 4 bytes each
  static const std::string_view kMinBytes(reinterpret_cast<const char*>(&kMin), 4);
  static const std::string_view kMaxBytes(reinterpret_cast<const char*>(&kMax), 4);
  FileMetaData& md = g->md;
  md.version = 2;
  md.schema = ArenaList<SchemaElement>(a, static_cast<uint32_t>(num_columns) + 1);
  md.schema[0].name = "schema";
  md.schema[0].num_children = num_columns;
  for (int c = 0; c < num_columns; ++c) {
    SchemaElement& e = md.schema[static_cast<uint32_t>(c) + 1];
    e.name = g->names[static_cast<size_t>(c)];
    e.type = Type::INT32;
    e.repetition_type = FieldRepetitionType::REQUIRED;
  }
  md.num_rows = num_row_groups;
  md.row_groups = ArenaList<RowGroup>(a, static_cast<uint32_t>(num_row_groups));
  List<Encoding> encodings = ArenaList<Encoding>(a, 1);
  encodings[0] = Encoding::PLAIN;
  List<PageEncodingStats> page_stats = ArenaList<PageEncodingStats>(a, 1);
  page_stats[0] = PageEncodingStats{PageType::DATA_PAGE_V2, Encoding::PLAIN, 1};
  int64_t offset = 4;
  for (int r = 0; r < num_row_groups; ++r) {
    RowGroup& rg = md.row_groups[static_cast<uint32_t>(r)];
    rg.columns = ArenaList<ColumnChunk>(a, static_cast<uint32_t>(num_columns));
    rg.num_rows = 1;
    rg.file_offset = offset;
    for (int c = 0; c < num_columns; ++c) {
      ColumnChunk& cc = rg.columns[static_cast<uint32_t>(c)];
      cc.file_offset = 0;
      ColumnMetaData& m = cc.meta_data.emplace();
      m.type = Type::INT32;
      m.encodings = encodings;
      m.path_in_schema = ArenaList<std::string_view>(a, 1);
      m.path_in_schema[0] = g->names[static_cast<size_t>(c)];
      m.codec = CompressionCodec::UNCOMPRESSED;
      m.num_values = 1;
      m.total_uncompressed_size = 36;
      m.total_compressed_size = 36;
      m.data_page_offset = offset;
      Statistics& s = *m.statistics.Emplace(a);
      s.max = kMaxBytes;
      s.min = kMinBytes;
      s.null_count = 0;
      s.max_value = kMaxBytes;
      s.min_value = kMinBytes;
      s.is_max_value_exact = true;
      s.is_min_value_exact = true;
      m.encoding_stats = page_stats;
      offset += 36;
    }
    rg.total_byte_size = 36 * num_columns;
    rg.total_compressed_size = 36 * num_columns;
    rg.ordinal = static_cast<int16_t>(r);
  }
  md.created_by = "parquet-cpp-arrow version 19.0.0";
  md.column_orders = ArenaList<ColumnOrder>(a, static_cast<uint32_t>(num_columns));
  for (ColumnOrder& o : *md.column_orders) o.TYPE_ORDER.emplace();
  BufferBuilder out;
  if (!EncodeFileMetaData(md, &out).ok()) std::abort();
  g->bytes = *out.Finish();
  return g;
}

// Hands freed blocks back out instead of returning them to the system. In this sandbox the
// first touch of a fresh page costs ~11 us (73 MB: 200 ms), which swamps decoding on the big
// cells; the *Warm benchmarks decode into memory that is already mapped, as a process that
// reads many footers would.
class RecyclingPool final : public MemoryPool {
 public:
  ~RecyclingPool() override {
    for (auto& [p, n] : free_) base_->Free(p);
  }
  Status Allocate(int64_t size, uint8_t** out) override {
    for (size_t i = 0; i < free_.size(); ++i) {
      if (free_[i].second >= size) {
        *out = free_[i].first;
        free_.erase(free_.begin() + static_cast<std::ptrdiff_t>(i));
        return Status::OK();
      }
    }
    QUIVER_RETURN_NOT_OK(base_->Allocate(size, out));
    sizes_[*out] = size;
    return Status::OK();
  }
  Status Reallocate(int64_t new_size, uint8_t** ptr) override {
    uint8_t* fresh;
    QUIVER_RETURN_NOT_OK(Allocate(new_size, &fresh));
    std::memcpy(fresh, *ptr, static_cast<size_t>(std::min(new_size, sizes_[*ptr])));
    Free(*ptr);
    *ptr = fresh;
    return Status::OK();
  }
  void Free(uint8_t* ptr) override { free_.emplace_back(ptr, sizes_[ptr]); }
  int64_t UsableSize(const uint8_t* ptr) const override { return sizes_.at(const_cast<uint8_t*>(ptr)); }
  MemoryTracker* tracker() const override { return base_->tracker(); }
  const char* backend_name() const override { return "recycling"; }

 private:
  MemoryPool* base_ = default_memory_pool();
  std::map<uint8_t*, int64_t> sizes_;
  std::vector<std::pair<uint8_t*, int64_t>> free_;
};

// Fresh pages for every allocation (mmap, munmap on free): each iteration pays the first-touch
// cost a new process pays, whatever the allocator would have kept around.
class FreshPool final : public MemoryPool {
 public:
  Status Allocate(int64_t size, uint8_t** out) override {
    size_t n = static_cast<size_t>(std::max<int64_t>(size, 1));
    void* p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return Status::OutOfMemory("mmap");
    *out = static_cast<uint8_t*>(p);
    sizes_[*out] = size;
    return Status::OK();
  }
  Status Reallocate(int64_t new_size, uint8_t** ptr) override {
    uint8_t* fresh;
    QUIVER_RETURN_NOT_OK(Allocate(new_size, &fresh));
    std::memcpy(fresh, *ptr, static_cast<size_t>(std::min(new_size, sizes_[*ptr])));
    Free(*ptr);
    *ptr = fresh;
    return Status::OK();
  }
  void Free(uint8_t* ptr) override {
    munmap(ptr, static_cast<size_t>(std::max<int64_t>(sizes_[ptr], 1)));
    sizes_.erase(ptr);
  }
  int64_t UsableSize(const uint8_t* ptr) const override { return sizes_.at(const_cast<uint8_t*>(ptr)); }
  MemoryTracker* tracker() const override { return default_memory_pool()->tracker(); }
  const char* backend_name() const override { return "fresh-mmap"; }

 private:
  std::map<uint8_t*, int64_t> sizes_;
};

void SetCounters(benchmark::State& state, int64_t bytes, int64_t chunks) {
  state.SetBytesProcessed(state.iterations() * bytes);
  state.counters["footer_bytes"] = static_cast<double>(bytes);
  state.counters["per_chunk"] =
      benchmark::Counter(static_cast<double>(chunks), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// Cold: what a caller of DecodeFooter gets, a fresh arena (sized and prefaulted as the library
// does) whose memory the pool may have returned to the system since the last iteration.
void BM_DecodeFooter(benchmark::State& state) {
  auto g = MakeGridFooter(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  for (auto _ : state) {
    auto footer = DecodeFooter(g->bytes);
    if (!footer.ok()) state.SkipWithError(footer.status().ToString().c_str());
    benchmark::DoNotOptimize(footer);
  }
  SetCounters(state, g->bytes->size(), state.range(0) * state.range(1));
}

// Cold as in a fresh process: every page of the arena is new (FreshPool); the library's block
// size, not prefaulted (0), prefaulted in 4 KB pages (1), or on 2 MiB transparent huge pages
// and prefaulted (2, what DecodeFooter does for large footers): what each saves on first touches.
void BM_DecodeFooterColdPrefault(benchmark::State& state) {
  auto g = MakeGridFooter(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  const int64_t block = std::clamp<int64_t>(g->bytes->size(), 16 * 1024, kFooterArenaMaxBlock);
  FreshPool pool;
  for (auto _ : state) {
    Arena arena(&pool, block);
    arena.set_prefault(state.range(2) != 0);
    arena.set_huge_pages(state.range(2) == 2);
    FileMetaData md;
    Status st = DecodeFileMetaData(g->bytes->span(), &arena, &md);
    if (!st.ok()) state.SkipWithError(st.ToString().c_str());
    benchmark::DoNotOptimize(md);
  }
  SetCounters(state, g->bytes->size(), state.range(0) * state.range(1));
}

void BM_EncodeFooter(benchmark::State& state) {
  auto g = MakeGridFooter(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  for (auto _ : state) {
    BufferBuilder out;
    Status st = EncodeFileMetaData(g->md, &out);
    if (!st.ok()) state.SkipWithError(st.ToString().c_str());
    benchmark::DoNotOptimize(out.data());
  }
  SetCounters(state, g->bytes->size(), state.range(0) * state.range(1));
}

void BM_DecodeFooterWarm(benchmark::State& state) {
  auto g = MakeGridFooter(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  RecyclingPool pool;
  int64_t model_bytes = 0;
  {
    // Untimed: maps the memory the timed decodes reuse, and measures the decoded model: the
    // block holds all of it, so the distance between a byte allocated before and one after
    // the decode is the model's size (what a first decode in a fresh process must fault in).
    Arena arena(&pool, std::max<int64_t>(16 * 1024, g->bytes->size() * 8));
    auto* before = static_cast<uint8_t*>(arena.Allocate(1, 1));
    FileMetaData md;
    (void)DecodeFileMetaData(g->bytes->span(), &arena, &md);
    auto* after = static_cast<uint8_t*>(arena.Allocate(1, 1));
    model_bytes = after - before - 1;
  }
  for (auto _ : state) {
    Arena arena(&pool, std::max<int64_t>(16 * 1024, g->bytes->size() * 8));
    FileMetaData md;
    Status st = DecodeFileMetaData(g->bytes->span(), &arena, &md);
    if (!st.ok()) state.SkipWithError(st.ToString().c_str());
    benchmark::DoNotOptimize(md);
  }
  SetCounters(state, g->bytes->size(), state.range(0) * state.range(1));
  state.counters["model_bytes"] = static_cast<double>(model_bytes);
}

void BM_EncodeFooterWarm(benchmark::State& state) {
  auto g = MakeGridFooter(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  RecyclingPool pool;
  {
    BufferBuilder out(&pool);
    (void)EncodeFileMetaData(g->md, &out);
    auto done = out.Finish();
  }
  for (auto _ : state) {
    BufferBuilder out(&pool);
    Status st = EncodeFileMetaData(g->md, &out);
    if (!st.ok()) state.SkipWithError(st.ToString().c_str());
    benchmark::DoNotOptimize(out.data());
    auto done = out.Finish();  // returns the buffer to the pool when dropped
  }
  SetCounters(state, g->bytes->size(), state.range(0) * state.range(1));
}

// 5 columns spread over the schema, every row group: schema + 5 chunks per row group built,
// the rest skipped on the wire.
void BM_DecodeSelective5Columns(benchmark::State& state) {
  auto g = MakeGridFooter(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  DecodeOptions options;
  int n = static_cast<int>(state.range(0));
  options.columns = std::vector<int32_t>{0, n / 4, n / 2, 3 * n / 4, n - 1};
  RecyclingPool pool;
  for (auto _ : state) {
    Arena arena(&pool);
    FileMetaData md;
    Status st = DecodeFileMetaData(g->bytes->span(), &arena, &md, &options);
    if (!st.ok()) state.SkipWithError(st.ToString().c_str());
    benchmark::DoNotOptimize(md);
  }
  SetCounters(state, g->bytes->size(), state.range(0) * state.range(1));
}

// The part of any selective decode that cannot be skipped: the schema (no row group built).
void BM_DecodeSchemaOnly(benchmark::State& state) {
  auto g = MakeGridFooter(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  DecodeOptions options;
  options.row_groups.emplace();
  RecyclingPool pool;
  for (auto _ : state) {
    Arena arena(&pool);
    FileMetaData md;
    Status st = DecodeFileMetaData(g->bytes->span(), &arena, &md, &options);
    if (!st.ok()) state.SkipWithError(st.ToString().c_str());
    benchmark::DoNotOptimize(md);
  }
  SetCounters(state, g->bytes->size(), state.range(0) * state.range(1));
}

// The floor of any selective decode: walking every byte of the footer with the skipper,
// building nothing (what skipping all row groups and the schema would cost).
void BM_SkipWholeFooter(benchmark::State& state) {
  auto g = MakeGridFooter(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  for (auto _ : state) {
    thrift::CompactReader r(g->bytes->data(), static_cast<size_t>(g->bytes->size()));
    if (!r.SkipStruct()) state.SkipWithError("skip failed");
    benchmark::DoNotOptimize(r.offset());
  }
  SetCounters(state, g->bytes->size(), state.range(0) * state.range(1));
}

// The physical floor of any decoder that reads the footer, selective or not: one plain
// sequential pass over its bytes that parses nothing. range(2) = 0: the sum of its 64-bit words
// (vectorised by the compiler); 1: glibc's SIMD memchr, called again after each hit, for the
// byte value the footer holds least often (grid footers hold all 256). A compact-protocol footer has no lengths for its structs, so reaching the chosen
// column chunks means reading every byte before them; no selective decode can cost less than
// this pass over the bytes it must step over.
void BM_FooterReadFloor(benchmark::State& state) {
  auto g = MakeGridFooter(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  const uint8_t* p = g->bytes->data();
  const size_t n = static_cast<size_t>(g->bytes->size());
  int64_t count[256] = {};
  for (size_t i = 0; i < n; ++i) ++count[p[i]];
  const int rarest = static_cast<int>(std::min_element(count, count + 256) - count);
  for (auto _ : state) {
    if (state.range(2) == 0) {
      uint64_t sum = 0;
      size_t i = 0;
      for (; i + 8 <= n; i += 8) {
        uint64_t w;
        std::memcpy(&w, p + i, 8);
        sum += w;
      }
      for (; i < n; ++i) sum += p[i];
      benchmark::DoNotOptimize(sum);
    } else {
      int64_t hits = 0;
      for (const uint8_t* q = p; (q = static_cast<const uint8_t*>(std::memchr(q, rarest, static_cast<size_t>(p + n - q)))) != nullptr; ++q) {
        ++hits;
      }
      if (hits != count[rarest]) state.SkipWithError("memchr miscounted");
      benchmark::DoNotOptimize(hits);
    }
  }
  SetCounters(state, g->bytes->size(), state.range(0) * state.range(1));
  if (state.range(2) == 1) state.counters["hits"] = static_cast<double>(count[rarest]);
}

void BM_DecodeFooterNoStatistics(benchmark::State& state) {
  auto g = MakeGridFooter(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  DecodeOptions options;
  options.statistics = false;
  RecyclingPool pool;
  {
    Arena arena(&pool, std::max<int64_t>(16 * 1024, g->bytes->size() * 8));
    FileMetaData md;
    (void)DecodeFileMetaData(g->bytes->span(), &arena, &md, &options);
  }
  for (auto _ : state) {
    Arena arena(&pool, std::max<int64_t>(16 * 1024, g->bytes->size() * 8));
    FileMetaData md;
    Status st = DecodeFileMetaData(g->bytes->span(), &arena, &md, &options);
    if (!st.ok()) state.SkipWithError(st.ToString().c_str());
    benchmark::DoNotOptimize(md);
  }
  SetCounters(state, g->bytes->size(), state.range(0) * state.range(1));
}

void GridArgs(benchmark::internal::Benchmark* b) {
  for (int cols : {1, 10, 100, 1000, 10000}) {
    for (int rgs : {1, 100, 1000}) {
      if (cols == 10000 && rgs == 1000) continue;
      b->Args({cols, rgs});
    }
  }
  b->ArgNames({"columns", "row_groups"})->Unit(benchmark::kMicrosecond);
}

BENCHMARK(BM_DecodeFooter)->Apply(GridArgs);
BENCHMARK(BM_EncodeFooter)->Apply(GridArgs);
BENCHMARK(BM_DecodeFooterWarm)->Apply(GridArgs);
BENCHMARK(BM_EncodeFooterWarm)->Apply(GridArgs);
BENCHMARK(BM_DecodeFooterColdPrefault)
    ->Args({1000, 1000, 0})->Args({1000, 1000, 1})->Args({1000, 1000, 2})
    ->Args({10000, 100, 0})->Args({10000, 100, 1})->Args({10000, 100, 2})
    ->ArgNames({"columns", "row_groups", "prefault"})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DecodeFooterNoStatistics)->Args({1000, 100})->Args({10000, 100})->ArgNames({"columns", "row_groups"})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DecodeSchemaOnly)->Args({10000, 1})->Args({10000, 100})->ArgNames({"columns", "row_groups"})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DecodeSelective5Columns)->Args({10000, 1})->Args({10000, 100})->ArgNames({"columns", "row_groups"})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FooterReadFloor)
    ->Args({10000, 1, 0})->Args({10000, 1, 1})->Args({10000, 100, 0})->Args({10000, 100, 1})
    ->ArgNames({"columns", "row_groups", "memchr"})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SkipWholeFooter)->Args({10000, 1})->Args({10000, 100})->ArgNames({"columns", "row_groups"})->Unit(benchmark::kMicrosecond);

// The largest footers of the parquet-testing corpus, when it is present.
std::filesystem::path CorpusDir() {
  if (const char* env = std::getenv("QUIVER_TESTDATA"); env != nullptr && *env != '\0') return env;
  return std::filesystem::path(__FILE__).parent_path().parent_path().parent_path() / "shared" / "testdata";
}

const bool corpus_registered = [] {
  auto dir = CorpusDir() / "parquet-testing";
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return false;
  std::vector<std::pair<int64_t, std::string>> footers;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir, ec)) {
    std::string name = e.path().filename().string();
    if (!e.is_regular_file() || !name.ends_with(".parquet")) continue;
    auto file = io::OpenFile(e.path().string());
    if (!file.ok()) continue;
    auto footer = ReadFooter(**file);
    if (!footer.ok()) continue;
    footers.emplace_back((*footer)->footer_length(), e.path().string());
  }
  std::sort(footers.rbegin(), footers.rend());
  for (size_t i = 0; i < footers.size() && i < 3; ++i) {
    std::string path = footers[i].second;
    // mode 0, cold: fresh pages each iteration, prefaulted as DecodeFooter would; 1, warm:
    // recycled pages; 2, cold with every arena block prefaulted whatever the footer size.
    for (int mode = 0; mode < 3; ++mode) {
      static const char* const kLabels[] = {"BM_DecodeCorpusFooterCold/", "BM_DecodeCorpusFooterWarm/",
                                            "BM_DecodeCorpusFooterColdPrefaulted/"};
      std::string label = kLabels[mode] + std::filesystem::path(path).filename().string();
      const bool warm = mode == 1;
      benchmark::RegisterBenchmark(label.c_str(), [path, warm, mode](benchmark::State& state) {
        auto file = io::OpenFile(path);
        auto footer = ReadFooter(**file);
        auto bytes = Buffer::CopyOf((*footer)->footer_bytes()->span());
        const int64_t size = (*bytes)->size();
        int64_t chunks = 0;
        for (const RowGroup& rg : (*footer)->metadata().row_groups) chunks += rg.columns.size();
        FreshPool fresh;
        RecyclingPool recycled;
        MemoryPool* pool = warm ? static_cast<MemoryPool*>(&recycled) : &fresh;
        for (auto _ : state) {
          Arena arena(pool, std::clamp<int64_t>(size, 16 * 1024, kFooterArenaMaxBlock));
          arena.set_prefault(mode == 2 || size >= kFooterPrefaultThreshold);
          arena.set_huge_pages(size >= kFooterPrefaultThreshold);
          FileMetaData md;
          Status st = DecodeFileMetaData((*bytes)->span(), &arena, &md);
          if (!st.ok()) state.SkipWithError(st.ToString().c_str());
          benchmark::DoNotOptimize(md);
        }
        SetCounters(state, size, chunks);
      })->Unit(benchmark::kMicrosecond);
    }
  }
  return true;
}();

}  // namespace
}  // namespace quiver::parquet
