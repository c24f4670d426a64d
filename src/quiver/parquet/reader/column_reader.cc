#include "quiver/parquet/reader/column_reader_internal.h"

#include "quiver/parquet/reader/assemble_internal.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <vector>

#include "quiver/core/bit_util.h"
#include "quiver/parquet/encoding/byte_stream_split_internal.h"
#include "quiver/parquet/encoding/delta_binary_packed_internal.h"
#include "quiver/parquet/encoding/delta_byte_array_internal.h"
#include "quiver/parquet/encoding/delta_length_byte_array_internal.h"
#include "quiver/parquet/encoding/dictionary_internal.h"
#include "quiver/parquet/encoding/plain_internal.h"
#include "quiver/parquet/encoding/rle_bitpacked_internal.h"
#include "quiver/parquet/reader/gather_kept_internal.h"
#include "quiver/parquet/reader/predicate.h"
#include "quiver/parquet/reader/select_bits_internal.h"

namespace quiver::parquet::reader {
namespace {

namespace enc = quiver::parquet::encoding;

int BitWidthOf(int64_t max_value) {
  int w = 0;
  while ((int64_t{1} << w) <= max_value) ++w;
  return w;
}

std::string EncName(Encoding e) {
  const char* n = EncodingName(e);
  return n ? std::string(n) : fmt::format("encoding {}", static_cast<int32_t>(e));
}

// Indices of dictionary-encoded string pages waiting to be gathered. Per thread, not per
// decoder: a decoder lives for one column chunk, and a fresh vector per chunk is fresh memory
// each time. A decoder gathers what it put here before its chunk's decode returns, and chunks
// do not interleave on a thread.
std::vector<int32_t>& PendingIndices() {
  thread_local std::vector<int32_t> indices;
  return indices;
}
// Past this many waiting indices (16 MiB of them) a chunk's strings are gathered in more than
// one step; below it, in one.
constexpr int64_t kMaxPendingIndices = int64_t{1} << 22;

// 64 bits of `bits` (`nbytes` long) from bit `pos` on, LSB first; bits past the end read 0.
inline uint64_t BitsAt(const uint8_t* bits, int64_t nbytes, int64_t pos) {
  const int64_t byte = pos >> 3;
  const int shift = static_cast<int>(pos & 7);
  uint64_t w = 0;
  if (byte + 8 <= nbytes) {
    std::memcpy(&w, bits + byte, 8);
  } else if (byte < nbytes) {
    w = bit_util::LoadPartialWord(bits + byte, nbytes - byte);
  }
  if (shift != 0) {
    const uint64_t next = byte + 8 < nbytes ? bits[byte + 8] : 0;
    w = (w >> shift) | (next << (64 - shift));
  }
  return w;
}

// The values `src(i)` (W bytes each) of the rows i in [0, n) whose bit `first + i` of `keep`
// is set, written one after another to `out` (room for n values); how many. 64 rows a step:
// a whole step kept whole or mostly goes to `step(i, w, out)` (a GatherKeptKernels kernel for
// rows i..i + 63, bits w; how many it wrote), a sparse one visits its set bits only, the
// page's last, partial step copies every row and advances by its bit (no branch per row).
template <int W, typename Src, typename Step>
int64_t GatherKept(const uint8_t* keep, int64_t keep_bytes, int64_t first, int64_t n, Src src, Step step,
                   uint8_t* out) {
  int64_t j = 0;
  for (int64_t i = 0; i < n; i += 64) {
    uint64_t w = BitsAt(keep, keep_bytes, first + i);
    const int64_t m = std::min<int64_t>(64, n - i);
    if (m < 64) w &= (uint64_t{1} << m) - 1;
    if (m == 64 && std::popcount(w) >= 40) {
      j += step(i, w, out + j * W);
    } else if (w == ~uint64_t{0}) {
      for (int64_t k = 0; k < 64; ++k) std::memcpy(out + (j + k) * W, src(i + k), W);
      j += 64;
    } else if (std::popcount(w) >= 40) {
      for (int64_t k = 0; k < m; ++k) {
        std::memcpy(out + j * W, src(i + k), W);
        j += static_cast<int64_t>((w >> k) & 1);
      }
    } else {
      while (w != 0) {
        std::memcpy(out + j * W, src(i + std::countr_zero(w)), W);
        ++j;
        w &= w - 1;
      }
    }
  }
  return j;
}

// Accumulates a chunk's non-null values in their physical form and its validity bits.
class FlatDecoder {
 public:
  // `keep_levels`: retain every level entry (nested leaves rebuild lists and structs from them).
  // `output`: the pool of the buffers that may become the array's own (values, offsets,
  // validity); the rest come from `pool`.
  FlatDecoder(const ColumnDescriptor& column, MemoryPool* pool, bool keep_levels = false, MemoryPool* output = nullptr)
      : col_(column),
        keep_levels_(keep_levels),
        physical_(column.physical_type),
        pool_(pool),
        values_(output ? output : pool),
        offsets_(output ? output : pool),
        validity_(output ? output : pool),
        dict_values_(pool),
        dict_offsets_(pool),
        delta_byte_array_(ActiveSimdLevel(), pool),
        delta_length_(ActiveSimdLevel(), pool) {
    switch (physical_) {
      case Type::INT32: case Type::FLOAT: width_ = 4; break;
      case Type::INT64: case Type::DOUBLE: width_ = 8; break;
      case Type::INT96: width_ = 12; break;
      case Type::FIXED_LEN_BYTE_ARRAY: width_ = column.type_length; break;
      default: width_ = 0; break;
    }
  }

  // The chunk's `n` level entries: fixed-width values (and BYTE_ARRAY offsets) get their final
  // size at once.
  Status Reserve(int64_t n) {
    if (width_ > 0) return values_.Reserve(n * width_);
    if (physical_ == Type::BYTE_ARRAY) return offsets_.Reserve((n + 1) * 4);
    return Status::OK();
  }

