#include "quiver/orc/writer/column_writer_internal.h"

#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <optional>

#include <fmt/format.h>

#include "quiver/columnar/value_text.h"
#include "quiver/orc/format.h"
#include "quiver/orc/writer/metadata_encode_internal.h"

namespace quiver::orc::writer {
namespace {

namespace sk = format::stream_kind;
namespace ek = format::encoding_kind;

// Calls f(start, length) for each run of valid rows among [offset, offset + length) of a
// bitmap (positions relative to offset).
template <typename F>
void ForEachValidRun(const uint8_t* validity, int64_t bit_offset, int64_t length, F&& f) {
  int64_t i = 0;
  while (i < length) {
    while (i < length && !bit_util::GetBit(validity, bit_offset + i)) ++i;
    const int64_t start = i;
    while (i < length && bit_util::GetBit(validity, bit_offset + i)) ++i;
    if (i > start) f(start, i - start);
  }
}

// Visits each valid row index in [0, length): all of them when `validity` is null.
template <typename F>
inline void ForEachValid(const uint8_t* validity, int64_t bit_offset, int64_t length, F&& f) {
  if (validity == nullptr) {
    for (int64_t i = 0; i < length; ++i) f(i);
  } else {
    for (int64_t i = 0; i < length; ++i) {
      if (bit_util::GetBit(validity, bit_offset + i)) f(i);
    }
  }
}

ColumnEncoding Encoding(uint32_t kind, uint32_t dictionary_size = 0) {
  ColumnEncoding e;
  e.kind = kind;
  e.dictionary_size = dictionary_size;
  return e;
}

// --- struct (and the root)

class StructWriter final : public ColumnWriter {
 public:
  StructWriter(const ColumnContext& ctx, std::string name, uint32_t id)
      : ColumnWriter(ctx, std::move(name), id, StatsAccumulator::kPlain) {}
  void AddChild(std::unique_ptr<ColumnWriter> c) { children_.push_back(std::move(c)); }

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
  void AddChild(std::unique_ptr<ColumnWriter> c) { children_.push_back(std::move(c)); }

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

// --- boolean, tinyint

class BooleanWriter final : public ColumnWriter {
 public:
  BooleanWriter(const ColumnContext& ctx, std::string name, uint32_t id)
      : ColumnWriter(ctx, std::move(name), id, StatsAccumulator::kBoolean), data_(NewStream(sk::kData)) {}

 protected:
  void AddValues(const ArrayData& a, int64_t offset, int64_t length, const uint8_t* validity) override {
    const uint8_t* bits = a.buffers[1]->data();
    const int64_t base = a.offset + offset;
    ForEachValid(validity, base, length, [&](int64_t i) {
      const bool v = bit_util::GetBit(bits, base + i);
      data_.Add(v);
      group_stats_.UpdateBoolean(v);
    });
  }
  void RecordPositions(std::vector<uint64_t>* p) override { data_.RecordPosition(p); }
  Result<ColumnEncoding> FinishData() override {
    data_.Flush();
    return Encoding(ek::kDirect);
  }

 private:
  BooleanRleEncoder data_;
};

class ByteWriter final : public ColumnWriter {
 public:
  ByteWriter(const ColumnContext& ctx, std::string name, uint32_t id)
      : ColumnWriter(ctx, std::move(name), id, StatsAccumulator::kInteger), data_(NewStream(sk::kData)) {}

 protected:
  void AddValues(const ArrayData& a, int64_t offset, int64_t length, const uint8_t* validity) override {
    const int8_t* v = a.values<int8_t>() + offset;
    ForEachValid(validity, a.offset + offset, length, [&](int64_t i) {
      data_.Add(static_cast<uint8_t>(v[i]));
      group_stats_.UpdateInteger(v[i]);
      if (bloom_) bloom_->AddLong(v[i]);
    });
  }
  void RecordPositions(std::vector<uint64_t>* p) override { data_.RecordPosition(p); }
  Result<ColumnEncoding> FinishData() override {
    data_.Flush();
    return Encoding(ek::kDirect);
  }

 private:
  ByteRleEncoder data_;
};

// --- integers and dates (signed RLE v2)

template <typename T, StatsAccumulator::Kind kKind>
class IntegerWriter final : public ColumnWriter {
 public:
  IntegerWriter(const ColumnContext& ctx, std::string name, uint32_t id)
      : ColumnWriter(ctx, std::move(name), id, kKind), data_(NewStream(sk::kData), true) {}

