// Costs of the core primitives: Status and Result on the success path, and tracked
// allocation against the bare allocator, at 1 and 2 threads.
#include <benchmark/benchmark.h>

#include <cstdlib>

#include "quiver/core/memory_pool.h"
#include "quiver/core/result.h"

#if QUIVER_WITH_MIMALLOC
#include <mimalloc.h>
#endif

namespace quiver {
namespace {

// noinline on the callee so that each iteration pays a real call and return, as a parser's
// per-chunk helper would; the success path must then be as cheap as returning a bool.
[[gnu::noinline]] Status CheckStatus(int64_t v) {
  if (v < 0) [[unlikely]] return Status::Invalid("negative");
  return Status::OK();
}

[[gnu::noinline]] bool CheckBool(int64_t v) { return v >= 0; }

[[gnu::noinline]] Result<int64_t> ParseResult(int64_t v) {
  if (v < 0) [[unlikely]] return Status::Invalid("negative");
  return v + 1;
}

[[gnu::noinline]] int64_t ParseRaw(int64_t v) { return v < 0 ? -1 : v + 1; }

Status StatusChain(int64_t n) {
  for (int64_t i = 0; i < n; ++i) QUIVER_RETURN_NOT_OK(CheckStatus(i));
  return Status::OK();
}

void BM_StatusSuccess(benchmark::State& state) {
  for (auto _ : state) {
    Status st = StatusChain(1000);
    benchmark::DoNotOptimize(st);
  }
  state.SetItemsProcessed(state.iterations() * 1000);
}

void BM_BoolSuccess(benchmark::State& state) {
  for (auto _ : state) {
    bool ok = true;
    for (int64_t i = 0; i < 1000; ++i) {
      if (!CheckBool(i)) [[unlikely]] {
        ok = false;
        break;
      }
    }
    benchmark::DoNotOptimize(ok);
  }
  state.SetItemsProcessed(state.iterations() * 1000);
}

void BM_ResultInt64(benchmark::State& state) {
  for (auto _ : state) {
    int64_t sum = 0;
    for (int64_t i = 0; i < 1000; ++i) {
      Result<int64_t> r = ParseResult(i);
      if (!r.ok()) [[unlikely]] break;
      sum += *r;
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * 1000);
}

void BM_RawInt64(benchmark::State& state) {
  for (auto _ : state) {
    int64_t sum = 0;
    for (int64_t i = 0; i < 1000; ++i) {
      int64_t r = ParseRaw(i);
      if (r < 0) [[unlikely]] break;
      sum += r;
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * 1000);
}

// Allocate a batch of blocks then free them, so both the allocation and the free paths (and
// the tracker's slack settling) are measured with the allocator's caches warm.
constexpr int kBatch = 64;

void BM_TrackedAllocFree(benchmark::State& state) {
  const int64_t size = state.range(0);
  MemoryPool* pool = default_memory_pool();
  uint8_t* ptrs[kBatch];
  for (auto _ : state) {
    for (auto& p : ptrs) {
      if (!pool->Allocate(size, &p).ok()) state.SkipWithError("allocation failed");
    }
    benchmark::DoNotOptimize(ptrs);
    for (auto* p : ptrs) pool->Free(p);
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
}

void BM_UntrackedAllocFree(benchmark::State& state) {
  const size_t size = static_cast<size_t>(state.range(0));
  void* ptrs[kBatch];
  for (auto _ : state) {
    for (auto& p : ptrs) {
#if QUIVER_WITH_MIMALLOC
      p = mi_malloc_aligned(size, kAlignment);
#else
      posix_memalign(&p, kAlignment, size);
#endif
    }
    benchmark::DoNotOptimize(ptrs);
    for (auto* p : ptrs) {
#if QUIVER_WITH_MIMALLOC
      mi_free(p);
#else
      free(p);
#endif
    }
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
}

BENCHMARK(BM_StatusSuccess);
BENCHMARK(BM_BoolSuccess);
BENCHMARK(BM_ResultInt64);
BENCHMARK(BM_RawInt64);
BENCHMARK(BM_UntrackedAllocFree)->Arg(64)->Arg(4096)->Arg(65536)->Arg(1 << 20)->Threads(1)->Threads(2)->UseRealTime();
BENCHMARK(BM_TrackedAllocFree)->Arg(64)->Arg(4096)->Arg(65536)->Arg(1 << 20)->Threads(1)->Threads(2)->UseRealTime();

}  // namespace
}  // namespace quiver
