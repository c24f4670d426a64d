#include "quiver/ipc/flatbuffers.h"

#include <algorithm>

#include <fmt/format.h>

namespace quiver::ipc::fb {
namespace {

template <typename T>
T Load(std::span<const uint8_t> b, size_t pos) {
  T v;
  std::memcpy(&v, b.data() + pos, sizeof(T));
  return v;
}

}  // namespace

void Context::Fail(std::string_view problem) {
  if (status_.ok()) status_ = Status::Corrupt(fmt::format("Arrow IPC {} flatbuffer: {}", what_, problem));
}

Table Table::Root(Context* ctx) {
  auto b = ctx->bytes();
  if (b.size() < 8) {
    ctx->Fail(fmt::format("{} bytes is too short", b.size()));
    return Invalid(ctx);
  }
  return At(ctx, Load<uint32_t>(b, 0), 0);
}

Table Table::Invalid(Context* ctx) {
  Table t;
  t.ctx_ = ctx;
  return t;
}

Table Table::At(Context* ctx, size_t pos, int depth) {
  auto b = ctx->bytes();
  if (depth > kMaxDepth) {
    ctx->Fail(fmt::format("tables nested deeper than {}", kMaxDepth));
    return Invalid(ctx);
  }
  if (pos == 0 || pos > b.size() || b.size() - pos < 4) {
    ctx->Fail(fmt::format("table offset {} outside the {} bytes", pos, b.size()));
    return Invalid(ctx);
  }
  const int64_t vt = static_cast<int64_t>(pos) - Load<int32_t>(b, pos);
  if (vt < 0 || vt > static_cast<int64_t>(b.size()) - 4) {
    ctx->Fail(fmt::format("vtable at {} outside the {} bytes", vt, b.size()));
    return Invalid(ctx);
  }
  Table t;
  t.vtable_size_ = Load<uint16_t>(b, static_cast<size_t>(vt));
  t.table_size_ = Load<uint16_t>(b, static_cast<size_t>(vt) + 2);
  if (t.vtable_size_ < 4 || (t.vtable_size_ & 1) || static_cast<size_t>(vt) + t.vtable_size_ > b.size() ||
      t.table_size_ < 4 || t.table_size_ > b.size() - pos) {
    ctx->Fail(fmt::format("vtable at {} of {} bytes for a table of {} bytes at {} does not fit the {} bytes", vt,
                          t.vtable_size_, t.table_size_, pos, b.size()));
    return Invalid(ctx);
  }
  t.ctx_ = ctx;
  t.valid_ = true;
  t.pos_ = pos;
  t.vtable_ = static_cast<size_t>(vt);
  t.depth_ = depth;
  return t;
}

size_t Table::FieldPos(int slot, size_t size) const {
  if (!valid_) return 0;
  const size_t entry = 4 + 2 * static_cast<size_t>(slot);
  if (entry + 2 > vtable_size_) return 0;
  const uint16_t off = Load<uint16_t>(ctx_->bytes(), vtable_ + entry);
  if (off == 0) return 0;
  if (off < 4 || off + size > table_size_) {
    ctx_->Fail(fmt::format("field {} at {} of a {}-byte table", slot, off, table_size_));
    return 0;
  }
  return pos_ + off;
}

size_t Table::Target(int slot) const {
  const size_t p = FieldPos(slot, 4);
  if (p == 0) return 0;
  const uint64_t target = p + static_cast<uint64_t>(Load<uint32_t>(ctx_->bytes(), p));
  if (target + 4 > ctx_->bytes().size()) {
    ctx_->Fail(fmt::format("field {} points at {}, outside the {} bytes", slot, target, ctx_->bytes().size()));
    return 0;
  }
  return static_cast<size_t>(target);
}

Table Table::Child(int slot) const {
  const size_t t = Target(slot);
  if (t == 0) return Invalid(ctx_);
  return At(ctx_, t, depth_ + 1);
}

std::string_view Table::String(int slot) const {
  const size_t t = Target(slot);
  if (t == 0) return {};
  const uint32_t n = Load<uint32_t>(ctx_->bytes(), t);
  if (n > ctx_->bytes().size() - t - 4) {
    ctx_->Fail(fmt::format("string of {} bytes at {} past the end", n, t));
    return {};
  }
  return {reinterpret_cast<const char*>(ctx_->bytes().data() + t + 4), n};
}

Vector Table::VectorOf(int slot, size_t width) const {
  const size_t t = Target(slot);
  if (t == 0) return {};
  const uint32_t n = Load<uint32_t>(ctx_->bytes(), t);
  if (static_cast<uint64_t>(n) * width > ctx_->bytes().size() - t - 4) {
    ctx_->Fail(fmt::format("vector of {} elements of {} bytes at {} past the end", n, width, t));
    return {};
  }
  Vector v;
  v.ctx_ = ctx_;
  v.data_ = t + 4;
  v.size_ = n;
  v.depth_ = depth_ + 1;
  return v;
}

Table Vector::TableAt(uint32_t i) const {
  const size_t p = data_ + static_cast<size_t>(i) * 4;
  return Table::At(ctx_, p + Load<uint32_t>(ctx_->bytes(), p), depth_);
}

// --- Builder ---

void Builder::Prepend(const void* data, size_t n) {
  if (head_ < n) {
    const size_t used = buf_.size() - head_;
    const size_t cap = std::max<size_t>(256, std::max(buf_.size() * 2, used + n + 64));
    std::vector<uint8_t> grown(cap);
    if (used > 0) std::memcpy(grown.data() + cap - used, buf_.data() + head_, used);
    buf_.swap(grown);
    head_ = cap - used;
  }
  head_ -= n;
  if (n > 0) std::memcpy(buf_.data() + head_, data, n);
}

void Builder::Align(size_t alignment) { PreAlign(0, alignment); }

void Builder::PreAlign(size_t len, size_t alignment) {
  static constexpr uint8_t kZeros[16] = {};
  const size_t pad = (alignment - (size() + len) % alignment) % alignment;
  Prepend(kZeros, pad);
}

Builder::Offset Builder::CreateString(std::string_view s) {
  PreAlign(s.size() + 1, 4);
  const uint8_t nul = 0;
  Prepend(&nul, 1);
  Prepend(s.data(), s.size());
  const uint32_t n = static_cast<uint32_t>(s.size());
  Prepend(&n, 4);
  return size();
}

Builder::Offset Builder::CreateVector(const void* data, size_t count, size_t width, size_t align) {
  PreAlign(count * width, std::max<size_t>(align, 4));
  Prepend(data, count * width);
  Align(4);
  const uint32_t n = static_cast<uint32_t>(count);
  Prepend(&n, 4);
  return size();
}

Builder::Offset Builder::CreateOffsetVector(const std::vector<Offset>& offsets) {
  Align(4);
  for (size_t i = offsets.size(); i-- > 0;) {
    // Relative to where this element lands: size() after prepending it.
    const uint32_t rel = size() + 4 - offsets[i];
    Prepend(&rel, 4);
  }
  const uint32_t n = static_cast<uint32_t>(offsets.size());
  Prepend(&n, 4);
  return size();
}

void Builder::StartTable() {
  fields_.clear();
  table_start_ = size();
}

void Builder::AddOffset(int slot, Offset target) {
  Align(4);
  const uint32_t rel = size() + 4 - target;
  Prepend(&rel, 4);
  fields_.push_back({slot, size()});
}

Builder::Offset Builder::EndTable() {
  Align(4);
  const int32_t placeholder = 0;
  Prepend(&placeholder, 4);
  const uint32_t table = size();
  int max_slot = -1;
  for (const auto& f : fields_) max_slot = std::max(max_slot, f.slot);
  std::vector<uint16_t> vt(static_cast<size_t>(max_slot + 1 + 2), 0);
  vt[0] = static_cast<uint16_t>(vt.size() * 2);
  vt[1] = static_cast<uint16_t>(table - table_start_);
  for (const auto& f : fields_) vt[static_cast<size_t>(f.slot) + 2] = static_cast<uint16_t>(table - f.pos);
  Prepend(vt.data(), vt.size() * 2);
  // The vtable sits before the table: soffset = table address - vtable address.
  const int32_t soffset = static_cast<int32_t>(size() - table);
  std::memcpy(buf_.data() + (buf_.size() - table), &soffset, 4);
  fields_.clear();
  return table;
}

std::vector<uint8_t> Builder::Finish(Offset root) {
  PreAlign(4, 8);
  const uint32_t rel = size() + 4 - root;
  Prepend(&rel, 4);
  return std::vector<uint8_t>(buf_.begin() + static_cast<std::ptrdiff_t>(head_), buf_.end());
}

}  // namespace quiver::ipc::fb