 protected:
  void AddValues(const ArrayData& a, int64_t offset, int64_t length, const uint8_t* validity) override {
    const T* v = a.values<T>() + offset;
    ForEachValid(validity, a.offset + offset, length, [&](int64_t i) {
      const auto x = static_cast<int64_t>(v[i]);
      data_.Add(x);
      if (bloom_) bloom_->AddLong(x);
      if constexpr (kKind == StatsAccumulator::kDate) {
        group_stats_.UpdateDate(static_cast<int32_t>(x));
      } else {
        group_stats_.UpdateInteger(x);
      }
    });
  }
  void RecordPositions(std::vector<uint64_t>* p) override { data_.RecordPosition(p); }
  Result<ColumnEncoding> FinishData() override {
    data_.Flush();
    return Encoding(ek::kDirectV2);
  }

 private:
  IntRleV2Encoder data_;
};

// --- float, double

template <typename In, typename Out>
class FloatingWriter final : public ColumnWriter {
 public:
  FloatingWriter(const ColumnContext& ctx, std::string name, uint32_t id)
      : ColumnWriter(ctx, std::move(name), id, StatsAccumulator::kDouble), data_(NewStream(sk::kData)) {}

 protected:
  void AddValues(const ArrayData& a, int64_t offset, int64_t length, const uint8_t* validity) override {
    const In* v = a.values<In>() + offset;
    if constexpr (std::is_same_v<In, Out>) {
      if (validity == nullptr) {  // little-endian IEEE values as they lie
        data_->Write(v, length * static_cast<int64_t>(sizeof(Out)));
        for (int64_t i = 0; i < length; ++i) group_stats_.UpdateDouble(static_cast<double>(v[i]));
        if (bloom_) {
          for (int64_t i = 0; i < length; ++i) bloom_->AddDouble(static_cast<double>(v[i]));
        }
        return;
      }
    }
    ForEachValid(validity, a.offset + offset, length, [&](int64_t i) {
      Out x;
      if constexpr (std::is_same_v<In, uint16_t>) {
        x = HalfToFloat(v[i]);
      } else {
        x = static_cast<Out>(v[i]);
      }
      data_->Write(&x, sizeof(Out));
      group_stats_.UpdateDouble(static_cast<double>(x));
      if (bloom_) bloom_->AddDouble(static_cast<double>(x));
    });
  }
  void RecordPositions(std::vector<uint64_t>* p) override { data_->RecordPosition(p); }
  Result<ColumnEncoding> FinishData() override { return Encoding(ek::kDirect); }

 private:
  OutStream* data_;
};

// --- decimal: zigzag base-128 varints of the unscaled value, and the scale per value

template <typename In>
class DecimalWriter final : public ColumnWriter {
 public:
  DecimalWriter(const ColumnContext& ctx, std::string name, uint32_t id, int32_t precision, int32_t scale)
      : ColumnWriter(ctx, std::move(name), id, StatsAccumulator::kDecimal, scale),
        precision_(precision),
        scale_(scale),
        limit_(PowerOfTen(precision) - 1),
        data_(NewStream(sk::kData)),
        scales_(NewStream(sk::kSecondary), true) {}

 protected:
  void AddValues(const ArrayData& a, int64_t offset, int64_t length, const uint8_t* validity) override {
    const In* v = a.values<In>() + offset;
    ForEachValid(validity, a.offset + offset, length, [&](int64_t i) {
      const auto x = static_cast<__int128>(v[i]);
      if (x > limit_ || x < -limit_) [[unlikely]] {
        if (!too_wide_) too_wide_ = x;
      }
      unsigned __int128 u = (static_cast<unsigned __int128>(x) << 1) ^ static_cast<unsigned __int128>(x >> 127);
      uint8_t buf[19];
      int n = 0;
      while (u >= 0x80) {
        buf[n++] = static_cast<uint8_t>(u | 0x80);
        u >>= 7;
      }
      buf[n++] = static_cast<uint8_t>(u);
      data_->Write(buf, n);
      scales_.Add(scale_);
      group_stats_.UpdateDecimal(x);
    });
  }
  void RecordPositions(std::vector<uint64_t>* p) override {
    data_->RecordPosition(p);
    scales_.RecordPosition(p);
  }
  Result<ColumnEncoding> FinishData() override {
    scales_.Flush();
    if (too_wide_) {
      // Readers would take the value modulo the precision's range (decimals up to 18 digits in 64 bits).
      std::string text;
      FormatDecimal(*too_wide_, scale_, &text);
      return Status::Invalid(fmt::format("column '{}': the value {} has more than the {} digits of its type decimal({}, {})",
                                         name_, text, precision_, precision_, scale_));
    }
    return Encoding(ek::kDirectV2);
  }

