#include "quiver/csv/block_buffer_internal.h"

#include <algorithm>
#include <cstring>

#include "quiver/core/arena.h"

namespace quiver::csv {

Result<std::shared_ptr<Buffer>> AllocateBlockBuffer(int64_t size) {
  return Buffer::Allocate(size, size >= Arena::kHugePageSize ? populated_small_page_memory_pool() : default_memory_pool());
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
    QUIVER_ASSIGN_OR_RETURN(int64_t n, src->Read(buf->mutable_data() + end, Limit() - end));
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
  QUIVER_ASSIGN_OR_RETURN(auto fresh, AllocateBlockBuffer(2 * h));
  if (buf && end > start) std::memcpy(fresh->mutable_data(), buf->data() + start, static_cast<size_t>(end - start));
  end -= start;
  start = 0;
  buf = std::move(fresh);
  half = h;
  cur = 0;
  ring = true;
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
  return Status::OK();
}

}  // namespace quiver::csv
