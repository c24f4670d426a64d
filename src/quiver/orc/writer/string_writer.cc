// The ORC writer of STRING and BINARY columns (typed_writers_internal.h): a stripe dictionary
// (DICTIONARY_V2) while the distinct values stay few, else the bytes and their lengths
// (DIRECT_V2).
#include <xxhash.h>

#include <algorithm>
#include <cstring>

#include "quiver/orc/format.h"
#include "quiver/orc/writer/typed_writers_internal.h"

namespace quiver::orc::writer {
namespace {

namespace sk = format::stream_kind;
namespace ek = format::encoding_kind;


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

std::unique_ptr<ColumnWriter> MakeStringWriter(const ColumnContext& ctx, const std::string& name, uint32_t id,
                                               bool is_string, int32_t fixed_width) {
  return std::make_unique<StringWriter>(ctx, name, id, is_string, fixed_width);
}

}  // namespace quiver::orc::writer