 private:
  static __int128 PowerOfTen(int32_t n) {
    __int128 p = 1;
    for (int32_t i = 0; i < n; ++i) p *= 10;
    return p;
  }
  int32_t precision_, scale_;
  __int128 limit_;
  std::optional<__int128> too_wide_;
  OutStream* data_;
  IntRleV2Encoder scales_;
};

// --- timestamps: seconds from 2015-01-01 UTC (signed RLE v2) and nanoseconds with their
// trailing decimal zeros folded into the low 3 bits (unsigned RLE v2)

constexpr int64_t kOrcEpochSeconds = 1420070400;  // 2015-01-01 00:00:00 UTC

inline uint64_t EncodeNanos(int64_t nanos) {
  if (nanos == 0) return 0;
  if (nanos % 100 != 0) return static_cast<uint64_t>(nanos) << 3;
  nanos /= 100;
  uint64_t zeros = 1;
  while (nanos % 10 == 0 && zeros < 7) {
    nanos /= 10;
    ++zeros;
  }
  return static_cast<uint64_t>(nanos) << 3 | zeros;
}

class TimestampWriter final : public ColumnWriter {
 public:
  TimestampWriter(const ColumnContext& ctx, std::string name, uint32_t id, TimeUnit unit)
      : ColumnWriter(ctx, std::move(name), id, StatsAccumulator::kTimestamp),
        per_second_(unit == TimeUnit::kSecond ? 1 : unit == TimeUnit::kMilli ? 1000 : unit == TimeUnit::kMicro ? 1000000 : 1000000000),
        seconds_(NewStream(sk::kData), true),
        nanos_(NewStream(sk::kSecondary), false) {}

 protected:
  void AddValues(const ArrayData& a, int64_t offset, int64_t length, const uint8_t* validity) override {
    const int64_t* v = a.values<int64_t>() + offset;
    const int64_t nanos_per_unit = 1000000000 / per_second_;
    ForEachValid(validity, a.offset + offset, length, [&](int64_t i) {
      int64_t secs = v[i] / per_second_, sub = v[i] % per_second_;
      if (sub < 0) sub += per_second_, --secs;
      const int64_t nanos = sub * nanos_per_unit;
      group_stats_.UpdateTimestamp(static_cast<__int128>(secs) * 1000000000 + nanos);
      // Readers take a negative second with more than a millisecond of nanoseconds as one too
      // many (Java's truncating writers), so such a second is written one up.
      if (secs < 0 && nanos > 999999) ++secs;
      seconds_.Add(secs - kOrcEpochSeconds);
      nanos_.Add(static_cast<int64_t>(EncodeNanos(nanos)));
    });
  }
  void RecordPositions(std::vector<uint64_t>* p) override {
    seconds_.RecordPosition(p);
    nanos_.RecordPosition(p);
  }
  Result<ColumnEncoding> FinishData() override {
    seconds_.Flush();
    nanos_.Flush();
    return Encoding(ek::kDirectV2);
  }

 private:
  int64_t per_second_;
  IntRleV2Encoder seconds_, nanos_;
};

// --- strings and binary: a stripe dictionary (DICTIONARY_V2) while the distinct values stay
// few, else the bytes and their lengths (DIRECT_V2)

class StringWriter final : public ColumnWriter {
 public:
  StringWriter(const ColumnContext& ctx, std::string name, uint32_t id, bool is_string, int32_t fixed_width)
      : ColumnWriter(ctx, std::move(name), id, is_string ? StatsAccumulator::kString : StatsAccumulator::kBinary),
        is_string_(is_string),
        fixed_width_(fixed_width),
        data_(NewStream(sk::kData)),
        lengths_out_(NewStream(sk::kLength)),
        dictionary_out_(NewStream(sk::kDictionaryData)),
        lengths_(lengths_out_, false),
        indices_rle_(data_, false),
        direct_(!is_string || ctx.dictionary_key_ratio <= 0) {}

