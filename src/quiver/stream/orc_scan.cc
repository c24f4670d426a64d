#include "quiver/stream/orc_scan.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "quiver/orc/format.h"
#include "quiver/orc/writer/bloom_filter_internal.h"
#include "quiver/stream/orc_stream.h"
#include "quiver/stream/scan_literal.h"

namespace quiver::stream {

using parquet::CompareOp;
using parquet::Literal;

namespace {

template <typename T>
bool RangeMayMatch(const T& lo, const T& hi, CompareOp op, const T& v) {
  switch (op) {
    case CompareOp::kEq: return !(v < lo) && !(hi < v);
    case CompareOp::kNe: return !(!(lo < hi) && !(hi < lo) && !(v < lo) && !(lo < v));
    case CompareOp::kLt: return lo < v;
    case CompareOp::kLe: return !(v < lo);
    case CompareOp::kGt: return v < hi;
    case CompareOp::kGe: return !(hi < v);
  }
  return true;
}

}  // namespace

bool OrcBloomMayContain(const orc::BloomFilter& filter, std::string_view bytes) {
  // The bits: the UTF-8 encoding's little-endian bytes, or the original encoding's words.
  std::vector<uint64_t> words;
  const uint64_t* bits = filter.bitset.data();
  size_t nwords = filter.bitset.size();
  if (!filter.utf8bitset.empty()) {
    words.resize(filter.utf8bitset.size() / 8);
    std::memcpy(words.data(), filter.utf8bitset.data(), words.size() * 8);
    bits = words.data();
    nwords = words.size();
  }
  if (nwords == 0 || filter.num_hash_functions == 0 || filter.num_hash_functions > 64) return true;
  const uint64_t hash = orc::writer::OrcBloomFilter::Murmur3Hash64(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  const int32_t h1 = static_cast<int32_t>(hash), h2 = static_cast<int32_t>(hash >> 32);
  const uint64_t num_bits = nwords * 64;
  for (uint32_t i = 1; i <= filter.num_hash_functions; ++i) {
    int32_t combined = static_cast<int32_t>(static_cast<uint32_t>(h1) + i * static_cast<uint32_t>(h2));
    if (combined < 0) combined = ~combined;
    const uint64_t pos = static_cast<uint64_t>(combined) % num_bits;
    if (((bits[pos >> 6] >> (pos & 63)) & 1) == 0) return false;
  }
  return true;
}

bool OrcStatisticsMayMatch(const orc::ColumnStatistics& s, const DataType& type, CompareOp op, const Literal& lit) {
  // Every value null: no comparison holds (nulls never match). Only when the statistics say so
  // consistently: some writers (TestOrcFile.testSargSkipPickupGroupWithoutIndexJava) count 0
  // values and no nulls for a stripe of 10,000 rows.
  if (s.number_of_values.has_value() && *s.number_of_values == 0 && s.has_null.value_or(false)) return false;
  switch (type.id()) {
    case TypeId::kInt8: case TypeId::kInt16: case TypeId::kInt32: case TypeId::kInt64:
      if (lit.kind == Literal::Kind::kInt && s.int_statistics && s.int_statistics->minimum && s.int_statistics->maximum) {
        return RangeMayMatch<__int128>(*s.int_statistics->minimum, *s.int_statistics->maximum, op, lit.i);
      }
      return true;
    case TypeId::kDate32:
      if (lit.kind == Literal::Kind::kInt && s.date_statistics && s.date_statistics->minimum && s.date_statistics->maximum) {
        return RangeMayMatch<__int128>(*s.date_statistics->minimum, *s.date_statistics->maximum, op, lit.i);
      }
      return true;
    case TypeId::kFloat32:
    case TypeId::kFloat64:
      if (lit.kind == Literal::Kind::kFloat && s.double_statistics && s.double_statistics->minimum && s.double_statistics->maximum) {
        double lo = *s.double_statistics->minimum, hi = *s.double_statistics->maximum;
        // NaN is not ordered by the statistics: a NaN bound or literal, or >, >=, != (NaN sorts
        // above every number), keeps the stripe.
        if (std::isnan(lo) || std::isnan(hi) || std::isnan(lit.f)) return true;
        if (op == CompareOp::kGt || op == CompareOp::kGe || op == CompareOp::kNe) return true;
        return RangeMayMatch<double>(lo, hi, op, lit.f);
      }
      return true;
    case TypeId::kString:
      if (lit.kind == Literal::Kind::kBytes && s.string_statistics) {
        const auto& st = *s.string_statistics;
        // Whole min/max, else the truncated bounds (still bounds; != needs exact ones).
        const std::optional<std::string>& lo = st.minimum ? st.minimum : st.lower_bound;
        const std::optional<std::string>& hi = st.maximum ? st.maximum : st.upper_bound;
        if (!lo || !hi) return true;
        if (op == CompareOp::kNe && !(st.minimum && st.maximum)) return true;
        return RangeMayMatch<std::string_view>(*lo, *hi, op, lit.bytes);
      }
      return true;
    default:
      return true;
  }
}

Result<std::unique_ptr<OrcScan>> OrcScan::Make(std::shared_ptr<orc::OrcFileReader> file, OrcScanOptions options) {
  auto scan = std::unique_ptr<OrcScan>(new OrcScan());
  scan->file_ = file;
  std::vector<std::string> read = options.columns;
  std::vector<int> stripes;
  for (int i = 0; i < file->num_stripes(); ++i) stripes.push_back(i);
  if (options.where) {
    const OrcWhere& w = *options.where;
    const int f = file->schema()->GetFieldIndex(w.column);
    if (f < 0) {
      return Status::Invalid(fmt::format("{}: --where: no top-level column named '{}'", file->path(), w.column));
    }
    const DataType& type = *file->schema()->field(f).type;
    auto lit = ParseLiteral(type, w.literal, w.column);
    if (!lit.ok()) return lit.status().WithContext("--where");
    scan->literal_ = std::move(*lit);
    scan->where_ = w;
    if (!read.empty() && std::find(read.begin(), read.end(), w.column) == read.end()) read.push_back(w.column);
    // Pruning: file statistics, stripe statistics, then each stripe's row groups.
    QUIVER_ASSIGN_OR_RETURN(uint32_t id, file->ColumnIdOf(w.column));
    const auto& fstats = file->footer().statistics;
    if (id < fstats.size() && !OrcStatisticsMayMatch(fstats[id], type, w.op, scan->literal_)) {
      scan->counters_.skipped_by_file_statistics = static_cast<int64_t>(stripes.size());
      stripes.clear();
    }
    auto md = file->metadata();
    std::vector<int> kept;
    for (int s : stripes) {
      if (md.ok() && static_cast<size_t>(s) < (*md)->stripe_stats.size()) {
        const auto& cs = (*md)->stripe_stats[static_cast<size_t>(s)].col_stats;
        if (id < cs.size() && !OrcStatisticsMayMatch(cs[id], type, w.op, scan->literal_)) {
          ++scan->counters_.skipped_by_stripe_statistics;
          continue;
        }
      }
      // Row groups: the stripe is skipped when every row group's statistics (or, for = on a
      // string, its UTF-8 bloom filter) exclude the value. A stripe without index streams is read.
      if (file->footer().row_index_stride > 0) {
        QUIVER_ASSIGN_OR_RETURN(auto sf, file->ReadStripeFooter(s));
        QUIVER_ASSIGN_OR_RETURN(auto index_bytes, file->ReadStream(s, sf, id, orc::format::stream_kind::kRowIndex));
        if (index_bytes != nullptr) {
          QUIVER_ASSIGN_OR_RETURN(auto index, orc::DecodeRowIndex(index_bytes->view()));
          std::vector<bool> may(index.entry.size(), true);
          bool any = false;
          for (size_t g = 0; g < index.entry.size(); ++g) {
            if (index.entry[g].statistics) may[g] = OrcStatisticsMayMatch(*index.entry[g].statistics, type, w.op, scan->literal_);
            any = any || may[g];
          }
          if (!index.entry.empty() && !any) {
            ++scan->counters_.skipped_by_row_group_statistics;
            continue;
          }
          // Only UTF-8 bloom filters of strings: the original encoding's filters of other types
          // hashed int64 inconsistently in the C++ writer (before ORC-1024), so they never skip.
          if (w.op == CompareOp::kEq && type.id() == TypeId::kString) {
            QUIVER_ASSIGN_OR_RETURN(auto bloom_bytes, file->ReadStream(s, sf, id, orc::format::stream_kind::kBloomFilterUtf8));
            if (bloom_bytes != nullptr) {
              QUIVER_ASSIGN_OR_RETURN(auto blooms, orc::DecodeBloomFilterIndex(bloom_bytes->view()));
              if (blooms.bloom_filter.size() == index.entry.size()) {
                bool found = false;
                for (size_t g = 0; g < blooms.bloom_filter.size() && !found; ++g) {
                  found = may[g] && OrcBloomMayContain(blooms.bloom_filter[g], scan->literal_.bytes);
                }
                if (!found) {
                  ++scan->counters_.skipped_by_bloom_filter;
                  continue;
                }
              }
            }
          }
        }
      }
      kept.push_back(s);
    }
    stripes = std::move(kept);
  }
  scan->counters_.stripes_read = static_cast<int64_t>(stripes.size());
  scan->stripes_ = stripes;
  // (With no stripe left the inner reader is only asked for its schema: Next returns at once.)
  QUIVER_ASSIGN_OR_RETURN(auto inner, OrcStreamReader::Make(file, read, stripes));
  const SchemaPtr& in = inner->schema();
  std::vector<Field> fields;
  for (int i = 0; i < in->num_fields(); ++i) {
    const bool is_where_only = options.where && !options.columns.empty() && in->field(i).name == options.where->column &&
                               std::find(options.columns.begin(), options.columns.end(), options.where->column) == options.columns.end();
    if (options.where && in->field(i).name == options.where->column) scan->where_index_ = i;
    if (is_where_only) continue;
    scan->keep_.push_back(i);
    fields.push_back(in->field(i));
  }
  scan->schema_ = std::make_shared<Schema>(std::move(fields));
  scan->inner_ = std::move(inner);
  return scan;
}

Result<std::shared_ptr<RecordBatch>> OrcScan::Filter(const std::shared_ptr<RecordBatch>& batch) {
  std::shared_ptr<RecordBatch> b = batch;
  if (where_) {
    int64_t selected = 0;
    QUIVER_ASSIGN_OR_RETURN(auto bits, parquet::EvaluatePredicate(b->column(where_index_), where_->op, literal_, &selected));
    QUIVER_ASSIGN_OR_RETURN(b, parquet::FilterBatch(b, bits->data(), selected));
  }
  if (static_cast<int>(keep_.size()) == b->num_columns()) return std::make_shared<RecordBatch>(schema_, b->num_rows(), b->columns());
  std::vector<Array> cols;
  for (int i : keep_) cols.push_back(b->column(i));
  return std::make_shared<RecordBatch>(schema_, b->num_rows(), std::move(cols));
}

Result<std::shared_ptr<RecordBatch>> OrcScan::Next() {
  if (stripes_.empty()) return std::shared_ptr<RecordBatch>();
  QUIVER_ASSIGN_OR_RETURN(auto b, inner_->Next());
  if (b == nullptr) return b;
  return Filter(b);
}

Result<std::vector<std::shared_ptr<RecordBatch>>> OrcScan::ReadAll() {
  std::vector<std::shared_ptr<RecordBatch>> out;
  while (true) {
    QUIVER_ASSIGN_OR_RETURN(auto b, Next());
    if (b == nullptr) break;
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace quiver::stream