  // Only the rows whose bit is set in `keep` (over the chunk's rows, from bit 0) are kept:
  // each page's values are compacted as soon as they are decoded, so that rows() counts the
  // chunk's rows and non_null() the kept ones. Pages with nulls, and BOOLEAN columns, are
  // NotImplemented (the caller decodes such a chunk whole).
  // `rows`: the rows `keep` has bits for (the chunk's, by its metadata).
  void set_keep(const uint8_t* keep, int64_t rows) {
    keep_ = keep;
    keep_bytes_ = bit_util::BytesForBits(rows);
    rows_limit_ = rows;
  }
  // Select mode (SelectFlatColumnChunk): no values are kept; each data page ANDs into bit
  // `row` of `pass` (words with one of slack past the chunk's `rows`, select_bits_internal.h)
  // whether every predicate of `preds` holds for the row. Dictionary pages evaluate the predicates once per entry, PLAIN pages
  // of a type stored as it is read compare the page's own bytes; pages with nulls, and other
  // encodings and types, are NotImplemented (the caller decodes the chunk and evaluates it).
  void set_select(const TypePtr* type, std::span<const BoundPredicate* const> preds, uint64_t* pass, int64_t rows) {
    select_type_ = type;
    select_preds_ = preds;
    pass_ = pass;
    rows_limit_ = rows;
  }

  Status OnDictionary(const Page& page);
  Status OnData(const Page& page);
  // After the last page: gathers the dictionary strings still waiting (see pending_n_).
  Status Finish() { return FlushDictionaryStrings(); }

  int64_t rows() const { return rows_; }
  int64_t non_null() const { return non_null_; }
  int64_t null_count() const { return rows_ - non_null_; }
  int width() const { return width_; }
  BufferBuilder& values() { return values_; }
  BufferBuilder& offsets() { return offsets_; }
  BufferBuilder& validity() { return validity_; }
  DenseValues dense() { return {&values_, &offsets_, width_, non_null_}; }
  const std::vector<int16_t>& all_def_levels() const { return all_def_; }
  const std::vector<int16_t>& all_rep_levels() const { return all_rep_; }

 private:
  Status DecodeLevels(const Page& page, const uint8_t** values, int64_t* values_size, int64_t* present);
  Status DecodeValues(const Page& page, const uint8_t* data, int64_t size, int64_t n);
  Status AppendValidity(const int16_t* levels, int64_t n, int64_t* present);
  Status StartValidity(int64_t valid_rows);
  Status GrowValidity(int64_t rows);
  Status DefRunsToValidity(enc::RleBitPackedDecoder* rle, int64_t n, int64_t* present);
  Status DecodeDictionaryStrings(const uint8_t* data, int64_t size, int64_t n);
  // The page's `n` values just appended (fixed-width ones from byte `values_from`, or the
  // last n + 1 offsets) cut to the rows keep_ keeps; how many.
  int64_t CompactPage(int64_t values_from, int64_t n);
  Status FlushDictionaryStrings();
  Status DecodeDictionary(const Page& page, BufferBuilder* values, BufferBuilder* offsets);
  // The kept rows of a PLAIN or dictionary page of 4- or 8-byte values into `out`; how many.
  Result<int64_t> GatherKeptValues(const uint8_t* data, int64_t size, int64_t n, bool dict, uint8_t* out);
  Status SelectDictionary(const Page& page);
  Status SelectPage(const Page& page, const uint8_t* data, int64_t size, int64_t n);
  // A dictionary-coded page's n indices, each checked against the dictionary's size, at the
  // start of the thread's PendingIndices().
  Result<const int32_t*> PageIndices(const uint8_t* data, int64_t size, int64_t n);

  Status DecodeLevelRun(const Page& page, Encoding encoding, int16_t max_level, std::span<const uint8_t> v2_bytes,
                        const uint8_t** p, int64_t* left, int16_t* out, const char* what);