 protected:
  void AddValues(const ArrayData& a, int64_t offset, int64_t length, const uint8_t* validity) override {
    const char* bytes;
    const int32_t* offs = nullptr;
    if (fixed_width_ > 0) {
      bytes = reinterpret_cast<const char*>(a.buffers[1]->data()) + (a.offset + offset) * fixed_width_;
    } else {
      offs = a.values<int32_t>(1) + offset;
      bytes = reinterpret_cast<const char*>(a.buffers[2]->data());
    }
    auto view = [&](int64_t i) {
      return offs != nullptr ? std::string_view(bytes + offs[i], static_cast<size_t>(offs[i + 1] - offs[i]))
                             : std::string_view(bytes + i * fixed_width_, static_cast<size_t>(fixed_width_));
    };
    if (direct_) {
      ForEachValid(validity, a.offset + offset, length, [&](int64_t i) {
        const std::string_view s = view(i);
        data_->Write(s.data(), static_cast<int64_t>(s.size()));
        lengths_.Add(static_cast<int64_t>(s.size()));
        if (is_string_) {
          group_stats_.UpdateString(s);
        } else {
          group_stats_.UpdateBinary(static_cast<int64_t>(s.size()));
        }
        if (bloom_) bloom_->AddBytes(s.data(), s.size());
      });
      return;
    }
    ForEachValid(validity, a.offset + offset, length, [&](int64_t i) {
      const std::string_view s = view(i);
      const uint32_t e = Insert(s);
      indices_.push_back(e);
      group_stats_.AddString(static_cast<int64_t>(s.size()));
      if (entries_[e].group != group_stamp_) {  // an entry's bounds and filter bits once a group
        entries_[e].group = group_stamp_;
        group_stats_.UpdateStringBounds(s);
        if (bloom_) bloom_->AddBytes(s.data(), s.size());
      }
    });
  }

  void RecordPositions(std::vector<uint64_t>* p) override {
    if (direct_) {
      data_->RecordPosition(p);
      lengths_.RecordPosition(p);
    } else {
      group_starts_.push_back(indices_.size());  // positions come when the encoding is settled
    }
  }

  Result<ColumnEncoding> FinishData() override {
    if (!direct_ && static_cast<double>(entries_.size()) > ctx_.dictionary_key_ratio * static_cast<double>(indices_.size())) {
      ToDirect();
    }
    if (direct_) {
      lengths_.Flush();
      return Encoding(ek::kDirectV2);
    }
    // Dictionary: the ids in DATA (positions per row group), entries' bytes and lengths.
    Replay([&](size_t g) { indices_rle_.RecordPosition(&data_positions_[g]); },
           [&](uint32_t id) { indices_rle_.Add(id); });
    indices_rle_.Flush();
    for (size_t e = 0; e < entries_.size(); ++e) {
      const std::string_view s = Entry(static_cast<uint32_t>(e));
      dictionary_out_->Write(s.data(), static_cast<int64_t>(s.size()));
      lengths_.Add(static_cast<int64_t>(s.size()));
    }
    lengths_.Flush();
    return Encoding(ek::kDictionaryV2, static_cast<uint32_t>(entries_.size()));
  }

  void ResetStripe() override {
    // A column that went direct in a stripe starts direct in the next three, then tries again.
    if (is_string_ && ctx_.dictionary_key_ratio > 0) {
      if (fell_back_) {
        direct_stripes_ = 3;
      } else if (direct_stripes_ > 0) {
        --direct_stripes_;
      }
      direct_ = direct_stripes_ > 0;
    }
    fell_back_ = false;
    indices_.clear();
    group_starts_.clear();
    entries_.clear();
    dict_bytes_.clear();
    std::fill(slots_.begin(), slots_.end(), 0u);
  }

  // After the first row group: a column whose values are mostly distinct goes direct at once.
  void RowGroupEnded(int groups) override {
    ++group_stamp_;
    if (groups == 1 && !direct_ && indices_.size() > 0 &&
        static_cast<double>(entries_.size()) > ctx_.dictionary_key_ratio * static_cast<double>(indices_.size())) {
      ToDirect();
    }
  }

 private:
  std::string_view Entry(uint32_t e) const {
    return std::string_view(dict_bytes_.data() + entries_[e].offset, entries_[e].length);
  }

