#include "quiver/csv/block_buffer_internal.h"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>

#include "quiver/core/arena.h"
#include "quiver/core/bit_util.h"
#include "quiver/core/page_mapping.h"

namespace quiver::csv {

namespace {

std::atomic<bool> g_map_files{true};
std::atomic<int64_t> g_mapped_bytes{0};

constexpr int64_t kPage = kSmallPageBytes;

}  // namespace

void SetFileMappingForTesting(bool on) { g_map_files.store(on); }
int64_t MappedBytesForTesting() { return g_mapped_bytes.load(); }

Result<std::shared_ptr<Buffer>> AllocateBlockBuffer(int64_t size) {
  return Buffer::Allocate(size, size >= Arena::kHugePageSize ? populated_small_page_memory_pool() : default_memory_pool());
}

Result<int64_t> BlockBuffer::ReadAt(int64_t at, int64_t max) {
  const int h = at >= stride ? 1 : 0;
  if (ring && maps && mapped[h]) {
    const ByteSource::FileBytes f = src->NextFileBytes();
    const int64_t n = std::min(max, map_end[h] - at);
    if (f.fd >= 0 && n > 0 && f.offset == map_from[h] + (at - h * stride)) {
      // The pages come in by faults where they are first read (the kernel maps 16 at a time
      // around each): bringing them in here with MADV_POPULATE_READ, off the parsing
      // threads, cost a convert of lineitem more CPU time than the faults, and so did
      // MAP_POPULATE (which on a writable private mapping copies every page).
      src->SkipFileBytes(n);
      g_mapped_bytes.fetch_add(n, std::memory_order_relaxed);
      return n;
    }
  }
  return src->Read(buf->mutable_data() + at, max);
}

Result<int64_t> BlockBuffer::StartBlock(int h) {
  mapped[h] = false;
  if (maps) {
    shift[h] = 0;
    const ByteSource::FileBytes f = src->NextFileBytes();
    // The half's pages are the file's from `from` on: the block's first byte lands `shift`
    // bytes past the headroom, and the bytes before it (the current block's tail among them)
    // in the headroom.
    const int64_t s = f.offset & (kPage - 1);
    const int64_t from = f.offset - s - headroom;
    if (f.fd >= 0 && from >= 0 && f.offset < f.size) {
      uint8_t* at = buf->mutable_data() + h * stride;
      const size_t len = static_cast<size_t>(std::min(stride, bit_util::RoundUp(f.size, kPage) - from));
      // Private and writable: a read into the half later (a fallback) copies the pages it
      // writes, and the file is never written. The file stays open (the source holds it) while the ring lives; a
      // file cut short meanwhile faults with SIGBUS where its pages are gone, the risk every
      // reader of mapped files takes (the ORC and Arrow IPC readers map their files too).
      if (mmap(at, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, f.fd, from) != MAP_FAILED) {
        shift[h] = s;
        mapped[h] = true;
        map_from[h] = from;
        map_end[h] = h * stride + (f.size - from);
      } else if (mmap(at, static_cast<size_t>(stride), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS, -1, 0) ==
                 MAP_FAILED) {
        // A failed MAP_FIXED may have unmapped the half: it is mapped afresh to be read into.
        return Status::FromErrno(errno, src->name());
      }
    }
  }
  return HalfStart(h) + headroom;
}

void BlockBuffer::PlaceTail(int h, int64_t first) {
  const int64_t tail = end - start;
  if (tail <= 0) return;
  if (mapped[h] && first - tail >= h * stride) return;  // the file's bytes before the block's
  std::memcpy(buf->mutable_data() + first - tail, buf->data() + start, static_cast<size_t>(tail));
}

Status BlockBuffer::Fill(int64_t target) {
  auto grow_to = [&](int64_t size) -> Status {
    QUIVER_ASSIGN_OR_RETURN(auto bigger, AllocateBlockBuffer(size + 64));
    if (buf && end > start) std::memcpy(bigger->mutable_data(), buf->data() + start, static_cast<size_t>(end - start));
    end -= start;
    start = 0;
    buf = std::move(bigger);
    return Status::OK();
  };
  if (!buf) {
    int64_t first = std::min<int64_t>(target, 64 << 10);
    const int64_t known = src->raw_size();
    if (ring_allowed && known > std::max(target, block)) {
      QUIVER_RETURN_NOT_OK(EnterRing(target));
    } else {
      if (known >= 0) first = std::clamp<int64_t>(known, first, std::max(target, block + kBlockHeadroom));
      QUIVER_RETURN_NOT_OK(grow_to(first + kMinRead));
    }
  }
  while (!eof && end - start < target) {
    if (Limit() - end < kMinRead) {
      if (ring) {
        QUIVER_RETURN_NOT_OK(LeaveRing(target));
      } else if (Limit() < target + kMinRead) {
        QUIVER_RETURN_NOT_OK(grow_to(std::min<int64_t>(target, Limit() * 2) + kMinRead));
      } else {
        std::memmove(buf->mutable_data(), buf->data() + start, static_cast<size_t>(end - start));
        end -= start;
        start = 0;
      }
    }
    QUIVER_ASSIGN_OR_RETURN(int64_t n, ReadAt(end, Limit() - end));
    if (n == 0) eof = true;
    end += n;
    bytes_read += n;
  }
  return Status::OK();
}

Status BlockBuffer::EnterRing(int64_t at_least) {
  const int64_t size = std::max({block, end - start, at_least});
  if (size > (int64_t{1} << 30)) return Status::OK();  // a giant row: stays linear
  const int64_t h = (headroom + size + kMinRead + 64 + 63) & ~int64_t{63};
  std::shared_ptr<Buffer> fresh;
  maps = false;
  stride = h;
  if (g_map_files.load() && src->IsPlainFile()) {
    const int64_t page_stride = bit_util::RoundUp(h + kPage, kPage);
    if (uint8_t* p = MapPages(2 * page_stride, PageSize::kSmall)) {
      // Half 0 takes the first block by read() (what the start of the file was looked at
      // with is held back from a mapping): its pages are written in at once, as the
      // populated pool's are; half 1's are replaced by the file's before they are used.
      PopulatePages(p, page_stride);
      // A borrowed view that unmaps the reservation when the last user lets go; only the
      // block buffer writes into it, as into the ring it replaces.
      const int64_t bytes = 2 * page_stride;
      fresh = Buffer::Wrap(p, bytes, std::shared_ptr<const void>(p, [bytes](const void* q) {
                             UnmapPages(const_cast<uint8_t*>(static_cast<const uint8_t*>(q)), bytes);
                           }));
      maps = true;
      stride = page_stride;
    }
  }
  if (!fresh) {
    QUIVER_ASSIGN_OR_RETURN(fresh, AllocateBlockBuffer(2 * h));
  }
  if (buf && end > start) std::memcpy(fresh->mutable_data(), buf->data() + start, static_cast<size_t>(end - start));
  end -= start;
  start = 0;
  buf = std::move(fresh);
  half = h;
  cur = 0;
  ring = true;
  shift[0] = shift[1] = 0;
  mapped[0] = mapped[1] = false;
  return Status::OK();
}

Status BlockBuffer::LeaveRing(int64_t want) {
  if (before_leaving_ring) before_leaving_ring();
  const int64_t unread = end - start;
  QUIVER_ASSIGN_OR_RETURN(auto lin, AllocateBlockBuffer(std::max(want, unread) + kMinRead + 64));
  if (unread > 0) std::memcpy(lin->mutable_data(), buf->data() + start, static_cast<size_t>(unread));
  buf = std::move(lin);
  start = 0;
  end = unread;
  ring = false;
  cur = 0;
  maps = false;
  mapped[0] = mapped[1] = false;
  return Status::OK();
}

}  // namespace quiver::csv