  const ColumnDescriptor& col_;
  bool keep_levels_ = false;
  std::vector<int16_t> all_def_;
  std::vector<int16_t> all_rep_;
  std::vector<int16_t> rep_;
  Type physical_;
  MemoryPool* pool_;
  int width_ = 0;
  int64_t rows_ = 0;
  int64_t non_null_ = 0;
  BufferBuilder values_;    // fixed-width values, BYTE_ARRAY bytes, or BOOLEAN bits
  BufferBuilder offsets_;   // BYTE_ARRAY only
  BufferBuilder validity_;  // one bit per row, kept only once a null shows up
  bool has_validity_ = false;
  bool has_dictionary_ = false;
  int64_t dict_size_ = 0;
  int32_t uniform_len_ = -1;  // BYTE_ARRAY: the length every dictionary entry has, -1 if they differ
  int short_width_ = 0;       // BYTE_ARRAY: 16 or 32 when no dictionary entry is longer, else 0
  BufferBuilder dict_values_;
  BufferBuilder dict_offsets_;
  // Dictionary-encoded BYTE_ARRAY pages: their checked indices wait in PendingIndices() until
  // the chunk ends (or a page of another encoding comes, or kMaxPendingIndices wait), then all
  // their entries are copied into a values buffer reserved once for exactly their bytes.
  // Growing the bytes page by page copied them at every step, and with a growth past
  // mimalloc's huge-object size (16 MiB) each step was fresh memory, page faults included.
  int64_t pending_n_ = 0;
  int64_t pending_bytes_ = 0;
  const uint8_t* keep_ = nullptr;
  int64_t keep_bytes_ = 0;
  // The rows keep_ or pass_ cover: a page past them is corrupt (its bits would lie outside).
  int64_t rows_limit_ = -1;
  const TypePtr* select_type_ = nullptr;
  std::span<const BoundPredicate* const> select_preds_;
  uint64_t* pass_ = nullptr;
  std::vector<int32_t> dict_pass_;  // select mode: each dictionary entry's answer, -1 passes, 0 not
  // select mode: a PLAIN page's values copied where they start at an address their width does
  // not divide (they follow the page's levels at any byte, and an Array's values are aligned)
  std::vector<uint64_t> aligned_values_;
  int64_t page_kept_ = -1;  // set by DecodeDictionaryStrings when it compacted the page itself
  std::vector<int16_t> levels_;
  enc::DictionaryDecoder dict_decoder_;
  enc::DeltaByteArrayDecoder delta_byte_array_;
  enc::DeltaLengthByteArrayDecoder delta_length_;
  enc::ByteStreamSplitDecoder bss_;
};

Status FlatDecoder::DecodeDictionary(const Page& page, BufferBuilder* values, BufferBuilder* offsets) {
  const int64_t n = page.num_values;
  if (physical_ == Type::BYTE_ARRAY) {
    enc::PlainByteArrayDecoder d;
    d.Reset(page.data.data(), static_cast<int64_t>(page.data.size()));
    QUIVER_RETURN_NOT_OK(offsets->AppendValue<int32_t>(0));
    QUIVER_RETURN_NOT_OK(d.Decode(n, offsets, values));
    // 32 readable bytes past the last entry let the gathers copy short values in fixed steps.
    QUIVER_RETURN_NOT_OK(values->Reserve(32));
    std::memset(values->mutable_data() + values->size(), 0, 32);
  } else if (width_ > 0) {
    enc::PlainFixedDecoder d;
    QUIVER_RETURN_NOT_OK(d.Reset(page.data.data(), static_cast<int64_t>(page.data.size()), width_));
    QUIVER_RETURN_NOT_OK(values->Reserve(n * width_));
    QUIVER_RETURN_NOT_OK(d.Decode(values->mutable_data(), n));
    values->UnsafeSetSize(n * width_);
  } else {
    return Status::NotImplemented("dictionary-encoded BOOLEAN columns");
  }
  return Status::OK();
}

Status FlatDecoder::OnDictionary(const Page& page) {
  if (has_dictionary_) return Status::Corrupt("a second dictionary page in the column chunk");
  if (page.encoding != Encoding::PLAIN && page.encoding != Encoding::PLAIN_DICTIONARY) {
    return Status::NotImplemented(fmt::format("dictionary page encoded as {}", EncName(page.encoding)));
  }
  if (pass_ != nullptr) {
    QUIVER_RETURN_NOT_OK(SelectDictionary(page));
  } else {
    QUIVER_RETURN_NOT_OK(DecodeDictionary(page, &dict_values_, &dict_offsets_));
    if (physical_ == Type::BYTE_ARRAY) {
      // Entries of one length (flags, codes) are gathered without reading their offsets, and
      // entries of up to 32 bytes are copied in one fixed width (the gathers read from
      // dict_values_ with 32 bytes readable past its end).
      const auto* off = reinterpret_cast<const int32_t*>(dict_offsets_.data());
      int32_t shortest = std::numeric_limits<int32_t>::max(), longest = 0;
      for (int64_t e = 0; e < page.num_values; ++e) {
        shortest = std::min(shortest, off[e + 1] - off[e]);
        longest = std::max(longest, off[e + 1] - off[e]);
      }
      uniform_len_ = page.num_values > 0 && shortest == longest ? longest : -1;
      short_width_ = longest <= 16 ? 16 : longest <= 32 ? 32 : 0;
    }
  }
  dict_size_ = page.num_values;
  has_dictionary_ = true;
  return Status::OK();
}

// The entries as an array of the column's type, each predicate evaluated over it once: the
// same comparisons, NaN and unsigned rules included, as on the decoded column.
Status FlatDecoder::SelectDictionary(const Page& page) {
  BufferBuilder values(pool_), offsets(pool_);
  QUIVER_RETURN_NOT_OK(DecodeDictionary(page, &values, &offsets));
  const int64_t n = page.num_values;
  QUIVER_ASSIGN_OR_RETURN(Array entries, Assemble({&values, &offsets, width_, n}, col_, *select_type_, pool_,
                                                  nullptr, n, 0));
  dict_pass_.assign(static_cast<size_t>(n), -1);
  for (const BoundPredicate* p : select_preds_) {
    int64_t selected = 0;
    QUIVER_ASSIGN_OR_RETURN(auto bits, EvaluatePredicate(entries, p->op, p->value, &selected, pool_));
    const uint8_t* b = bits->data();
    for (int64_t e = 0; e < n; ++e) dict_pass_[static_cast<size_t>(e)] &= -static_cast<int32_t>(bit_util::GetBit(b, e));
  }
  return Status::OK();
}

Result<const int32_t*> FlatDecoder::PageIndices(const uint8_t* data, int64_t size, int64_t n) {
  if (!has_dictionary_) return Status::Corrupt("dictionary-encoded data page without a dictionary page");
  QUIVER_RETURN_NOT_OK(dict_decoder_.Reset(data, size, dict_size_));
  std::vector<int32_t>& indices = PendingIndices();
  if (static_cast<int64_t>(indices.size()) < n) indices.resize(static_cast<size_t>(n));
  QUIVER_RETURN_NOT_OK(dict_decoder_.DecodeIndices(indices.data(), n));
  return indices.data();
}

Status FlatDecoder::SelectPage(const Page& page, const uint8_t* data, int64_t size, int64_t n) {
  const Encoding e = page.encoding;
  if (e == Encoding::PLAIN_DICTIONARY || e == Encoding::RLE_DICTIONARY) {
    QUIVER_ASSIGN_OR_RETURN(const int32_t* idx, PageIndices(data, size, n));
    AndDictionaryAnswers(ActiveSelectKernels(), pass_, rows_, idx, n, dict_pass_.data(),
                         static_cast<int64_t>(dict_pass_.size()));
    return Status::OK();
  }
  // PLAIN values stored as the column's type holds them are compared where they lie.
  const DataType& t = **select_type_;
  if (e != Encoding::PLAIN || width_ <= 0 || physical_ == Type::INT96 || physical_ == Type::FIXED_LEN_BYTE_ARRAY ||
      !t.is_fixed_width() || t.bit_width() != width_ * 8) {
    return Status::NotImplemented(fmt::format("predicates on {} pages of {} values", EncName(e), t.ToString()));
  }
  if (n * width_ > size) {
    return Status::Corrupt(fmt::format("PLAIN page holds {} bytes, {} values of {} bytes need more", size, n, width_));
  }
  const uint8_t* values_at = data;
  if (reinterpret_cast<uintptr_t>(data) % static_cast<uintptr_t>(width_) != 0) {
    aligned_values_.resize(static_cast<size_t>((n * width_ + 7) / 8));
    std::memcpy(aligned_values_.data(), data, static_cast<size_t>(n * width_));
    values_at = reinterpret_cast<const uint8_t*>(aligned_values_.data());
  }
  auto data_view = std::make_shared<ArrayData>();
  data_view->type = *select_type_;
  data_view->length = n;
  data_view->null_count = 0;
  data_view->buffers = {nullptr, Buffer::Wrap(values_at, n * width_, nullptr)};
  const Array values(data_view);
  for (const BoundPredicate* p : select_preds_) {
    int64_t selected = 0;
    QUIVER_ASSIGN_OR_RETURN(auto bits, EvaluatePredicate(values, p->op, p->value, &selected, pool_));
    AndBitsAt(pass_, rows_, bits->data(), n);
  }
  return Status::OK();
}

// The first null: every earlier row (`valid_rows` of them) was valid.
Status FlatDecoder::StartValidity(int64_t valid_rows) {
  const int64_t bytes = bit_util::BytesForBits(valid_rows);
  QUIVER_RETURN_NOT_OK(validity_.Reserve(bytes));
  if (bytes > 0) std::memset(validity_.mutable_data(), 0, static_cast<size_t>(bytes));
  if (valid_rows > 0) bit_util::SetBitsTo(validity_.mutable_data(), 0, valid_rows, true);
  validity_.UnsafeSetSize(bytes);
  has_validity_ = true;
  return Status::OK();
}

// Validity bytes for `rows` rows, the new ones zero (null until a level sets them).
Status FlatDecoder::GrowValidity(int64_t rows) {
  const int64_t new_bytes = bit_util::BytesForBits(rows);
  if (new_bytes <= validity_.size()) return Status::OK();
  QUIVER_RETURN_NOT_OK(validity_.Reserve(new_bytes - validity_.size()));
  std::memset(validity_.mutable_data() + validity_.size(), 0, static_cast<size_t>(new_bytes - validity_.size()));
  validity_.UnsafeSetSize(new_bytes);
  return Status::OK();
}

// A flat leaf's definition levels go straight to validity bits and a count, run by run,
// without being materialised: an RLE run of the maximum level (a stretch of non-null rows, all
// of a page when it has no nulls) costs one step.
Status FlatDecoder::DefRunsToValidity(enc::RleBitPackedDecoder* rle, int64_t n, int64_t* present) {
  const uint32_t max_def = static_cast<uint32_t>(col_.max_definition_level);
  if (has_validity_) QUIVER_RETURN_NOT_OK(GrowValidity(rows_ + n));
  int64_t i = 0, count = 0;
  uint32_t too_high = 0;
  Status st;
  auto first_null = [&]() {
    st = StartValidity(rows_ + i);
    if (st.ok()) st = GrowValidity(rows_ + n);
  };
  const int64_t got = rle->Visit(
      n,
      [&](uint32_t v, int64_t c) {
        if (!st.ok()) return;
        if (v == max_def) {
          if (has_validity_) bit_util::SetBitsTo(validity_.mutable_data(), rows_ + i, c, true);
          count += c;
        } else if (v > max_def) {
          too_high = v;
        } else if (!has_validity_) {
          first_null();
        }
        i += c;
      },
      [&](const uint32_t* v, int64_t c) {
        if (!st.ok()) return;
        int64_t ones = 0;
        uint32_t hi = 0;
        for (int64_t k = 0; k < c; ++k) {
          ones += v[k] == max_def;
          hi = v[k] > hi ? v[k] : hi;
        }
        if (hi > max_def) too_high = hi;
        if (ones < c && !has_validity_) first_null();
        if (st.ok() && has_validity_) {
          uint8_t* bits = validity_.mutable_data();
          for (int64_t k = 0; k < c; ++k) {
            if (v[k] == max_def) bit_util::SetBit(bits, rows_ + i + k);
          }
        }
        count += ones;
        i += c;
      });
  QUIVER_RETURN_NOT_OK(st);
  if (got < n) return rle->ErrorStatus(got, n).WithContext("definition levels");
  if (too_high > max_def) {
    return Status::Corrupt(fmt::format("definition level {} exceeds the column's maximum {}", too_high, max_def));
  }
  *present = count;
  return Status::OK();
}

Status FlatDecoder::AppendValidity(const int16_t* levels, int64_t n, int64_t* present) {
  const int16_t max_def = col_.max_definition_level;
  int64_t count = 0;
  int16_t max_seen = 0;
  for (int64_t i = 0; i < n; ++i) {
    count += levels[i] == max_def;
    max_seen = levels[i] > max_seen ? levels[i] : max_seen;
  }
  if (max_seen > max_def) {
    return Status::Corrupt(fmt::format("definition level {} exceeds the column's maximum {}", max_seen, max_def));
  }
  *present = count;
  if (count < n && !has_validity_) QUIVER_RETURN_NOT_OK(StartValidity(rows_));
  if (has_validity_) {
    // validity_.size() is always BytesForBits(rows_); bits past rows_ are zero.
    QUIVER_RETURN_NOT_OK(GrowValidity(rows_ + n));
    uint8_t* bits = validity_.mutable_data();
    for (int64_t i = 0; i < n; ++i) {
      if (levels[i] == max_def) bit_util::SetBit(bits, rows_ + i);
    }
  }
  return Status::OK();
}

// One level stream: V2 pages give its bytes; V1 pages hold it at *p (RLE behind a 4-byte length,
// or legacy BIT_PACKED), and *p/*left move past it.
Status FlatDecoder::DecodeLevelRun(const Page& page, Encoding encoding, int16_t max_level,
                                   std::span<const uint8_t> v2_bytes, const uint8_t** p, int64_t* left, int16_t* out,
                                   const char* what) {
  const int64_t n = page.num_values;
  const int bw = BitWidthOf(max_level);
  if (page.type == PageType::DATA_PAGE_V2) {
    enc::RleBitPackedDecoder rle;
    QUIVER_RETURN_NOT_OK(rle.Reset(v2_bytes.data(), static_cast<int64_t>(v2_bytes.size()), bw));
    return rle.Decode(out, n).WithContext(what);
  }
  if (encoding == Encoding::RLE) {
    if (*left < 4) return Status::Corrupt(fmt::format("{}: length prefix runs past the page end", what));
    uint32_t len;
    std::memcpy(&len, *p, 4);
    if (len > static_cast<uint64_t>(*left - 4)) {
      return Status::Corrupt(fmt::format("{}: {} bytes declared, {} left in the page", what, len, *left - 4));
    }
    enc::RleBitPackedDecoder rle;
    QUIVER_RETURN_NOT_OK(rle.Reset(*p + 4, len, bw));
    QUIVER_RETURN_NOT_OK(rle.Decode(out, n).WithContext(what));
    *p += 4 + len;
    *left -= 4 + static_cast<int64_t>(len);
    return Status::OK();
  }
  if (encoding == Encoding::BIT_PACKED) {
    QUIVER_RETURN_NOT_OK(enc::DecodeLegacyBitPacked(*p, *left, bw, n, out).WithContext(what));
    const int64_t used = bit_util::BytesForBits(n * bw);
    *p += used;
    *left -= used;
    return Status::OK();
  }
  return Status::NotImplemented(fmt::format("{} encoded as {}", what, EncName(encoding)));
}

Status FlatDecoder::DecodeLevels(const Page& page, const uint8_t** values, int64_t* values_size, int64_t* present) {
  const int64_t n = page.num_values;
  const int16_t max_def = col_.max_definition_level;
  const int16_t max_rep = col_.max_repetition_level;
  const uint8_t* p = page.data.data();
  int64_t left = static_cast<int64_t>(page.data.size());
  if (max_rep > 0) {
    rep_.resize(static_cast<size_t>(n));
    QUIVER_RETURN_NOT_OK(DecodeLevelRun(page, page.repetition_level_encoding, max_rep, page.repetition_levels, &p,
                                        &left, rep_.data(), "repetition levels"));
    int16_t max_seen = 0;
    for (int16_t r : rep_) max_seen = r > max_seen ? r : max_seen;
    if (max_seen > max_rep) {
      return Status::Corrupt(fmt::format("repetition level {} exceeds the column's maximum {}", max_seen, max_rep));
    }
    if (keep_levels_) all_rep_.insert(all_rep_.end(), rep_.begin(), rep_.end());
  }
  if (max_def == 0) {
    *present = n;
    *values = p;
    *values_size = left;
    return Status::OK();
  }
  if (!keep_levels_ && max_rep == 0 &&
      (page.type == PageType::DATA_PAGE_V2 || page.definition_level_encoding == Encoding::RLE)) {
    std::span<const uint8_t> bytes = page.definition_levels;
    if (page.type != PageType::DATA_PAGE_V2) {
      if (left < 4) return Status::Corrupt("definition levels: length prefix runs past the page end");
      uint32_t len;
      std::memcpy(&len, p, 4);
      if (len > static_cast<uint64_t>(left - 4)) {
        return Status::Corrupt(
            fmt::format("definition levels: {} bytes declared, {} left in the page", len, left - 4));
      }
      bytes = {p + 4, len};
      p += 4 + len;
      left -= 4 + static_cast<int64_t>(len);
    }
    enc::RleBitPackedDecoder rle;
    QUIVER_RETURN_NOT_OK(rle.Reset(bytes.data(), static_cast<int64_t>(bytes.size()), BitWidthOf(max_def)));
    QUIVER_RETURN_NOT_OK(DefRunsToValidity(&rle, n, present));
    *values = p;
    *values_size = left;
    return Status::OK();
  }
  levels_.resize(static_cast<size_t>(n));
  QUIVER_RETURN_NOT_OK(DecodeLevelRun(page, page.definition_level_encoding, max_def, page.definition_levels, &p,
                                      &left, levels_.data(), "definition levels"));
  QUIVER_RETURN_NOT_OK(AppendValidity(levels_.data(), n, present));
  if (keep_levels_) all_def_.insert(all_def_.end(), levels_.begin(), levels_.end());
  *values = p;
  *values_size = left;
  return Status::OK();
}

Status FlatDecoder::DecodeValues(const Page& page, const uint8_t* data, int64_t size, int64_t n) {
  const Encoding e = page.encoding;
  auto unsupported = [&] {
    return Status::NotImplemented(
        fmt::format("{} encoding for {} values", EncName(e), TypeName(physical_) ? TypeName(physical_) : "unknown"));
  };
  if (physical_ == Type::BOOLEAN) {
    // Bits go straight into the dense bitmap at bit non_null_.
    const int64_t bytes = bit_util::BytesForBits(non_null_ + n);
    QUIVER_RETURN_NOT_OK(values_.Reserve(bytes - values_.size() + 8));
    std::memset(values_.mutable_data() + values_.size(), 0, static_cast<size_t>(bytes - values_.size() + 8));
    if (e == Encoding::PLAIN) {
      enc::PlainBooleanDecoder d;
      d.Reset(data, size);
      QUIVER_RETURN_NOT_OK(d.DecodeBitmap(values_.mutable_data(), non_null_, n));
    } else if (e == Encoding::RLE) {
      if (size < 4) return Status::Corrupt("RLE booleans: length prefix runs past the page end");
      uint32_t len;
      std::memcpy(&len, data, 4);
      if (len > static_cast<uint64_t>(size - 4)) {
        return Status::Corrupt(fmt::format("RLE booleans: {} bytes declared, {} left in the page", len, size - 4));
      }
      enc::RleBitPackedDecoder rle;
      QUIVER_RETURN_NOT_OK(rle.Reset(data + 4, len, 1));
      QUIVER_RETURN_NOT_OK(enc::DecodeBooleanBitmap(&rle, n, values_.mutable_data(), non_null_));
    } else {
      return unsupported();
    }
    values_.UnsafeSetSize(bytes);
    return Status::OK();
  }
  if (physical_ == Type::BYTE_ARRAY) {
    if (e == Encoding::PLAIN_DICTIONARY || e == Encoding::RLE_DICTIONARY) return DecodeDictionaryStrings(data, size, n);
    // Strings of earlier dictionary pages go first (a writer may fall back to another encoding).
    QUIVER_RETURN_NOT_OK(FlushDictionaryStrings());
    if (offsets_.size() == 0) QUIVER_RETURN_NOT_OK(offsets_.AppendValue<int32_t>(0));
    switch (e) {
      case Encoding::PLAIN: {
        enc::PlainByteArrayDecoder d;
        d.Reset(data, size);
        return d.Decode(n, &offsets_, &values_);
      }
      case Encoding::DELTA_LENGTH_BYTE_ARRAY:
        QUIVER_RETURN_NOT_OK(delta_length_.Reset(data, size));
        return delta_length_.Decode(n, &offsets_, &values_);
      case Encoding::DELTA_BYTE_ARRAY:
        QUIVER_RETURN_NOT_OK(delta_byte_array_.Reset(data, size));
        return delta_byte_array_.Decode(n, &offsets_, &values_);
      default:
        return unsupported();
    }
  }
  if (width_ <= 0) return Status::Corrupt(fmt::format("value width {} is not positive", width_));
  QUIVER_RETURN_NOT_OK(values_.Reserve(n * width_));
  uint8_t* out = values_.mutable_data() + values_.size();
  if (keep_ != nullptr && (width_ == 4 || width_ == 8)) {
    // Only the kept rows' values are copied: from the page itself, or through their indices.
    const bool dict = e == Encoding::PLAIN_DICTIONARY || e == Encoding::RLE_DICTIONARY;
    if (e == Encoding::PLAIN || dict) {
      QUIVER_ASSIGN_OR_RETURN(page_kept_, GatherKeptValues(data, size, n, dict, out));
      values_.UnsafeSetSize(values_.size() + page_kept_ * width_);
      return Status::OK();
    }
  }
  switch (e) {
    case Encoding::PLAIN: {
      enc::PlainFixedDecoder d;
      QUIVER_RETURN_NOT_OK(d.Reset(data, size, width_));
      QUIVER_RETURN_NOT_OK(d.Decode(out, n));
      break;
    }
    case Encoding::PLAIN_DICTIONARY:
    case Encoding::RLE_DICTIONARY:
      if (!has_dictionary_) return Status::Corrupt("dictionary-encoded data page without a dictionary page");
      QUIVER_RETURN_NOT_OK(dict_decoder_.Reset(data, size, dict_size_));
      if (width_ == 4) {
        QUIVER_RETURN_NOT_OK(dict_decoder_.Decode(reinterpret_cast<const uint32_t*>(dict_values_.data()),
                                                  reinterpret_cast<uint32_t*>(out), n));
      } else if (width_ == 8) {
        QUIVER_RETURN_NOT_OK(dict_decoder_.Decode(reinterpret_cast<const uint64_t*>(dict_values_.data()),
                                                  reinterpret_cast<uint64_t*>(out), n));
      } else {
        QUIVER_RETURN_NOT_OK(dict_decoder_.DecodeFixed(dict_values_.data(), width_, out, n));
      }
      break;
    case Encoding::DELTA_BINARY_PACKED:
      if (physical_ == Type::INT32) {
        enc::DeltaBinaryPackedDecoder<int32_t> d;
        QUIVER_RETURN_NOT_OK(d.Reset(data, size));
        QUIVER_RETURN_NOT_OK(d.Decode(reinterpret_cast<int32_t*>(out), n));
      } else if (physical_ == Type::INT64) {
        enc::DeltaBinaryPackedDecoder<int64_t> d;
        QUIVER_RETURN_NOT_OK(d.Reset(data, size));
        QUIVER_RETURN_NOT_OK(d.Decode(reinterpret_cast<int64_t*>(out), n));
      } else {
        return unsupported();
      }
      break;
    case Encoding::DELTA_BYTE_ARRAY:
      if (physical_ != Type::FIXED_LEN_BYTE_ARRAY) return unsupported();
      QUIVER_RETURN_NOT_OK(delta_byte_array_.Reset(data, size));
      QUIVER_RETURN_NOT_OK(delta_byte_array_.DecodeFixed(n, width_, out));
      break;
    case Encoding::BYTE_STREAM_SPLIT:
      if (physical_ == Type::INT96) return unsupported();
      QUIVER_RETURN_NOT_OK(bss_.Reset(data, size, width_));
      QUIVER_RETURN_NOT_OK(bss_.Decode(out, n));
      break;
    default:
      return unsupported();
  }
  values_.UnsafeSetSize(values_.size() + n * width_);
  return Status::OK();
}

Result<int64_t> FlatDecoder::GatherKeptValues(const uint8_t* data, int64_t size, int64_t n, bool dict,
                                              uint8_t* out) {
  const int w = width_;
  if (!dict) {
    if (n * w > size) {
      return Status::Corrupt(fmt::format("PLAIN page holds {} bytes, {} values of {} bytes need more", size, n, w));
    }
    auto at = [data, w](int64_t i) { return data + i * w; };
    auto step4 = [data](int64_t i, uint64_t bits, uint8_t* o) { return ActiveGatherKeptKernels().plain4(bits, data + i * 4, o); };
    auto step8 = [data](int64_t i, uint64_t bits, uint8_t* o) { return ActiveGatherKeptKernels().plain8(bits, data + i * 8, o); };
    return w == 4 ? GatherKept<4>(keep_, keep_bytes_, rows_, n, at, step4, out)
                  : GatherKept<8>(keep_, keep_bytes_, rows_, n, at, step8, out);
  }
  QUIVER_ASSIGN_OR_RETURN(const int32_t* idx, PageIndices(data, size, n));
  const uint8_t* entries = dict_values_.data();
  auto at = [idx, entries, w](int64_t i) { return entries + static_cast<int64_t>(idx[i]) * w; };
  auto step4 = [idx, entries](int64_t i, uint64_t bits, uint8_t* o) {
    return ActiveGatherKeptKernels().dict4(bits, idx + i, entries, o);
  };
  auto step8 = [idx, entries](int64_t i, uint64_t bits, uint8_t* o) {
    return ActiveGatherKeptKernels().dict8(bits, idx + i, entries, o);
  };
  if (w == 8 && dict_size_ <= 64) {
    // A small dictionary's entries, padded to 16 or 64, are looked up from registers.
    alignas(64) uint8_t padded[64 * 8] = {};
    std::memcpy(padded, entries, static_cast<size_t>(dict_size_) * 8);
    const auto kernel = dict_size_ <= 16 ? ActiveGatherKeptKernels().dict8_16 : ActiveGatherKeptKernels().dict8_64;
    auto small = [idx, &padded, kernel](int64_t i, uint64_t bits, uint8_t* o) { return kernel(bits, idx + i, padded, o); };
    return GatherKept<8>(keep_, keep_bytes_, rows_, n, at, small, out);
  }
  return w == 4 ? GatherKept<4>(keep_, keep_bytes_, rows_, n, at, step4, out)
                : GatherKept<8>(keep_, keep_bytes_, rows_, n, at, step8, out);
}

Status FlatDecoder::DecodeDictionaryStrings(const uint8_t* data, int64_t size, int64_t n) {
  if (!has_dictionary_) return Status::Corrupt("dictionary-encoded data page without a dictionary page");
  QUIVER_RETURN_NOT_OK(dict_decoder_.Reset(data, size, dict_size_));
  if (pending_n_ > 0 && pending_n_ + n > kMaxPendingIndices) QUIVER_RETURN_NOT_OK(FlushDictionaryStrings());
  std::vector<int32_t>& pending = PendingIndices();
  if (static_cast<int64_t>(pending.size()) < pending_n_ + n) pending.resize(static_cast<size_t>(pending_n_ + n));
  int32_t* idx = pending.data() + pending_n_;
  QUIVER_RETURN_NOT_OK(dict_decoder_.DecodeIndices(idx, n));
  if (keep_ != nullptr) {
    // Only the kept rows' indices wait to be gathered: compacted in place, 64 rows a step by
    // the PLAIN 4-byte kernel (its output never passes the rows it has read).
    const uint8_t* from = reinterpret_cast<const uint8_t*>(idx);
    auto at = [from](int64_t i) { return from + i * 4; };
    auto step = [from](int64_t i, uint64_t bits, uint8_t* o) { return ActiveGatherKeptKernels().plain4(bits, from + i * 4, o); };
    n = page_kept_ = GatherKept<4>(keep_, keep_bytes_, rows_, n, at, step, reinterpret_cast<uint8_t*>(idx));
  }
  const auto* dict_offsets = reinterpret_cast<const int32_t*>(dict_offsets_.data());
  const int64_t bytes = uniform_len_ >= 0 ? n * uniform_len_ : enc::DictionaryDecoder::ByteArrayLength(dict_offsets, idx, n);
  if (values_.size() + pending_bytes_ + bytes > std::numeric_limits<int32_t>::max()) {
    return Status::Invalid("BYTE_ARRAY values exceed the 2 GiB an int32-offset array holds");
  }
  pending_n_ += n;
  pending_bytes_ += bytes;
  return Status::OK();
}

Status FlatDecoder::FlushDictionaryStrings() {
  if (pending_n_ == 0) return Status::OK();
  const int64_t n = pending_n_, bytes = pending_bytes_;
  pending_n_ = pending_bytes_ = 0;
  if (offsets_.size() == 0) QUIVER_RETURN_NOT_OK(offsets_.AppendValue<int32_t>(0));
  QUIVER_RETURN_NOT_OK(offsets_.Reserve(n * 4));
  QUIVER_RETURN_NOT_OK(values_.Reserve(bytes + 32));  // slack for the fixed-size copies
  int32_t* off = reinterpret_cast<int32_t*>(offsets_.mutable_data() + offsets_.size());
  const int64_t end =
      uniform_len_ >= 0
          ? enc::DictionaryDecoder::GatherUniformByteArrays(uniform_len_, dict_values_.data(), dict_values_.size() + 32,
                                                            PendingIndices().data(), n, off, values_.mutable_data(),
                                                            values_.size())
      : short_width_ > 0
          ? enc::DictionaryDecoder::GatherShortByteArrays(short_width_, reinterpret_cast<const int32_t*>(dict_offsets_.data()),
                                                          dict_values_.data(), PendingIndices().data(), n, off,
                                                          values_.mutable_data(), values_.size())
          : enc::DictionaryDecoder::GatherByteArrays(reinterpret_cast<const int32_t*>(dict_offsets_.data()),
                                                     dict_values_.data(), dict_values_.size() + 32,
                                                     PendingIndices().data(), n, off, values_.mutable_data(),
                                                     values_.size());
  offsets_.UnsafeSetSize(offsets_.size() + n * 4);
  values_.UnsafeSetSize(end);
  return Status::OK();
}

Status FlatDecoder::OnData(const Page& page) {
  if (rows_limit_ >= 0 && page.num_values > rows_limit_ - rows_) {
    return Status::Corrupt(fmt::format("the pages hold more than the column chunk's {} values", rows_limit_));
  }
  const uint8_t* data = nullptr;
  int64_t size = 0, present = 0;
  QUIVER_RETURN_NOT_OK(DecodeLevels(page, &data, &size, &present));
  if (pass_ != nullptr) {
    if (present != page.num_values) return Status::NotImplemented("predicates on a page with nulls");
    QUIVER_RETURN_NOT_OK(SelectPage(page, data, size, present));
    rows_ += page.num_values;
    non_null_ += present;
    return Status::OK();
  }
  if (keep_ != nullptr && (present != page.num_values || physical_ == Type::BOOLEAN)) {
    return Status::NotImplemented("rows kept while decoding a page with nulls or booleans");
  }
  const int64_t values_from = values_.size();
  page_kept_ = -1;
  QUIVER_RETURN_NOT_OK(DecodeValues(page, data, size, present));
  if (keep_ != nullptr) present = page_kept_ >= 0 ? page_kept_ : CompactPage(values_from, present);
  rows_ += page.num_values;
  non_null_ += present;
  return Status::OK();
}

template <int W>
int64_t CompactFixed(uint8_t* v, const uint8_t* keep, int64_t first_row, int64_t n) {
  int64_t j = 0;
  for (int64_t i = 0; i < n; ++i) {
    uint8_t value[W];  // (through a copy: j may equal i)
    std::memcpy(value, v + i * W, W);
    std::memcpy(v + j * W, value, W);
    j += bit_util::GetBit(keep, first_row + i);
  }
  return j;
}

int64_t FlatDecoder::CompactPage(int64_t values_from, int64_t n) {
  if (physical_ == Type::BYTE_ARRAY) {
    int32_t* off = reinterpret_cast<int32_t*>(offsets_.mutable_data()) + offsets_.size() / 4 - (n + 1);
    uint8_t* bytes = values_.mutable_data();
    int32_t end = off[0], prev = off[0];
    int64_t j = 0;
    for (int64_t i = 0; i < n; ++i) {
      const int32_t next = off[i + 1];  // read before slot j + 1 <= i + 1 is written
      if (bit_util::GetBit(keep_, rows_ + i)) {
        const int32_t len = next - prev;
        if (len > 0 && end != prev) std::memmove(bytes + end, bytes + prev, static_cast<size_t>(len));
        end += len;
        off[++j] = end;
      }
      prev = next;
    }
    offsets_.UnsafeSetSize(offsets_.size() - (n - j) * 4);
    values_.UnsafeSetSize(end);
    return j;
  }
  uint8_t* v = values_.mutable_data() + values_from;
  int64_t j = 0;
  switch (width_) {
    case 4: j = CompactFixed<4>(v, keep_, rows_, n); break;
    case 8: j = CompactFixed<8>(v, keep_, rows_, n); break;
    case 12: j = CompactFixed<12>(v, keep_, rows_, n); break;
    default:
      for (int64_t i = 0; i < n; ++i) {
        if (bit_util::GetBit(keep_, rows_ + i)) {
          if (j != i) std::memmove(v + j * width_, v + i * width_, static_cast<size_t>(width_));
          ++j;
        }
      }
  }
  values_.UnsafeSetSize(values_from + j * width_);
  return j;
}

}  // namespace


// Feeds every page of a chunk to the decoder, then checks the chunk's value count against
// what the pages held (shared by the flat and the leaf-for-nesting paths).
static Status DecodeAllPages(PageReader* pages, FlatDecoder* decoder, int64_t num_values) {
  Page page;
  while (true) {
    QUIVER_ASSIGN_OR_RETURN(bool more, pages->Next(&page));
    if (!more) break;
    Status st = page.type == PageType::DICTIONARY_PAGE ? decoder->OnDictionary(page) : decoder->OnData(page);
    if (!st.ok()) return std::move(st).WithContext(fmt::format("page {}", page.index));
  }
  if (decoder->rows() != num_values) {
    return Status::Corrupt(
        fmt::format("column chunk metadata says {} values, its pages hold {}", num_values, decoder->rows()));
  }
  return decoder->Finish();
}

Result<Array> ReadFlatColumnChunk(const ColumnDescriptor& column, const TypePtr& type, std::shared_ptr<Buffer> chunk,
                                  compress::Codec codec, int64_t num_values, const PageReaderOptions& options,
                                  const uint8_t* keep) {
  if (column.max_repetition_level > 0) {
    return Status::NotImplemented(fmt::format("column '{}' is repeated (nested data)", column.dotted_path()));
  }
  if (num_values < 0) return Status::Corrupt(fmt::format("column chunk has {} values", num_values));
  PageReader pages(std::move(chunk), codec, num_values, options);
  FlatDecoder decoder(column, options.pool, false, options.output_pool);
  if (keep != nullptr) decoder.set_keep(keep, num_values);
  QUIVER_RETURN_NOT_OK(decoder.Reserve(std::min<int64_t>(num_values, 1 << 20)));
  QUIVER_RETURN_NOT_OK(DecodeAllPages(&pages, &decoder, num_values));
  if (keep != nullptr) {  // no nulls (else NotImplemented above): every kept row a value
    return Assemble(decoder.dense(), column, type, options.pool, nullptr, decoder.non_null(), 0,
                    options.output_pool != nullptr);
  }
  std::shared_ptr<Buffer> validity;
  if (decoder.null_count() > 0) {
    QUIVER_ASSIGN_OR_RETURN(validity, decoder.validity().Finish());
  }
  return Assemble(decoder.dense(), column, type, options.pool, std::move(validity), decoder.rows(), decoder.null_count(),
                  options.output_pool != nullptr);
}

Status SelectFlatColumnChunk(const ColumnDescriptor& column, const TypePtr& type, std::shared_ptr<Buffer> chunk,
                             compress::Codec codec, int64_t num_values, const PageReaderOptions& options,
                             std::span<const BoundPredicate* const> preds, uint64_t* pass) {
  if (column.max_repetition_level > 0) {
    return Status::NotImplemented(fmt::format("column '{}' is repeated (nested data)", column.dotted_path()));
  }
  if (num_values < 0) return Status::Corrupt(fmt::format("column chunk has {} values", num_values));
  PageReader pages(std::move(chunk), codec, num_values, options);
  FlatDecoder decoder(column, options.pool);
  decoder.set_select(&type, preds, pass, num_values);
  return DecodeAllPages(&pages, &decoder, num_values);
}

struct LeafChunk::Impl {
  Impl(const ColumnDescriptor& c, TypePtr t, MemoryPool* p) : column(c), type(std::move(t)), pool(p), decoder(column, p, true) {}
  ColumnDescriptor column;
  TypePtr type;
  MemoryPool* pool;
  FlatDecoder decoder;
  bool consumed = false;
};

LeafChunk::LeafChunk() = default;
LeafChunk::~LeafChunk() = default;

int64_t LeafChunk::num_levels() const { return impl_->decoder.rows(); }
const std::vector<int16_t>& LeafChunk::def_levels() const { return impl_->decoder.all_def_levels(); }
const std::vector<int16_t>& LeafChunk::rep_levels() const { return impl_->decoder.all_rep_levels(); }
const ColumnDescriptor& LeafChunk::column() const { return impl_->column; }

Result<Array> LeafChunk::ToArray(const std::vector<int64_t>& slots) {
  if (impl_->consumed) return Status::Invalid("LeafChunk::ToArray called twice");
  impl_->consumed = true;
  const int64_t rows = static_cast<int64_t>(slots.size());
  const auto& def = impl_->decoder.all_def_levels();
  const int16_t max_def = impl_->column.max_definition_level;
  std::shared_ptr<Buffer> validity;
  int64_t nulls = 0;
  if (max_def > 0) {
    QUIVER_ASSIGN_OR_RETURN(validity, Buffer::AllocateZeroed(bit_util::BytesForBits(rows), impl_->pool));
    uint8_t* bits = validity->mutable_data();
    for (int64_t k = 0; k < rows; ++k) {
      if (def[static_cast<size_t>(slots[static_cast<size_t>(k)])] == max_def) {
        bit_util::SetBit(bits, k);
      } else {
        ++nulls;
      }
    }
    if (nulls == 0) validity.reset();
  }
  return Assemble(impl_->decoder.dense(), impl_->column, impl_->type, impl_->pool, std::move(validity), rows, nulls);
}

Result<std::unique_ptr<LeafChunk>> ReadLeafColumnChunk(const ColumnDescriptor& column, const TypePtr& type,
                                                       std::shared_ptr<Buffer> chunk, compress::Codec codec,
                                                       int64_t num_values, const PageReaderOptions& options) {
  if (num_values < 0) return Status::Corrupt(fmt::format("column chunk has {} values", num_values));
  std::unique_ptr<LeafChunk> leaf(new LeafChunk());
  leaf->impl_ = std::make_unique<LeafChunk::Impl>(column, type, options.pool);
  FlatDecoder& decoder = leaf->impl_->decoder;
  PageReader pages(std::move(chunk), codec, num_values, options);
  QUIVER_RETURN_NOT_OK(decoder.Reserve(std::min<int64_t>(num_values, 1 << 20)));
  QUIVER_RETURN_NOT_OK(DecodeAllPages(&pages, &decoder, num_values));
  return leaf;
}

}  // namespace quiver::parquet::reader
