// ORC STRUCT, LIST, MAP and UNION writers (typed_writers_internal.h): each passes its
// children only the rows under its non-null entries.
#include <array>

#include "quiver/orc/format.h"
#include "quiver/orc/writer/typed_writers_internal.h"

namespace quiver::orc::writer {
namespace {

namespace sk = format::stream_kind;
namespace ek = format::encoding_kind;

// --- struct (and the root)

class StructWriter final : public ColumnWriter {
 public:
  StructWriter(const ColumnContext& ctx, std::string name, uint32_t id)
      : ColumnWriter(ctx, std::move(name), id, StatsAccumulator::kPlain) {}

 protected:
  void AddValues(const ArrayData& a, int64_t offset, int64_t length, const uint8_t* validity) override {
    for (size_t c = 0; c < children_.size(); ++c) {
      const ArrayData& child = *a.children[c];
      const int64_t base = a.offset + offset;  // struct children share the parent's offset
      if (validity == nullptr) {
        children_[c]->Add(child, base, length);
      } else {
        ForEachValidRun(validity, base, length, [&](int64_t s, int64_t n) { children_[c]->Add(child, base + s, n); });
      }
    }
  }
  void RecordPositions(std::vector<uint64_t>*) override {}
  Result<ColumnEncoding> FinishData() override { return Encoding(ek::kDirect); }
};

// --- list and map

class ListWriter final : public ColumnWriter {
 public:
  ListWriter(const ColumnContext& ctx, std::string name, uint32_t id, bool is_map)
      : ColumnWriter(ctx, std::move(name), id, StatsAccumulator::kCollection),
        is_map_(is_map),
        lengths_(NewStream(sk::kLength), false) {}

 protected:
  void AddValues(const ArrayData& a, int64_t offset, int64_t length, const uint8_t* validity) override {
    const int32_t* offs = a.values<int32_t>(1) + offset;
    const ArrayData& values = *a.children[0];
    auto add_children = [&](int64_t s, int64_t n) {
      const int64_t from = offs[s], count = offs[s + n] - offs[s];
      if (count == 0) return;
      if (is_map_) {  // the entries struct's key and value, under its own offset
        children_[0]->Add(*values.children[0], values.offset + from, count);
        children_[1]->Add(*values.children[1], values.offset + from, count);
      } else {
        children_[0]->Add(values, from, count);
      }
    };
    ForEachValid(validity, a.offset + offset, length, [&](int64_t i) {
      const int64_t n = offs[i + 1] - offs[i];
      lengths_.Add(n);
      group_stats_.UpdateCollection(n);
    });
    if (validity == nullptr) {
      add_children(0, length);
    } else {
      ForEachValidRun(validity, a.offset + offset, length, add_children);
    }
  }
  void RecordPositions(std::vector<uint64_t>* p) override { lengths_.RecordPosition(p); }
  Result<ColumnEncoding> FinishData() override {
    lengths_.Flush();
    return Encoding(ek::kDirectV2);
  }

 private:
  bool is_map_;
  IntRleV2Encoder lengths_;
};

// --- union: the member index of each non-null row (byte RLE, the tags), and each member the
// rows that chose it, in order. A null member entry of a non-null row is a null of the member.

class UnionWriter final : public ColumnWriter {
 public:
  UnionWriter(const ColumnContext& ctx, std::string name, uint32_t id, const DataType& type)
      : ColumnWriter(ctx, std::move(name), id, StatsAccumulator::kPlain), tags_(NewStream(sk::kData)) {
    member_of_code_.fill(0);
    for (size_t m = 0; m < type.type_codes().size(); ++m) {
      member_of_code_[static_cast<size_t>(type.type_codes()[m])] = static_cast<uint8_t>(m);
    }
  }

 protected:
  void AddValues(const ArrayData& a, int64_t offset, int64_t length, const uint8_t* validity) override {
    const int8_t* codes = a.values<int8_t>(1) + offset;
    const int32_t* offs = a.values<int32_t>(2) + offset;
    // Consecutive entries of one member go to its writer as one run.
    int member = -1;
    int64_t run_start = 0, run_length = 0;
    auto flush = [&] {
      if (run_length > 0) children_[static_cast<size_t>(member)]->Add(*a.children[static_cast<size_t>(member)], run_start, run_length);
      run_length = 0;
    };
    ForEachValid(validity, a.offset + offset, length, [&](int64_t i) {
      const uint8_t m = member_of_code_[static_cast<uint8_t>(codes[i]) & 127];
      tags_.Add(m);
      if (m == member && offs[i] == run_start + run_length) {
        ++run_length;
      } else {
        flush();
        member = m;
        run_start = offs[i];
        run_length = 1;
      }
    });
    flush();
  }
  void RecordPositions(std::vector<uint64_t>* p) override { tags_.RecordPosition(p); }
  Result<ColumnEncoding> FinishData() override {
    tags_.Flush();
    return Encoding(ek::kDirect);
  }

 private:
  std::array<uint8_t, 128> member_of_code_;
  ByteRleEncoder tags_;
};

}  // namespace

std::unique_ptr<ColumnWriter> MakeStructWriter(const ColumnContext& ctx, const std::string& name, uint32_t id) {
  return std::make_unique<StructWriter>(ctx, name, id);
}

std::unique_ptr<ColumnWriter> MakeListWriter(const ColumnContext& ctx, const std::string& name, uint32_t id, bool is_map) {
  return std::make_unique<ListWriter>(ctx, name, id, is_map);
}

std::unique_ptr<ColumnWriter> MakeUnionWriter(const ColumnContext& ctx, const std::string& name, uint32_t id,
                                              const DataType& type) {
  return std::make_unique<UnionWriter>(ctx, name, id, type);
}

}  // namespace quiver::orc::writer
