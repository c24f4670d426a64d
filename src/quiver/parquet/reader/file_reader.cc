#include "quiver/parquet/reader/file_reader.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <tuple>

#include "quiver/columnar/concatenate.h"
#include "quiver/compress/codec.h"
#include "quiver/core/bit_util.h"
#include "quiver/core/utf8.h"
#include "quiver/parquet/bloom_filter.h"
#include "quiver/parquet/crypto_internal.h"
#include "quiver/parquet/reader/column_reader_internal.h"
#include "quiver/parquet/reader/nested_internal.h"
#include "quiver/parquet/reader/output_arena_internal.h"
#include "quiver/parquet/reader/select_bits_internal.h"

namespace quiver::parquet {
namespace {

// parquet-mr up to 1.2.8 left the dictionary page header out of total_compressed_size
// (PARQUET-816, IMPALA-694); a created_by without a version counts as such a writer.
bool OmitsDictionaryHeaderSize(std::string_view created_by) {
  if (!created_by.starts_with("parquet-mr")) return false;
  const size_t v = created_by.find("version ");
  if (v == std::string_view::npos) return true;
  int parts[3] = {0, 0, 0};
  size_t i = v + 8;
  for (int k = 0; k < 3 && i < created_by.size(); ++k) {
    while (i < created_by.size() && created_by[i] >= '0' && created_by[i] <= '9') {
      parts[k] = parts[k] * 10 + (created_by[i] - '0');
      if (parts[k] > 100000) return false;
      ++i;
    }
    if (i < created_by.size() && created_by[i] == '.') ++i;
    else break;
  }
  return std::make_tuple(parts[0], parts[1], parts[2]) < std::make_tuple(1, 2, 9);
}

// What a chunk must be for this reader to decode it: its metadata here, in this file,
// decryptable when encrypted (`dec`: the file's decryption state), compressed with a
// supported codec (returned in `codec`).
Status CheckChunk(const ColumnChunk& chunk, const crypto::FileDecryptor* dec, int leaf, compress::Codec* codec) {
  const crypto::ColumnDecryption* cd = dec ? dec->column(static_cast<size_t>(leaf)) : nullptr;
  if (chunk.crypto_metadata || chunk.encrypted_column_metadata || (cd != nullptr && cd->encrypted)) {
    if (cd == nullptr || !cd->encrypted) {
      return Status::Corrupt("column chunk has crypto metadata but the file names no encryption algorithm");
    }
    if (cd->key_missing()) {
      return Status::Invalid(fmt::format("column '{}' is encrypted and its key was not given",
                                         EscapeForMessage(cd->path)));
    }
  }
  if (!chunk.meta_data) return Status::Corrupt("column chunk without meta_data");
  const ColumnMetaData& md = *chunk.meta_data;
  if (chunk.file_path) return Status::NotImplemented("column chunks in other files (file_path) are not supported");
  *codec = static_cast<compress::Codec>(md.codec);
  if (!compress::IsCodecSupported(*codec)) {
    const char* name = CodecName(md.codec);
    return Status::NotImplemented(fmt::format("compression codec {} is not supported",
                                              name ? name : std::to_string(static_cast<int32_t>(md.codec))));
  }
  return Status::OK();
}

// The rows `sel` keeps of `a` (a whole row group's column): the array itself, one slice, or the
// slices joined.
Result<Array> TakeRanges(const Array& a, const std::vector<RowRange>& ranges, MemoryPool* pool) {
  if (ranges.size() == 1) return a.Slice(ranges[0].begin, ranges[0].end - ranges[0].begin);
  std::vector<Array> parts;
  parts.reserve(ranges.size());
  for (const RowRange& r : ranges) parts.push_back(a.Slice(r.begin, r.end - r.begin));
  if (parts.empty()) return a.Slice(0, 0);
  return Concatenate(parts, pool);
}

// First row of each page, with the group's row count appended; false when the OffsetIndex
// does not describe `group_rows` rows in increasing order starting at row 0.
bool PageFirstRows(const OffsetIndex& oi, int64_t group_rows, std::vector<int64_t>* first) {
  const auto& locs = oi.page_locations;
  if (locs.empty() || locs[0].first_row_index != 0) return false;
  first->clear();
  for (size_t i = 0; i < locs.size(); ++i) {
    const int64_t f = locs[i].first_row_index;
    if ((i > 0 && f <= first->back()) || f >= group_rows) return false;
    first->push_back(f);
  }
  first->push_back(group_rows);
  return true;
}

}  // namespace

int64_t RowSelection::num_rows(int64_t group_rows) const {
  if (all) return group_rows;
  int64_t n = 0;
  for (const RowRange& r : ranges) n += r.end - r.begin;
  return n;
}

Result<std::unique_ptr<ParquetFileReader>> ParquetFileReader::Open(const std::string& path,
                                                                   ParquetReaderOptions options) {
  // pread, not mmap: each chunk is read into a buffer that is freed once it is decoded, so a
  // whole-file read holds its decoded data and not the file besides, and the input costs no
  // page faults (which serialise threads on the process's memory map). Of the two mappings
  // (`--mmap`), the whole file mapped saves the copy but holds the file's pages (on Q6 over
  // lineitem, about 4x the peak for a tenth less time); a mapping per chunk, unmapped once
  // decoded, costs more in map and unmap calls than the copy it saves.
  QUIVER_ASSIGN_OR_RETURN(auto file, io::OpenFile(path, io::ReadMode::kPread));
  return Open(std::move(file), options);
}

Result<std::unique_ptr<ParquetFileReader>> ParquetFileReader::Open(std::shared_ptr<io::RandomAccessFile> file,
                                                                   ParquetReaderOptions options) {
  std::unique_ptr<ParquetFileReader> r(new ParquetFileReader());
  r->path_ = file->path();
  r->file_ = std::move(file);
  r->options_ = options;
  auto ctx = [&](Status st) { return std::move(st).WithContext(r->path_); };
  auto footer = ReadFooter(*r->file_, {}, &r->options_.decryption);
  r->options_.decryption = DecryptionOptions();  // the footer's decryptor holds what is needed
  if (!footer.ok()) return ctx(footer.status());
  r->footer_ = std::move(*footer);
  auto tree = SchemaTree::Make(r->footer_->metadata().schema);
  if (!tree.ok()) return ctx(tree.status());
  r->tree_ = std::move(*tree);
  auto fields = r->tree_.ToFields();
  if (!fields.ok()) return ctx(fields.status());
  r->schema_ = std::make_shared<const Schema>(std::move(*fields));
  const auto& md = r->footer_->metadata();
  for (size_t i = 0; i < md.row_groups.size(); ++i) {
    if (static_cast<int>(md.row_groups[i].columns.size()) != r->tree_.num_columns()) {
      return ctx(Status::Corrupt(fmt::format("row group {} has {} column chunks, the schema {} leaf columns", i,
                                             md.row_groups[i].columns.size(), r->tree_.num_columns())));
    }
  }
  return r;
}

Result<std::shared_ptr<Buffer>> ParquetFileReader::ChunkBytes(int row_group, int leaf, compress::Codec* codec,
                                                              int64_t* num_values,
                                                              std::shared_ptr<Buffer>* reuse) const {
  const ColumnChunk& chunk =
      footer_->metadata().row_groups[static_cast<size_t>(row_group)].columns[static_cast<size_t>(leaf)];
  QUIVER_RETURN_NOT_OK(CheckChunk(chunk, footer_->decryptor(), leaf, codec));
  const ColumnMetaData& md = *chunk.meta_data;
  *num_values = md.num_values;
  int64_t start = md.data_page_offset;
  // Some writers store 0 for "no dictionary page"; the dictionary comes first when there is one.
  if (md.dictionary_page_offset && *md.dictionary_page_offset > 0 && *md.dictionary_page_offset < start) {
    start = *md.dictionary_page_offset;
  }
  int64_t length = md.total_compressed_size;
  if (start < 0 || length < 0 || start > file_->size() || length > file_->size() - start) {
    return Status::Corrupt(fmt::format("column chunk bytes [{}, +{}) lie outside the file ({} bytes)", start, length,
                                       file_->size()));
  }
  if (OmitsDictionaryHeaderSize(footer_->metadata().created_by.value_or(""))) {
    // The largest dictionary page header such writers produce, as other readers allow.
    length += std::min<int64_t>(100, file_->size() - start - length);
  }
  if (file_->mapped_data() != nullptr || reuse == nullptr) return file_->ReadAt(start, length, options_.pool);
  std::shared_ptr<Buffer>& buf = *reuse;
  if (!buf || buf.use_count() > 1 || buf->capacity() < length) {
    buf.reset();  // the old block goes back before the larger one is taken
    QUIVER_ASSIGN_OR_RETURN(buf, Buffer::Allocate(length, options_.pool));
  } else {
    QUIVER_RETURN_NOT_OK(buf->Resize(length));
  }
  QUIVER_RETURN_NOT_OK(file_->ReadInto(start, length, buf->mutable_data()));
  return buf;
}

Result<crypto::ChunkDecryption> ParquetFileReader::DecryptionOf(int row_group, int leaf) const {
  crypto::ChunkDecryption d;
  const crypto::FileDecryptor* dec = footer_->decryptor();
  if (dec == nullptr) return d;
  const RowGroup& rg = footer_->metadata().row_groups[static_cast<size_t>(row_group)];
  const ColumnChunk& chunk = rg.columns[static_cast<size_t>(leaf)];
  const crypto::ColumnDecryption* cd = dec->column(static_cast<size_t>(leaf));
  if (cd == nullptr || !cd->encrypted) return d;
  compress::Codec codec;
  QUIVER_RETURN_NOT_OK(CheckChunk(chunk, dec, leaf, &codec));
  d.file = dec;
  d.key = &dec->column(static_cast<size_t>(leaf))->key;
  d.row_group = rg.ordinal ? *rg.ordinal : footer_->row_group_indices()[static_cast<size_t>(row_group)];
  d.column = footer_->column_indices()[static_cast<size_t>(leaf)];
  d.has_dictionary = chunk.meta_data && chunk.meta_data->dictionary_page_offset &&
                     *chunk.meta_data->dictionary_page_offset > 0;
  return d;
}

Status ParquetFileReader::CheckKeys(const std::vector<int>& leaves) const {
  const crypto::FileDecryptor* dec = footer_->decryptor();
  if (dec == nullptr) return Status::OK();
  std::vector<std::string> missing;
  for (int leaf : leaves) {
    const crypto::ColumnDecryption* cd = dec->column(static_cast<size_t>(leaf));
    if (cd != nullptr && cd->key_missing()) missing.push_back("'" + EscapeForMessage(cd->path) + "'");
  }
  if (missing.empty()) return Status::OK();
  if (missing.size() == 1) {
    return Status::Invalid(fmt::format("{}: column {} is encrypted and its key was not given", path_, missing[0]));
  }
  return Status::Invalid(fmt::format("{}: columns {} are encrypted and their keys were not given", path_,
                                     fmt::join(missing, ", ")));
}

Result<std::shared_ptr<Buffer>> ParquetFileReader::ReadChunkModule(int row_group, int leaf, int64_t off, int64_t len,
                                                                   int module, const char* what) const {
  QUIVER_ASSIGN_OR_RETURN(auto bytes, file_->ReadAt(off, len, options_.pool));
  QUIVER_ASSIGN_OR_RETURN(crypto::ChunkDecryption d, DecryptionOf(row_group, leaf));
  if (d.file == nullptr) return bytes;
  std::string aad;
  QUIVER_RETURN_NOT_OK(crypto::ModuleAadOf(*d.file, static_cast<crypto::Module>(module), d.row_group, d.column,
                                         0, &aad));
  std::vector<uint8_t> plain;
  crypto::Cipher cipher;
  QUIVER_RETURN_NOT_OK(cipher.GcmDecrypt(*d.key, bytes->span(), aad, what, &plain));
  QUIVER_ASSIGN_OR_RETURN(auto out, Buffer::Allocate(static_cast<int64_t>(plain.size()), options_.pool));
  if (!plain.empty()) std::memcpy(out->mutable_data(), plain.data(), plain.size());
  return out;
}

Result<std::optional<OffsetIndex>> ParquetFileReader::ReadOffsetIndex(int row_group, int leaf, Arena* arena) const {
  const ColumnChunk& chunk =
      footer_->metadata().row_groups[static_cast<size_t>(row_group)].columns[static_cast<size_t>(leaf)];
  if (!chunk.offset_index_offset || !chunk.offset_index_length) return std::optional<OffsetIndex>();
  const int64_t off = *chunk.offset_index_offset, len = *chunk.offset_index_length;
  if (off < 0 || len <= 0 || off > file_->size() || len > file_->size() - off) {
    return Status::Corrupt(fmt::format("offset index [{}, +{}) lies outside the file ({} bytes)", off, len,
                                       file_->size()));
  }
  QUIVER_ASSIGN_OR_RETURN(auto bytes, ReadChunkModule(row_group, leaf, off, len,
                                                      static_cast<int>(crypto::Module::kOffsetIndex), "offset index"));
  // The decoded lists live in the arena; nothing of an OffsetIndex points into the bytes.
  OffsetIndex oi;
  Status st = DecodeOffsetIndex(bytes->span(), arena, &oi);
  if (!st.ok()) return std::move(st).WithContext(fmt::format("offset index at {}", off));
  return std::optional<OffsetIndex>(oi);
}

Result<std::shared_ptr<Buffer>> ParquetFileReader::PageBytes(int row_group, int leaf, const OffsetIndex& oi,
                                                             const std::vector<int>& pages,
                                                             std::shared_ptr<Buffer>* reuse) const {
  const ColumnChunk& chunk =
      footer_->metadata().row_groups[static_cast<size_t>(row_group)].columns[static_cast<size_t>(leaf)];
  const ColumnMetaData& md = *chunk.meta_data;
  int64_t start = md.data_page_offset;
  if (md.dictionary_page_offset && *md.dictionary_page_offset > 0 && *md.dictionary_page_offset < start) {
    start = *md.dictionary_page_offset;
  }
  const auto& locs = oi.page_locations;
  const int64_t prefix = locs[0].offset - start;  // the dictionary page, when there is one
  if (prefix < 0 || start < 0 || locs[0].offset > file_->size()) {
    return Status::Corrupt(fmt::format("offset index puts the first page at {}, before the chunk start {}",
                                       locs[0].offset, start));
  }
  int64_t total = prefix;
  for (int k : pages) {
    const PageLocation& l = locs[static_cast<size_t>(k)];
    if (l.offset < start || l.compressed_page_size <= 0 || l.offset > file_->size() ||
        l.compressed_page_size > file_->size() - l.offset) {
      return Status::Corrupt(fmt::format("offset index: page {} at [{}, +{}) lies outside the file ({} bytes)", k,
                                         l.offset, l.compressed_page_size, file_->size()));
    }
    total += l.compressed_page_size;
  }
  std::shared_ptr<Buffer> local;
  std::shared_ptr<Buffer>& buf = reuse ? *reuse : local;
  if (!buf || buf.use_count() > 1 || buf->capacity() < total) {
    buf.reset();
    QUIVER_ASSIGN_OR_RETURN(buf, Buffer::Allocate(total, options_.pool));
  } else {
    QUIVER_RETURN_NOT_OK(buf->Resize(total));
  }
  uint8_t* out = buf->mutable_data();
  if (prefix > 0) QUIVER_RETURN_NOT_OK(file_->ReadInto(start, prefix, out));
  int64_t pos = prefix;
  // Pages next to each other in the file are read with one call.
  for (size_t i = 0; i < pages.size();) {
    const PageLocation& first = locs[static_cast<size_t>(pages[i])];
    int64_t len = first.compressed_page_size;
    size_t j = i + 1;
    while (j < pages.size() && locs[static_cast<size_t>(pages[j])].offset == first.offset + len) {
      len += locs[static_cast<size_t>(pages[j])].compressed_page_size;
      ++j;
    }
    QUIVER_RETURN_NOT_OK(file_->ReadInto(first.offset, len, out + pos));
    pos += len;
    i = j;
  }
  return buf;
}

Result<Array> ParquetFileReader::ReadSelectedPages(int row_group, int leaf, const TypePtr& type, int64_t group_rows,
                                                   const std::vector<RowRange>& ranges,
                                                   const reader::PageReaderOptions& po) {
  const ColumnChunk& chunk =
      footer_->metadata().row_groups[static_cast<size_t>(row_group)].columns[static_cast<size_t>(leaf)];
  compress::Codec codec;
  QUIVER_RETURN_NOT_OK(CheckChunk(chunk, footer_->decryptor(), leaf, &codec));
  // An encrypted chunk's page AADs count its pages: it is decoded whole, then cut.
  if (const auto* dec = footer_->decryptor(); dec && dec->column(static_cast<size_t>(leaf)) &&
                                               dec->column(static_cast<size_t>(leaf))->encrypted) {
    return Array();
  }
  Arena arena(options_.pool);
  QUIVER_ASSIGN_OR_RETURN(auto oi, ReadOffsetIndex(row_group, leaf, &arena));
  std::vector<int64_t> first;
  if (!oi || !PageFirstRows(*oi, group_rows, &first)) return Array();
  // The pages holding a kept row; ranges and pages both ascend.
  std::vector<int> pages;
  int64_t values = 0;
  size_t r = 0;
  for (size_t k = 0; k + 1 < first.size(); ++k) {
    while (r < ranges.size() && ranges[r].end <= first[k]) ++r;
    if (r < ranges.size() && ranges[r].begin < first[k + 1]) {
      pages.push_back(static_cast<int>(k));
      values += first[k + 1] - first[k];
    }
  }
  const ColumnDescriptor& col = tree_.columns()[static_cast<size_t>(leaf)];
  QUIVER_ASSIGN_OR_RETURN(auto bytes, PageBytes(row_group, leaf, *oi, pages, po.input));
  QUIVER_ASSIGN_OR_RETURN(Array a, reader::ReadFlatColumnChunk(col, type, std::move(bytes), codec, values, po));
  if (a.length() != values) {
    return Status::Corrupt(fmt::format("{} values in the pages the offset index says hold {} rows", a.length(), values));
  }
  pages_skipped_.fetch_add(static_cast<int64_t>(first.size() - 1 - pages.size()), std::memory_order_relaxed);
  // The decoded pages sit back to back in `a`; each range is cut from the pages it covers.
  std::vector<Array> parts;
  int64_t pos = 0, run_begin = -1, run_end = -1;
  r = 0;
  for (int k : pages) {
    const int64_t f = first[static_cast<size_t>(k)], e = first[static_cast<size_t>(k) + 1];
    while (r < ranges.size() && ranges[r].end <= f) ++r;
    for (size_t q = r; q < ranges.size() && ranges[q].begin < e; ++q) {
      const int64_t lo = std::max(ranges[q].begin, f) - f + pos, hi = std::min(ranges[q].end, e) - f + pos;
      if (lo == run_end) {
        run_end = hi;
      } else {
        if (run_begin >= 0) parts.push_back(a.Slice(run_begin, run_end - run_begin));
        run_begin = lo;
        run_end = hi;
      }
    }
    pos += e - f;
  }
  if (run_begin >= 0) parts.push_back(a.Slice(run_begin, run_end - run_begin));
  if (parts.size() == 1) return parts[0];
  if (parts.empty()) return a.Slice(0, 0);
  return Concatenate(parts, options_.pool);
}

Result<std::shared_ptr<RecordBatch>> ParquetFileReader::ReadRowGroup(int i, const std::vector<int>& columns) {
  QUIVER_ASSIGN_OR_RETURN(auto batches, ReadRowGroups({i}, columns));
  return std::move(batches[0]);
}

Result<std::vector<std::shared_ptr<RecordBatch>>> ParquetFileReader::ReadRowGroups(
    std::vector<int> row_groups, const std::vector<int>& columns, const std::vector<RowSelection>& selections,
    MemoryPool* pool) {
  return ReadRowGroupsOn(options_.thread_pool, std::move(row_groups), columns, selections, pool);
}

KeptPages::KeptPages() = default;
KeptPages::~KeptPages() = default;

void KeptPages::set_leaves(std::vector<int> leaves) {
  leaves_ = std::move(leaves);
  logs_.clear();
  for (size_t k = 0; k < leaves_.size(); ++k) logs_.push_back(std::make_unique<reader::PageLog>());
  filled_.assign(leaves_.size(), false);
  row_group_ = -1;
}

const reader::PageLog* KeptPages::Find(int row_group, int leaf) const {
  if (row_group != row_group_) return nullptr;
  for (size_t k = 0; k < leaves_.size(); ++k) {
    if (leaves_[k] == leaf && filled_[k]) return logs_[k].get();
  }
  return nullptr;
}

Result<std::shared_ptr<RecordBatch>> ParquetFileReader::ReadRowGroupHere(int i, const std::vector<int>& columns,
                                                                          const RowSelection* selection,
                                                                          MemoryPool* pool, const uint8_t* keep,
                                                                          int64_t kept, const KeptPages* pages) {
  std::vector<RowSelection> sel;
  if (selection != nullptr) sel.push_back(*selection);
  QUIVER_ASSIGN_OR_RETURN(auto batches, ReadRowGroupsOn(nullptr, {i}, columns, sel, pool, keep, kept, pages));
  return std::move(batches[0]);
}

Result<std::shared_ptr<Buffer>> ParquetFileReader::SelectRowGroupHere(int i, std::span<const BoundPredicate> preds,
                                                                       MemoryPool* pool, int64_t* selected,
                                                                       KeptPages* pages) {
  if (i < 0 || i >= num_row_groups()) {
    return Status::Invalid(fmt::format("{}: row group {} out of range (file has {})", path_, i, num_row_groups()));
  }
  const RowGroup& rg = footer_->metadata().row_groups[static_cast<size_t>(i)];
  const int64_t rows = rg.num_rows;
  if (rows < 0) return Status::Corrupt(fmt::format("{}: row group {} has {} rows", path_, i, rows));
  // A bit per row, every row in until a predicate rules it out; a word of slack past the last
  // (reader::WordAt and AndWordAt at any offset stay inside).
  thread_local std::vector<uint64_t> pass;
  pass.assign(static_cast<size_t>(rows / 64 + 2), ~uint64_t{0});
  std::shared_ptr<Buffer> scratch, input;
  reader::PageReaderOptions po;
  po.verify_crc = options_.verify_crc;
  po.pool = pool;
  po.scratch = &scratch;
  po.input = &input;
  if (pages != nullptr) {
    pages->row_group_ = i;
    pages->filled_.assign(pages->leaves_.size(), false);
  }
  std::vector<bool> done(preds.size(), false);
  for (size_t k = 0; k < preds.size(); ++k) {
    if (done[k]) continue;
    const int leaf = preds[k].leaf, field = preds[k].field;
    if (field < 0 || field >= schema_->num_fields() || leaf < 0 || leaf >= tree_.num_columns()) {
      return Status::Invalid(fmt::format("{}: predicate on column {} of a {}-column schema", path_, field,
                                         schema_->num_fields()));
    }
    std::vector<const BoundPredicate*> on_leaf;
    for (size_t m = k; m < preds.size(); ++m) {
      if (preds[m].leaf == leaf) {
        on_leaf.push_back(&preds[m]);
        done[m] = true;
      }
    }
    const ColumnDescriptor& col = tree_.columns()[static_cast<size_t>(leaf)];
    const TypePtr& type = schema_->field(field).type;
    auto ctx = [&](Status st) {
      return std::move(st).WithContext(
          fmt::format("{}: row group {}, column '{}'", path_, i, EscapeForMessage(col.dotted_path())));
    };
    compress::Codec codec;
    int64_t num_values = 0;
    auto bytes = ChunkBytes(i, leaf, &codec, &num_values, po.input);
    if (!bytes.ok()) return ctx(bytes.status());
    auto decrypt = DecryptionOf(i, leaf);
    if (!decrypt.ok()) return ctx(decrypt.status());
    po.decrypt = *decrypt;
    if (num_values != rows) {
      return ctx(Status::Corrupt(fmt::format("{} values, the row group has {} rows", num_values, rows)));
    }
    // Pages a chunk evaluated before one it cannot have ANDed the same answers the fallback
    // ANDs again: nothing to undo.
    reader::PageReaderOptions leaf_po = po;
    size_t kept_at = SIZE_MAX;
    if (pages != nullptr) {
      auto it = std::find(pages->leaves_.begin(), pages->leaves_.end(), leaf);
      if (it != pages->leaves_.end()) {
        kept_at = static_cast<size_t>(it - pages->leaves_.begin());
        leaf_po.log = pages->logs_[kept_at].get();
        leaf_po.log->Clear();
      }
    }
    Status st = reader::SelectFlatColumnChunk(col, type, std::move(*bytes), codec, num_values, leaf_po, on_leaf,
                                              pass.data());
    if (st.ok()) {
      if (kept_at != SIZE_MAX) pages->filled_[kept_at] = true;
      continue;
    }
    if (st.code() != StatusCode::kNotImplemented) return ctx(std::move(st));
    bytes = ChunkBytes(i, leaf, &codec, &num_values, po.input);
    if (!bytes.ok()) return ctx(bytes.status());
    auto a = reader::ReadFlatColumnChunk(col, type, std::move(*bytes), codec, num_values, po);
    if (!a.ok()) return ctx(a.status());
    if (a->length() != rows) {
      return ctx(Status::Corrupt(fmt::format("{} values, the row group has {} rows", a->length(), rows)));
    }
    for (const BoundPredicate* p : on_leaf) {
      int64_t n = 0;
      auto bits = EvaluatePredicate(*a, p->op, p->value, &n, pool);
      if (!bits.ok()) return ctx(bits.status());
      reader::AndBitsAt(pass.data(), 0, (*bits)->data(), rows);
    }
  }
  // Rows past the group's were never cleared: out of the count and the bitmap.
  const int64_t whole = rows / 64, tail = rows % 64;
  if (tail > 0) pass[static_cast<size_t>(whole)] &= (uint64_t{1} << tail) - 1;
  int64_t count = 0;
  for (int64_t w = 0; w < whole + (tail > 0); ++w) count += std::popcount(pass[static_cast<size_t>(w)]);
  QUIVER_ASSIGN_OR_RETURN(auto out, Buffer::Allocate(bit_util::BytesForBits(rows), pool));
  if (rows > 0) std::memcpy(out->mutable_data(), pass.data(), static_cast<size_t>(bit_util::BytesForBits(rows)));
  *selected = count;
  return out;
}

Result<std::vector<std::shared_ptr<RecordBatch>>> ParquetFileReader::ReadRowGroupsOn(
    ThreadPool* threads, std::vector<int> row_groups, const std::vector<int>& columns,
    const std::vector<RowSelection>& selections, MemoryPool* pool, const uint8_t* keep, int64_t kept,
    const KeptPages* pages) {
  if (keep != nullptr && row_groups.size() != 1) {
    return Status::Invalid(fmt::format("{}: a row bitmap applies to one row group, not {}", path_, row_groups.size()));
  }
  MemoryPool* const out_pool = pool != nullptr ? pool : options_.pool;
  if (row_groups.empty() && selections.empty()) {
    for (int g = 0; g < num_row_groups(); ++g) row_groups.push_back(g);
  }
  if (!selections.empty() && selections.size() != row_groups.size()) {
    return Status::Invalid(fmt::format("{}: {} row selections for {} row groups", path_, selections.size(),
                                       row_groups.size()));
  }
  for (int g : row_groups) {
    if (g < 0 || g >= num_row_groups()) {
      return Status::Invalid(fmt::format("{}: row group {} out of range (file has {})", path_, g, num_row_groups()));
    }
  }
  std::vector<int> chosen = columns;
  if (chosen.empty()) {
    for (int f = 0; f < schema_->num_fields(); ++f) chosen.push_back(f);
  }
  for (int f : chosen) {
    if (f < 0 || f >= schema_->num_fields()) {
      return Status::Invalid(fmt::format("{}: column {} out of range (schema has {})", path_, f, schema_->num_fields()));
    }
  }
  std::vector<Field> fields;
  for (int f : chosen) fields.push_back(schema_->field(f));
  // Flat top-level leaves decode straight into their arrays; the leaves of nested fields keep
  // their levels and are assembled once all of them are decoded.
  struct GroupOut {
    int64_t rows = 0;        // in the output (the selection's)
    int64_t group_rows = 0;  // in the file
    const RowSelection* sel = nullptr;  // null: every row
    const uint8_t* keep = nullptr;      // null: every row of the selection
    int64_t kept = 0;
    std::vector<Array> arrays;
    std::vector<std::unique_ptr<reader::LeafChunk>> leaves;
  };
  std::vector<GroupOut> out(row_groups.size());
  struct Task {
    size_t group;  // index into `out`
    size_t slot;   // index into `arrays` (flat) or SIZE_MAX (a nested field's leaf)
    int leaf;
    int field;
    int64_t cost;  // the chunk's uncompressed bytes: the longest tasks start first
  };
  std::vector<Task> tasks;
  for (size_t gi = 0; gi < row_groups.size(); ++gi) {
    const RowGroup& rg = footer_->metadata().row_groups[static_cast<size_t>(row_groups[gi])];
    out[gi].group_rows = rg.num_rows;
    out[gi].rows = rg.num_rows;
    if (!selections.empty() && !selections[gi].all) {
      const RowSelection& sel = selections[gi];
      for (size_t k = 0; k < sel.ranges.size(); ++k) {
        const RowRange& r = sel.ranges[k];
        if (r.begin < 0 || r.end <= r.begin || r.end > rg.num_rows || (k > 0 && r.begin < sel.ranges[k - 1].end)) {
          return Status::Invalid(fmt::format("{}: row group {}: row range [{}, {}) is empty, out of order or outside "
                                             "its {} rows", path_, row_groups[gi], r.begin, r.end, rg.num_rows));
        }
      }
      out[gi].sel = &sel;
      out[gi].rows = sel.num_rows(rg.num_rows);
    }
    if (keep != nullptr) {
      out[gi].keep = keep;
      out[gi].kept = kept;
    }
    out[gi].arrays.resize(chosen.size());
    out[gi].leaves.resize(static_cast<size_t>(tree_.num_columns()));
    auto cost = [&](int leaf) -> int64_t {
      const auto& md = rg.columns[static_cast<size_t>(leaf)].meta_data;
      return md ? md->total_uncompressed_size : 0;
    };
    for (size_t k = 0; k < chosen.size(); ++k) {
      const int32_t node = tree_.root().children[static_cast<size_t>(chosen[k])];
      const SchemaNode& n = tree_.node(node);
      if (n.is_leaf() && n.repetition != FieldRepetitionType::REPEATED) {
        tasks.push_back({gi, k, n.leaf_index, chosen[k], cost(n.leaf_index)});
      } else if (keep != nullptr) {
        return Status::Invalid(fmt::format("{}: a row bitmap applies to flat columns only, not '{}'", path_,
                                           EscapeForMessage(fields[k].name)));
      } else {
        for (int32_t leaf : tree_.LeavesUnder(node)) tasks.push_back({gi, SIZE_MAX, leaf, chosen[k], cost(leaf)});
      }
    }
  }
  if (footer_->decryptor() != nullptr) {
    // Every encrypted column read without its key named at once, before anything decodes.
    std::vector<int> leaves;
    for (const Task& t : tasks) {
      if (std::find(leaves.begin(), leaves.end(), t.leaf) == leaves.end()) leaves.push_back(t.leaf);
    }
    QUIVER_RETURN_NOT_OK(CheckKeys(leaves));
  }
  std::stable_sort(tasks.begin(), tasks.end(), [](const Task& a, const Task& b) { return a.cost > b.cost; });

  auto run = [&](const Task& t, const reader::PageReaderOptions& base_po) -> Status {
    const int g = row_groups[t.group];
    const ColumnDescriptor& col = tree_.columns()[static_cast<size_t>(t.leaf)];
    // Only a chunk known to hold no nulls decodes into the loop's output arena: with nulls its
    // values are decoded densely, then spread into a new buffer, which would leave a hole.
    reader::PageReaderOptions po = base_po;
    {
      auto d = DecryptionOf(g, t.leaf);
      if (!d.ok()) {
        return std::move(d).status().WithContext(
            fmt::format("{}: row group {}, column '{}'", path_, g, EscapeForMessage(col.dotted_path())));
      }
      po.decrypt = *d;
    }
    if (po.output_pool != nullptr && col.max_definition_level > 0) {
      const auto& md = footer_->metadata().row_groups[static_cast<size_t>(g)].columns[static_cast<size_t>(t.leaf)].meta_data;
      const Statistics* st = md ? md->statistics.get() : nullptr;
      if (st == nullptr || !st->null_count || *st->null_count != 0) po.output_pool = nullptr;
    }
    auto ctx = [&](Status st) {
      return std::move(st).WithContext(
          fmt::format("{}: row group {}, column '{}'", path_, g, EscapeForMessage(col.dotted_path())));
    };
    compress::Codec codec;
    int64_t num_values = 0;
    GroupOut& o = out[t.group];
    if (o.sel != nullptr || o.keep != nullptr) po.output_pool = nullptr;  // what is decoded is cut, then dropped
    // The selection's rows that `keep` keeps (the decoder applied it when there was no selection).
    auto keep_rows = [&](Result<Array> a) -> Result<Array> {
      if (!a.ok() || o.keep == nullptr) return a;
      return FilterArray(*a, o.keep, o.kept, out_pool);
    };
    if (t.slot != SIZE_MAX && o.sel != nullptr) {
      auto a = ReadSelectedPages(g, t.leaf, schema_->field(t.field).type, o.group_rows, o.sel->ranges, po);
      if (!a.ok()) return ctx(a.status());
      if (a->data()) {
        a = keep_rows(std::move(a));
        if (!a.ok()) return ctx(a.status());
        o.arrays[t.slot] = std::move(*a);
        return Status::OK();
      }
    }
    // A chunk decoded to the kept rows alone (a checked count: the bitmap decides the batch's length).
    auto take_kept = [&](Array a) -> Status {
      if (a.length() != o.kept) {
        return ctx(Status::Corrupt(
            fmt::format("{} rows kept of the row group's {}, the bitmap keeps {}", a.length(), o.group_rows, o.kept)));
      }
      o.arrays[t.slot] = std::move(a);
      return Status::OK();
    };
    if (t.slot != SIZE_MAX && o.keep != nullptr && o.sel == nullptr && pages != nullptr) {
      if (const reader::PageLog* log = pages->Find(g, t.leaf)) {
        // The predicate pass checked the chunk's value count against the group's rows.
        reader::PageReaderOptions rpo = po;
        rpo.replay = log;
        auto a = reader::ReadFlatColumnChunk(col, schema_->field(t.field).type, nullptr, compress::Codec::kUncompressed,
                                             o.group_rows, rpo, o.keep);
        if (a.ok()) return take_kept(std::move(*a));
        if (a.status().code() != StatusCode::kNotImplemented) return ctx(a.status());
      }
    }
    auto bytes = ChunkBytes(g, t.leaf, &codec, &num_values, po.input);
    if (!bytes.ok()) return ctx(bytes.status());
    if (t.slot != SIZE_MAX) {
      const TypePtr& type = schema_->field(t.field).type;
      if (o.keep != nullptr && o.sel == nullptr) {
        // The kept rows only, compacted as the pages decode; a chunk with nulls or booleans is
        // decoded whole below and filtered. The bitmap has a bit per row of the group: a chunk
        // of another length would read past it.
        if (num_values != o.group_rows) {
          return ctx(Status::Corrupt(fmt::format("{} values, the row group has {} rows", num_values, o.group_rows)));
        }
        auto a = reader::ReadFlatColumnChunk(col, type, *bytes, codec, num_values, po, o.keep);
        if (a.ok()) return take_kept(std::move(*a));
        if (a.status().code() != StatusCode::kNotImplemented) return ctx(a.status());
        bytes = ChunkBytes(g, t.leaf, &codec, &num_values, po.input);
        if (!bytes.ok()) return ctx(bytes.status());
      }
      auto a = reader::ReadFlatColumnChunk(col, type, std::move(*bytes), codec, num_values, po);
      if (!a.ok()) return ctx(a.status());
      if (a->length() != o.group_rows) {
        return ctx(Status::Corrupt(fmt::format("{} values, the row group has {} rows", a->length(), o.group_rows)));
      }
      if (o.sel != nullptr) {
        a = TakeRanges(*a, o.sel->ranges, out_pool);
        if (!a.ok()) return ctx(a.status());
      }
      a = keep_rows(std::move(a));
      if (!a.ok()) return ctx(a.status());
      o.arrays[t.slot] = std::move(*a);
    } else {
      auto leaf_type = tree_.ToField(col.node);
      if (!leaf_type.ok()) return ctx(leaf_type.status());
      TypePtr type = leaf_type->type;
      // A repeated leaf maps to a list of itself; the values have the element type.
      if (tree_.node(col.node).repetition == FieldRepetitionType::REPEATED) type = type->field(0).type;
      auto leaf = reader::ReadLeafColumnChunk(col, type, std::move(*bytes), codec, num_values, po);
      if (!leaf.ok()) return ctx(leaf.status());
      o.leaves[static_cast<size_t>(t.leaf)] = std::move(*leaf);
    }
    return Status::OK();
  };
  // One decode loop per pool thread, each taking the next task from a shared counter (so
  // chunks of every chosen row group balance over the threads) and keeping one decompression
  // buffer for all its chunks. The caller may run one of the loops while it waits, so no more
  // than num_threads() chunks decode at once.
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  int64_t total_bytes = 0;
  for (const Task& t : tasks) total_bytes += t.cost;
  const bool use_arena = total_bytes >= options_.output_arena_min_bytes;
  const size_t pool_threads =
      threads == nullptr ? 1 : static_cast<size_t>(threads->num_threads());
  const size_t loop_count = std::max<size_t>(1, std::min(pool_threads, tasks.size()));
  // Blocks grow with the read, to half a loop's share of its uncompressed bytes (whole 2 MiB,
  // header included; decoded output is usually larger still, dictionaries expanded): each
  // block leaves the rest of the page (or 2 MiB populate step) its last buffer ends in
  // resident and unused, so fewer blocks hold less (lineitem's 1.14 GB at one thread on 2 MiB
  // pages peaked 26 MB lower in 128 MiB blocks than in 32 MiB ones). Untouched block ends are
  // not resident; the tracker is charged for them, at most one block per loop.
  int64_t block_bytes = options_.output_block_bytes;
  if (use_arena) {
    const int64_t share = total_bytes / static_cast<int64_t>(loop_count) / 2;
    const int64_t page = int64_t{2} << 20;
    if (share > block_bytes) {
      block_bytes = std::min((share + kAlignment + page - 1) / page * page - kAlignment,
                             std::max(options_.output_block_max_bytes, options_.output_block_bytes));
    }
  }
  auto loop = [&]() -> Status {
    std::shared_ptr<Buffer> scratch, input;
    // Closed when the loop ends; it lives on while output carved from it does.
    struct ArenaOwner {
      reader::OutputArenaPool* p = nullptr;
      ~ArenaOwner() {
        if (p) p->Close();
      }
    } arena;
    if (use_arena) arena.p = reader::OutputArenaPool::Make(out_pool, block_bytes, options_.output_small_pages);
    reader::PageReaderOptions po;
    po.verify_crc = options_.verify_crc;
    po.pool = out_pool;
    po.scratch = &scratch;
    po.input = &input;
    po.output_pool = arena.p;
    for (;;) {
      const size_t k = next.fetch_add(1, std::memory_order_relaxed);
      if (k >= tasks.size() || failed.load(std::memory_order_relaxed)) return Status::OK();
      Status st = run(tasks[k], po);
      if (!st.ok()) {
        failed.store(true, std::memory_order_relaxed);
        return st;
      }
    }
  };
  const size_t loops = loop_count;
  if (loops <= 1) {
    QUIVER_RETURN_NOT_OK(loop());
  } else {
    TaskGroup group(threads);
    for (size_t l = 0; l < loops; ++l) group.Submit(loop);
    QUIVER_RETURN_NOT_OK(group.Wait());
  }

  std::vector<std::shared_ptr<RecordBatch>> batches;
  batches.reserve(out.size());
  auto schema = std::make_shared<const Schema>(fields);
  for (size_t gi = 0; gi < out.size(); ++gi) {
    GroupOut& o = out[gi];
    for (size_t k = 0; k < chosen.size(); ++k) {
      if (o.arrays[k].data()) continue;
      const int32_t node = tree_.root().children[static_cast<size_t>(chosen[k])];
      auto ctx = [&](Status st) {
        return std::move(st).WithContext(
            fmt::format("{}: row group {}, column '{}'", path_, row_groups[gi], EscapeForMessage(fields[k].name)));
      };
      auto a = reader::AssembleNested(tree_, node, fields[k].type, o.leaves, out_pool);
      if (!a.ok()) return ctx(a.status());
      if (a->length() != o.group_rows) {
        return ctx(Status::Corrupt(fmt::format("{} values, the row group has {} rows", a->length(), o.group_rows)));
      }
      if (o.sel != nullptr) {
        a = TakeRanges(*a, o.sel->ranges, out_pool);
        if (!a.ok()) return ctx(a.status());
      }
      o.arrays[k] = std::move(*a);
    }
    o.leaves.clear();
    batches.push_back(std::make_shared<RecordBatch>(schema, o.keep != nullptr ? o.kept : o.rows, std::move(o.arrays)));
  }
  return batches;
}

Result<std::vector<int>> ParquetFileReader::ResolveFields(const std::vector<std::string>& names) const {
  std::vector<int> out;
  for (const std::string& name : names) {
    const int k = schema_->GetFieldIndex(name);
    if (k < 0) return Status::Invalid(fmt::format("{}: no column named '{}'", path_, name));
    out.push_back(k);
  }
  return out;
}

Result<BoundPredicate> ParquetFileReader::BindPredicate(std::string_view column, CompareOp op, Literal value) const {
  const int f = schema_->GetFieldIndex(std::string(column));
  if (f < 0) return Status::Invalid(fmt::format("{}: no column named '{}'", path_, column));
  const SchemaNode& n = tree_.node(tree_.root().children[static_cast<size_t>(f)]);
  if (!n.is_leaf() || n.repetition == FieldRepetitionType::REPEATED) {
    return Status::NotImplemented(fmt::format("{}: column '{}' is nested; only flat columns can be compared", path_,
                                              column));
  }
  const DataType& type = *schema_->field(f).type;
  auto kind = LiteralKindFor(type);
  if (!kind.ok()) return std::move(kind).status().WithContext(fmt::format("{}: column '{}'", path_, column));
  const ColumnDescriptor& col = tree_.columns()[static_cast<size_t>(n.leaf_index)];
  if (col.physical_type == Type::INT96) {
    return Status::NotImplemented(fmt::format("{}: column '{}': comparisons on INT96 timestamps are not supported",
                                              path_, column));
  }
  if (*kind != value.kind) {
    return Status::Invalid(fmt::format("{}: column '{}' of type {} cannot be compared with a {} literal", path_,
                                       column, type.ToString(),
                                       value.kind == Literal::Kind::kInt     ? "integer"
                                       : value.kind == Literal::Kind::kFloat ? "floating-point"
                                                                             : "string"));
  }
  BoundPredicate p;
  p.field = f;
  p.leaf = n.leaf_index;
  p.physical = col.physical_type;
  p.is_unsigned = type.id() == TypeId::kUInt8 || type.id() == TypeId::kUInt16 || type.id() == TypeId::kUInt32 ||
                  type.id() == TypeId::kUInt64;
  const auto& orders = footer_->metadata().column_orders;
  // Without column_orders, min_value/max_value (when written) are taken to be in type order.
  if (orders && static_cast<size_t>(p.leaf) < orders->size()) p.type_order = (*orders)[static_cast<size_t>(p.leaf)].TYPE_ORDER.has_value();
  p.op = op;
  p.value = std::move(value);
  return p;
}

std::vector<int> ParquetFileReader::RowGroupsMayMatch(const BoundPredicate& p, std::vector<int> row_groups) const {
  if (row_groups.empty()) {
    for (int g = 0; g < num_row_groups(); ++g) row_groups.push_back(g);
  }
  std::vector<int> out;
  for (int g : row_groups) {
    if (g < 0 || g >= num_row_groups()) continue;
    const ColumnChunk& chunk = footer_->metadata().row_groups[static_cast<size_t>(g)].columns[static_cast<size_t>(p.leaf)];
    const Statistics* stats = chunk.meta_data ? chunk.meta_data->statistics.get() : nullptr;
    if (StatisticsMayMatch(p, stats, chunk.meta_data ? chunk.meta_data->num_values : 0)) out.push_back(g);
  }
  return out;
}

Result<RowSelection> ParquetFileReader::PageRowsMayMatch(const BoundPredicate& p, int g, int64_t* pages,
                                                         int64_t* pages_ruled_out) const {
  if (pages) *pages = 0;
  if (pages_ruled_out) *pages_ruled_out = 0;
  if (g < 0 || g >= num_row_groups()) {
    return Status::Invalid(fmt::format("{}: row group {} out of range (file has {})", path_, g, num_row_groups()));
  }
  const RowGroup& rg = footer_->metadata().row_groups[static_cast<size_t>(g)];
  const ColumnChunk& chunk = rg.columns[static_cast<size_t>(p.leaf)];
  // ColumnIndex bounds are in the column's order; only the type's order is understood here.
  if (!p.type_order || !chunk.column_index_offset || !chunk.column_index_length) return RowSelection::All();
  auto ctx = [&](Status st) {
    return std::move(st).WithContext(fmt::format("{}: row group {}, column '{}'", path_, g,
                                                 EscapeForMessage(tree_.columns()[static_cast<size_t>(p.leaf)].dotted_path())));
  };
  Arena arena(options_.pool);
  auto oi = ReadOffsetIndex(g, p.leaf, &arena);
  if (!oi.ok()) return ctx(oi.status());
  std::vector<int64_t> first;
  if (!*oi || !PageFirstRows(**oi, rg.num_rows, &first)) return RowSelection::All();
  const int64_t off = *chunk.column_index_offset, len = *chunk.column_index_length;
  if (off < 0 || len <= 0 || off > file_->size() || len > file_->size() - off) {
    return ctx(Status::Corrupt(fmt::format("column index [{}, +{}) lies outside the file ({} bytes)", off, len,
                                           file_->size())));
  }
  auto bytes = ReadChunkModule(g, p.leaf, off, len, static_cast<int>(crypto::Module::kColumnIndex), "column index");
  if (!bytes.ok()) return ctx(bytes.status());
  ColumnIndex ci;  // its bounds point into `bytes`
  Status st = DecodeColumnIndex((*bytes)->span(), &arena, &ci);
  if (!st.ok()) return ctx(std::move(st).WithContext(fmt::format("column index at {}", off)));
  const size_t n = first.size() - 1;
  if (ci.null_pages.size() != n || ci.min_values.size() != n || ci.max_values.size() != n ||
      (ci.nan_counts && ci.nan_counts->size() != n)) {
    return RowSelection::All();
  }
  RowSelection sel = RowSelection::Ranges({});
  int64_t ruled_out = 0;
  for (size_t k = 0; k < n; ++k) {
    bool may = !ci.null_pages[k];
    if (may) {
      Statistics s;
      s.min_value = ci.min_values[k];
      s.max_value = ci.max_values[k];
      // Page bounds of byte arrays may be truncated, and the index does not say when.
      if (p.physical == Type::BYTE_ARRAY || p.physical == Type::FIXED_LEN_BYTE_ARRAY) {
        s.is_min_value_exact = false;
        s.is_max_value_exact = false;
      }
      if (ci.nan_counts) s.nan_count = (*ci.nan_counts)[k];
      may = StatisticsMayMatch(p, &s, first[k + 1] - first[k]);
    }
    if (!may) {
      ++ruled_out;
      continue;
    }
    if (!sel.ranges.empty() && sel.ranges.back().end == first[k]) {
      sel.ranges.back().end = first[k + 1];
    } else {
      sel.ranges.push_back({first[k], first[k + 1]});
    }
  }
  if (pages) *pages = static_cast<int64_t>(n);
  if (pages_ruled_out) *pages_ruled_out = ruled_out;
  if (ruled_out == 0) return RowSelection::All();
  return sel;
}

Result<std::optional<BloomFilter>> ParquetFileReader::ReadEncryptedBloomFilter(int g, int leaf) const {
  const ColumnChunk& chunk = footer_->metadata().row_groups[static_cast<size_t>(g)].columns[static_cast<size_t>(leaf)];
  const int64_t size = file_->size();
  int64_t off = *chunk.meta_data->bloom_filter_offset;
  // Two modules, the header's and the bitset's, each behind its 4-byte length.
  std::shared_ptr<Buffer> parts[2];
  const crypto::Module kinds[2] = {crypto::Module::kBloomFilterHeader, crypto::Module::kBloomFilterBitset};
  for (int k = 0; k < 2; ++k) {
    if (off < 0 || off > size - 4) {
      return Status::Corrupt(fmt::format("{}: encrypted module truncated at offset {} of a {}-byte file",
                                         crypto::ModuleName(kinds[k]), off, size));
    }
    QUIVER_ASSIGN_OR_RETURN(auto len_bytes, file_->ReadAt(off, 4, options_.pool));
    uint32_t len;
    std::memcpy(&len, len_bytes->data(), 4);
    if (int64_t{len} > size - off - 4) {
      return Status::Corrupt(fmt::format("{}: encrypted module truncated: its length says {} bytes, {} are left",
                                         crypto::ModuleName(kinds[k]), len, size - off - 4));
    }
    QUIVER_ASSIGN_OR_RETURN(parts[k], ReadChunkModule(g, leaf, off, int64_t{len} + 4, static_cast<int>(kinds[k]),
                                                      crypto::ModuleName(kinds[k])));
    off += int64_t{len} + 4;
  }
  // The header module may hold bytes after the struct (parquet-mr's does): the bitset is the
  // second module, whatever follows the header in the first.
  Arena arena(options_.pool);
  BloomFilterHeader h;
  size_t header = 0;
  Status st = DecodeBloomFilterHeader(parts[0]->span(), &arena, &h, &header);
  if (!st.ok()) return Status::Corrupt(fmt::format("bloom filter header: {}", st.message()));
  QUIVER_ASSIGN_OR_RETURN(auto joined, Buffer::Allocate(static_cast<int64_t>(header) + parts[1]->size(), options_.pool));
  std::memcpy(joined->mutable_data(), parts[0]->data(), header);
  std::memcpy(joined->mutable_data() + header, parts[1]->data(), static_cast<size_t>(parts[1]->size()));
  auto f = BloomFilter::Parse(joined->span(), options_.pool);
  if (!f.ok()) return f.status().WithContext("bloom filter");
  return std::optional<BloomFilter>(std::move(*f));
}

Result<bool> ParquetFileReader::BloomMayMatch(const BoundPredicate& p, int g) const {
  if (p.op != CompareOp::kEq) return true;
  if (g < 0 || g >= num_row_groups()) {
    return Status::Invalid(fmt::format("{}: row group {} out of range (file has {})", path_, g, num_row_groups()));
  }
  const ColumnChunk& chunk = footer_->metadata().row_groups[static_cast<size_t>(g)].columns[static_cast<size_t>(p.leaf)];
  if (!chunk.meta_data || !chunk.meta_data->bloom_filter_offset) return true;
  // -0 equals 0 and NaN equals NaN (as rows compare) with other bytes.
  if (p.value.kind == Literal::Kind::kFloat && (p.value.f == 0 || std::isnan(p.value.f))) return true;
  // The literal's PLAIN bytes as the writer hashed the column's values.
  const std::optional<std::string> plain = BloomBytesOf(p.value, p.physical);
  if (!plain) return true;
  const crypto::FileDecryptor* dec = footer_->decryptor();
  const bool encrypted = dec && dec->column(static_cast<size_t>(p.leaf)) && dec->column(static_cast<size_t>(p.leaf))->encrypted;
  auto filter = encrypted ? ReadEncryptedBloomFilter(g, p.leaf) : ReadBloomFilter(*file_, *chunk.meta_data, options_.pool);
  if (!filter.ok()) {
    return std::move(filter).status().WithContext(fmt::format(
        "{}: row group {}, column '{}'", path_, g,
        EscapeForMessage(tree_.columns()[static_cast<size_t>(p.leaf)].dotted_path())));
  }
  if (!*filter) return true;
  return (*filter)->MightContain(*plain);
}

Result<std::unique_ptr<ParquetBatchReader>> ParquetFileReader::GetBatchReader(std::vector<int> row_groups,
                                                                              std::vector<int> columns,
                                                                              int64_t batch_rows) {
  if (batch_rows <= 0) return Status::Invalid(fmt::format("batch size must be positive, got {}", batch_rows));
  if (row_groups.empty()) {
    for (int g = 0; g < num_row_groups(); ++g) row_groups.push_back(g);
  }
  for (int g : row_groups) {
    if (g < 0 || g >= num_row_groups()) {
      return Status::Invalid(fmt::format("{}: row group {} out of range (file has {})", path_, g, num_row_groups()));
    }
  }
  std::unique_ptr<ParquetBatchReader> r(new ParquetBatchReader());
  r->file_ = this;
  r->row_groups_ = std::move(row_groups);
  r->columns_ = std::move(columns);
  r->batch_rows_ = batch_rows;
  return r;
}

Result<std::shared_ptr<RecordBatch>> ParquetBatchReader::Next() {
  while (!current_ || offset_ >= current_->num_rows()) {
    if (next_group_ >= row_groups_.size()) return std::shared_ptr<RecordBatch>();
    QUIVER_ASSIGN_OR_RETURN(current_, file_->ReadRowGroup(row_groups_[next_group_++], columns_));
    offset_ = 0;
  }
  const int64_t n = std::min(batch_rows_, current_->num_rows() - offset_);
  auto out = offset_ == 0 && n == current_->num_rows() ? current_ : current_->Slice(offset_, n);
  offset_ += n;
  return out;
}

}  // namespace quiver::parquet