  // The entry of `s`, added when new. Values of up to 8 bytes hash and compare as one word.
  uint32_t Insert(std::string_view s) {
    if (entries_.size() * 2 >= slots_.size()) Grow();
    const bool short_value = s.size() <= 8;
    const uint64_t word = short_value ? bit_util::LoadPartialWord(reinterpret_cast<const uint8_t*>(s.data()),
                                                                  static_cast<int64_t>(s.size()))
                                      : 0;
    const uint64_t h = short_value ? (word ^ (s.size() << 59)) * 0x9E3779B97F4A7C15ULL ^ (word >> 29)
                                   : XXH3_64bits(s.data(), s.size());
    const uint32_t tag = static_cast<uint32_t>(h >> 32);
    size_t mask = slots_.size() - 1, i = static_cast<size_t>(h) & mask;
    for (;;) {
      const uint32_t slot = slots_[i];
      if (slot == 0) break;
      const Item& it = entries_[slot - 1];
      if (it.tag == tag && it.length == s.size() &&
          (short_value ? it.word == word : std::memcmp(dict_bytes_.data() + it.offset, s.data(), s.size()) == 0)) {
        return slot - 1;
      }
      i = (i + 1) & mask;
    }
    const auto e = static_cast<uint32_t>(entries_.size());
    entries_.push_back(Item{dict_bytes_.size(), word, static_cast<uint32_t>(s.size()), tag, static_cast<uint32_t>(h), 0});
    dict_bytes_.append(s);
    slots_[i] = e + 1;
    return e;
  }

  void Grow() {
    std::vector<uint32_t> slots(std::max<size_t>(1024, slots_.size() * 2), 0u);
    const size_t mask = slots.size() - 1;
    for (size_t e = 0; e < entries_.size(); ++e) {
      size_t i = entries_[e].low & mask;
      while (slots[i] != 0) i = (i + 1) & mask;
      slots[i] = static_cast<uint32_t>(e + 1);
    }
    slots_.swap(slots);
  }

  // The buffered values' ids in order, each row group's positions taken where it starts.
  template <typename P, typename V>
  void Replay(P&& positions, V&& value) {
    size_t g = 0;
    for (size_t i = 0; i < indices_.size(); ++i) {
      for (; g < group_starts_.size() && group_starts_[g] == i; ++g) positions(g);
      value(indices_[i]);
    }
    for (; g < group_starts_.size(); ++g) positions(g);
  }

  // Replays the buffered values as direct streams.
  void ToDirect() {
    Replay(
        [&](size_t g) {
          data_->RecordPosition(&data_positions_[g]);
          lengths_.RecordPosition(&data_positions_[g]);
        },
        [&](uint32_t id) {
          const std::string_view s = Entry(id);
          data_->Write(s.data(), static_cast<int64_t>(s.size()));
          lengths_.Add(static_cast<int64_t>(s.size()));
        });
    direct_ = true;
    fell_back_ = true;
    indices_.clear();
    group_starts_.clear();
  }

  struct Item {
    size_t offset;
    uint64_t word;  // the value's bytes when at most 8
    uint32_t length, tag, low;
    uint32_t group;  // the last row group (+1) whose bounds took this entry
  };
  bool is_string_;
  int32_t fixed_width_;
  OutStream *data_, *lengths_out_, *dictionary_out_;
  IntRleV2Encoder lengths_, indices_rle_;
  bool direct_;
  bool fell_back_ = false;
  int direct_stripes_ = 0;
  uint32_t group_stamp_ = 1;
  std::vector<uint32_t> indices_;       // per non-null value of the stripe, while a dictionary
  std::vector<size_t> group_starts_;    // value count at each row group's start
  std::vector<Item> entries_;
  std::string dict_bytes_;
  std::vector<uint32_t> slots_;         // entry + 1, 0 empty
};

}  // namespace

// --- the base

ColumnWriter::ColumnWriter(const ColumnContext& ctx, std::string name, uint32_t id, StatsAccumulator::Kind kind,
                           int32_t scale)
    : ctx_(ctx),
      name_(std::move(name)),
      id_(id),
      group_stats_(kind, scale),
      stripe_stats_(kind, scale),
      file_stats_(kind, scale),
      present_stream_(ctx.compression, ctx.compression_level, ctx.block_size, ctx.pool),
      present_(&present_stream_) {}

ColumnWriter::~ColumnWriter() = default;

OutStream* ColumnWriter::NewStream(uint32_t kind) {
  streams_.push_back(
      StreamSlot{kind, std::make_unique<OutStream>(ctx_.compression, ctx_.compression_level, ctx_.block_size, ctx_.pool)});
  return streams_.back().out.get();
}

void ColumnWriter::Add(const ArrayData& a, int64_t offset, int64_t length) {
  if (length == 0) return;
  const uint8_t* validity = a.validity();
  int64_t nulls = 0;
  if (validity != nullptr) nulls = length - bit_util::CountSetBits(validity, a.offset + offset, length);
  if (nulls > 0) {
    present_.AddBitmap(validity, a.offset + offset, length);
    stripe_has_nulls_ = true;
    group_stats_.AddNulls(nulls);
  } else {
    present_.AddRepeated(true, length);
    validity = nullptr;
  }
  if (group_stats_.kind() == StatsAccumulator::kPlain) group_stats_.AddCount(length - nulls);
  if (nulls < length) AddValues(a, offset, length, validity);
}

void ColumnWriter::BeginRowGroup() {
  if (ctx_.row_index) {
    present_positions_.emplace_back();
    present_.RecordPosition(&present_positions_.back());
    data_positions_.emplace_back();
    RecordPositions(&data_positions_.back());
  }
  for (auto& c : children_) c->BeginRowGroup();
}

void ColumnWriter::EndRowGroup() {
  if (ctx_.row_index) group_statistics_.push_back(group_stats_.ToStatistics());
  if (bloom_) {
    bloom_groups_.push_back(bloom_->Bytes());
    bloom_->Clear();
  }
  stripe_stats_.Merge(group_stats_);
  group_stats_.Reset();
  for (auto& c : children_) c->EndRowGroup();
  RowGroupEnded(++groups_);
}

Status ColumnWriter::FinishStripe(StripeParts* parts) {
  QUIVER_ASSIGN_OR_RETURN(ColumnEncoding encoding, FinishData());
  present_.Flush();
  QUIVER_RETURN_NOT_OK(present_stream_.Flush());
  for (auto& s : streams_) {
    QUIVER_RETURN_NOT_OK(s.out->Flush().WithContext(fmt::format("column '{}'", name_)));
  }
  if (ctx_.row_index) {
    RowIndex index;
    index.entry.resize(group_statistics_.size());
    for (size_t g = 0; g < index.entry.size(); ++g) {
      RowIndexEntry& e = index.entry[g];
      if (stripe_has_nulls_) e.positions = present_positions_[g];
      e.positions.insert(e.positions.end(), data_positions_[g].begin(), data_positions_[g].end());
      e.statistics = std::move(group_statistics_[g]);
    }
    std::string raw;
    EncodeRowIndex(index, &raw);
    OutStream out(ctx_.compression, ctx_.compression_level, ctx_.block_size, ctx_.pool);
    out.Write(raw.data(), static_cast<int64_t>(raw.size()));
    QUIVER_RETURN_NOT_OK(out.Flush());
    Stream st;
    st.kind = sk::kRowIndex;
    st.column = id_;
    st.length = static_cast<uint64_t>(out.size());
    parts->index.emplace_back(st, std::string(reinterpret_cast<const char*>(out.data()), static_cast<size_t>(out.size())));
  }
  if (bloom_) {
    BloomFilterIndex blooms;
    for (std::string& bits : bloom_groups_) {
      BloomFilter& f = blooms.bloom_filter.emplace_back();
      f.num_hash_functions = bloom_->num_hash_functions();
      f.utf8bitset = std::move(bits);
    }
    std::string raw;
    EncodeBloomFilterIndex(blooms, &raw);
    OutStream out(ctx_.compression, ctx_.compression_level, ctx_.block_size, ctx_.pool);
    out.Write(raw.data(), static_cast<int64_t>(raw.size()));
    QUIVER_RETURN_NOT_OK(out.Flush());
    Stream st;
    st.kind = sk::kBloomFilterUtf8;
    st.column = id_;
    st.length = static_cast<uint64_t>(out.size());
    parts->index.emplace_back(st, std::string(reinterpret_cast<const char*>(out.data()), static_cast<size_t>(out.size())));
    encoding.bloom_encoding = format::kBloomUtf8;
  }
  auto add = [&](uint32_t kind, const OutStream* s) {
    Stream st;
    st.kind = kind;
    st.column = id_;
    st.length = static_cast<uint64_t>(s->size());
    parts->data.push_back(StripeParts::Data{st, s});
  };
  if (stripe_has_nulls_) add(sk::kPresent, &present_stream_);
  for (auto& s : streams_) {
    if (s.kind == sk::kDictionaryData && encoding.kind != ek::kDictionaryV2) continue;
    add(s.kind, s.out.get());  // even empty: readers ask for every stream of the encoding
  }
  parts->encodings.push_back(encoding);
  parts->statistics.push_back(stripe_stats_.ToStatistics());
  file_stats_.Merge(stripe_stats_);
  for (auto& c : children_) QUIVER_RETURN_NOT_OK(c->FinishStripe(parts));
  return Status::OK();
}

void ColumnWriter::FileStatistics(std::vector<ColumnStatistics>* out) const {
  out->push_back(file_stats_.ToStatistics());
  for (const auto& c : children_) c->FileStatistics(out);
}

void ColumnWriter::StartStripe() {
  present_stream_.Reset();
  for (auto& s : streams_) s.out->Reset();
  present_positions_.clear();
  data_positions_.clear();
  group_statistics_.clear();
  bloom_groups_.clear();
  if (bloom_) bloom_->Clear();
  stripe_stats_.Reset();
  group_stats_.Reset();
  stripe_has_nulls_ = false;
  groups_ = 0;
  ResetStripe();
  for (auto& c : children_) c->StartStripe();
}

namespace {

Status NoOrcType(const std::string& name, const TypePtr& type) {
  return Status::NotImplemented(fmt::format(
      "column '{}': ORC has no type for {} (no time-of-day type); cast it or leave the column out", name, type->ToString()));
}

}  // namespace

Result<std::unique_ptr<ColumnWriter>> ColumnWriter::Make(const ColumnContext& ctx, const std::string& name,
                                                         const TypePtr& type, uint32_t* next_id,
                                                         const std::vector<std::string>& bloom_columns) {
  const uint32_t id = (*next_id)++;
  using K = StatsAccumulator;
  std::unique_ptr<ColumnWriter> w;
  switch (type->id()) {
    case TypeId::kBool: w = std::make_unique<BooleanWriter>(ctx, name, id); break;
    case TypeId::kInt8: w = std::make_unique<ByteWriter>(ctx, name, id); break;
    case TypeId::kInt16: w = std::make_unique<IntegerWriter<int16_t, K::kInteger>>(ctx, name, id); break;
    case TypeId::kInt32: w = std::make_unique<IntegerWriter<int32_t, K::kInteger>>(ctx, name, id); break;
    case TypeId::kInt64: w = std::make_unique<IntegerWriter<int64_t, K::kInteger>>(ctx, name, id); break;
    case TypeId::kUInt8: w = std::make_unique<IntegerWriter<uint8_t, K::kInteger>>(ctx, name, id); break;
    case TypeId::kUInt16: w = std::make_unique<IntegerWriter<uint16_t, K::kInteger>>(ctx, name, id); break;
    case TypeId::kUInt32: w = std::make_unique<IntegerWriter<uint32_t, K::kInteger>>(ctx, name, id); break;
    case TypeId::kUInt64: w = std::make_unique<DecimalWriter<uint64_t>>(ctx, name, id, 20, 0); break;
    case TypeId::kFloat16: w = std::make_unique<FloatingWriter<uint16_t, float>>(ctx, name, id); break;
    case TypeId::kFloat32: w = std::make_unique<FloatingWriter<float, float>>(ctx, name, id); break;
    case TypeId::kFloat64: w = std::make_unique<FloatingWriter<double, double>>(ctx, name, id); break;
    case TypeId::kDecimal128: w = std::make_unique<DecimalWriter<__int128>>(ctx, name, id, type->precision(), type->scale()); break;
    case TypeId::kDate32: w = std::make_unique<IntegerWriter<int32_t, K::kDate>>(ctx, name, id); break;
    case TypeId::kTimestamp: w = std::make_unique<TimestampWriter>(ctx, name, id, type->unit()); break;
    case TypeId::kString: w = std::make_unique<StringWriter>(ctx, name, id, true, 0); break;
    case TypeId::kBinary: w = std::make_unique<StringWriter>(ctx, name, id, false, 0); break;
    case TypeId::kFixedSizeBinary: w = std::make_unique<StringWriter>(ctx, name, id, false, type->fixed_size()); break;
    case TypeId::kTime32:
    case TypeId::kTime64: return NoOrcType(name, type);
    case TypeId::kStruct: {
      auto s = std::make_unique<StructWriter>(ctx, name, id);
      for (const Field& f : type->fields()) {
        QUIVER_ASSIGN_OR_RETURN(auto c, Make(ctx, name.empty() ? f.name : name + "." + f.name, f.type, next_id, bloom_columns));
        s->AddChild(std::move(c));
      }
      w = std::move(s);
      break;
    }
    case TypeId::kList: {
      auto l = std::make_unique<ListWriter>(ctx, name, id, false);
      QUIVER_ASSIGN_OR_RETURN(auto c, Make(ctx, name + "." + type->field(0).name, type->field(0).type, next_id, bloom_columns));
      l->AddChild(std::move(c));
      w = std::move(l);
      break;
    }
    case TypeId::kMap: {
      auto m = std::make_unique<ListWriter>(ctx, name, id, true);
      const TypePtr& entries = type->field(0).type;
      for (const Field& f : entries->fields()) {
        QUIVER_ASSIGN_OR_RETURN(auto c, Make(ctx, name + "." + f.name, f.type, next_id, bloom_columns));
        m->AddChild(std::move(c));
      }
      w = std::move(m);
      break;
    }
  }
  if (std::find(bloom_columns.begin(), bloom_columns.end(), name) != bloom_columns.end()) {
    switch (type->id()) {
      case TypeId::kInt8: case TypeId::kInt16: case TypeId::kInt32: case TypeId::kInt64:
      case TypeId::kUInt8: case TypeId::kUInt16: case TypeId::kUInt32: case TypeId::kDate32:
      case TypeId::kFloat16: case TypeId::kFloat32: case TypeId::kFloat64:
      case TypeId::kString: case TypeId::kBinary: case TypeId::kFixedSizeBinary:
        w->bloom_ = std::make_unique<OrcBloomFilter>(ctx.row_index_stride, ctx.bloom_fpp);
        break;
      default:
        return Status::Invalid(fmt::format(
            "bloom filter for column '{}': quiver writes ORC bloom filters for integers, dates, floats, strings and "
            "binary, not {}", name, type->ToString()));
    }
  }
  return w;
}

Status ColumnWriter::AppendTypes(const std::string& name, const TypePtr& type, std::vector<Type>* types) {
  namespace tk = format::type_kind;
  const size_t at = types->size();
  types->emplace_back();
  auto kind = [&](uint32_t k) { (*types)[at].kind = k; };
  auto child = [&](const std::string& n, const TypePtr& t) -> Status {
    (*types)[at].subtypes.push_back(static_cast<uint32_t>(types->size()));
    return AppendTypes(name + "." + n, t, types);
  };
  switch (type->id()) {
    case TypeId::kBool: kind(tk::kBoolean); break;
    case TypeId::kInt8: kind(tk::kByte); break;
    case TypeId::kInt16:
    case TypeId::kUInt8: kind(tk::kShort); break;
    case TypeId::kInt32:
    case TypeId::kUInt16: kind(tk::kInt); break;
    case TypeId::kInt64:
    case TypeId::kUInt32: kind(tk::kLong); break;
    case TypeId::kUInt64:
      kind(tk::kDecimal);
      (*types)[at].precision = 20;
      (*types)[at].scale = 0;
      break;
    case TypeId::kFloat16:
    case TypeId::kFloat32: kind(tk::kFloat); break;
    case TypeId::kFloat64: kind(tk::kDouble); break;
    case TypeId::kDecimal128:
      kind(tk::kDecimal);
      (*types)[at].precision = static_cast<uint32_t>(type->precision());
      (*types)[at].scale = static_cast<uint32_t>(type->scale());
      break;
    case TypeId::kDate32: kind(tk::kDate); break;
    case TypeId::kTimestamp: kind(type->timezone().empty() ? tk::kTimestamp : tk::kTimestampInstant); break;
    case TypeId::kString: kind(tk::kString); break;
    case TypeId::kBinary:
    case TypeId::kFixedSizeBinary: kind(tk::kBinary); break;
    case TypeId::kTime32:
    case TypeId::kTime64: return NoOrcType(name, type);
    case TypeId::kStruct:
      kind(tk::kStruct);
      for (const Field& f : type->fields()) {
        (*types)[at].field_names.push_back(f.name);
        QUIVER_RETURN_NOT_OK(child(f.name, f.type));
      }
      break;
    case TypeId::kList:
      kind(tk::kList);
      QUIVER_RETURN_NOT_OK(child(type->field(0).name, type->field(0).type));
      break;
    case TypeId::kMap:
      kind(tk::kMap);
      QUIVER_RETURN_NOT_OK(child(type->field(0).type->field(0).name, type->field(0).type->field(0).type));
      QUIVER_RETURN_NOT_OK(child(type->field(0).type->field(1).name, type->field(0).type->field(1).type));
      break;
  }
  return Status::OK();
}

}  // namespace quiver::orc::writer
