#include "quiver/stream/parquet_scan.h"

#include <algorithm>

namespace quiver::stream {

Result<std::unique_ptr<ParquetScan>> ParquetScan::Make(std::shared_ptr<parquet::ParquetFileReader> file,
                                                       ScanOptions options) {
  auto s = std::unique_ptr<ParquetScan>(new ParquetScan());
  s->file_ = std::move(file);
  parquet::ParquetFileReader& f = *s->file_;
  s->recycle_ = RecyclingPool::Make(f.options().pool, kScanRecycling);
  QUIVER_ASSIGN_OR_RETURN(s->read_columns_, f.ResolveFields(options.columns));
  s->shown_ = s->read_columns_.size();
  if (options.columns.empty()) {
    s->schema_ = f.schema();
  } else {
    std::vector<Field> fields;
    for (int c : s->read_columns_) fields.push_back(f.schema()->field(c));
    s->schema_ = std::make_shared<const Schema>(std::move(fields), f.schema()->metadata());
  }
  s->groups_ = std::move(options.row_groups);
  if (s->groups_.empty()) {
    for (int g = 0; g < f.num_row_groups(); ++g) s->groups_.push_back(g);
  }
  s->counters_.row_groups = static_cast<int64_t>(s->groups_.size());
  if (options.where) {
    ScanPredicate& w = *options.where;
    QUIVER_ASSIGN_OR_RETURN(s->where_, f.BindPredicate(w.column, w.op, std::move(w.value)));
    std::vector<int> may = f.RowGroupsMayMatch(*s->where_, s->groups_);
    s->counters_.skipped_by_statistics = static_cast<int64_t>(s->groups_.size() - may.size());
    // Then each group's bloom filter (for =) and its page index narrow the reading further.
    s->groups_.clear();
    for (int g : may) {
      QUIVER_ASSIGN_OR_RETURN(bool maybe, f.BloomMayMatch(*s->where_, g));
      if (!maybe) {
        ++s->counters_.skipped_by_bloom_filter;
        continue;
      }
      QUIVER_ASSIGN_OR_RETURN(parquet::RowSelection sel, f.PageRowsMayMatch(*s->where_, g));
      if (!sel.all && sel.ranges.empty()) {
        ++s->counters_.skipped_by_page_index;
        continue;
      }
      s->groups_.push_back(g);
      s->selections_.push_back(std::move(sel));
    }
    const int field = s->where_->field;
    if (s->read_columns_.empty()) {
      s->where_position_ = field;
    } else {
      auto it = std::find(s->read_columns_.begin(), s->read_columns_.end(), field);
      s->where_position_ = static_cast<int>(it - s->read_columns_.begin());
      if (it == s->read_columns_.end()) s->read_columns_.push_back(field);
    }
  }
  return s;
}

Result<std::shared_ptr<RecordBatch>> ParquetScan::Filter(std::shared_ptr<RecordBatch> b) const {
  if (!where_) return b;
  int64_t selected = 0;
  QUIVER_ASSIGN_OR_RETURN(auto bits, parquet::EvaluatePredicate(b->column(where_position_), where_->op, where_->value,
                                                                &selected));
  QUIVER_ASSIGN_OR_RETURN(b, parquet::FilterBatch(b, bits->data(), selected));
  if (shown_ > 0 && read_columns_.size() > shown_) {
    std::vector<Array> columns(b->columns().begin(), b->columns().begin() + static_cast<std::ptrdiff_t>(shown_));
    return std::make_shared<RecordBatch>(schema_, b->num_rows(), std::move(columns));
  }
  return b;
}

ParquetScan::~ParquetScan() {
  if (recycle_ != nullptr) recycle_->Close();
}

Result<std::shared_ptr<RecordBatch>> ParquetScan::Next() {
  if (next_ >= groups_.size()) return std::shared_ptr<RecordBatch>();
  std::vector<parquet::RowSelection> sel;
  if (!selections_.empty()) sel.push_back(selections_[next_]);
  const int g = groups_[next_++];
  QUIVER_ASSIGN_OR_RETURN(auto read, file_->ReadRowGroups({g}, read_columns_, sel, recycle_));
  bytes_ += file_->metadata().row_groups[static_cast<size_t>(g)].total_byte_size;
  QUIVER_ASSIGN_OR_RETURN(auto batch, Filter(std::move(read[0])));
  rows_ += batch->num_rows();
  return batch;
}

Result<std::vector<std::shared_ptr<RecordBatch>>> ParquetScan::ReadAll() {
  const std::vector<int> groups(groups_.begin() + static_cast<std::ptrdiff_t>(next_), groups_.end());
  std::vector<parquet::RowSelection> sel;
  if (!selections_.empty()) sel.assign(selections_.begin() + static_cast<std::ptrdiff_t>(next_), selections_.end());
  next_ = groups_.size();
  // (An empty list would ask ReadRowGroups for every group.)
  if (groups.empty()) return std::vector<std::shared_ptr<RecordBatch>>();
  QUIVER_ASSIGN_OR_RETURN(auto batches, file_->ReadRowGroups(groups, read_columns_, sel));
  for (int g : groups) bytes_ += file_->metadata().row_groups[static_cast<size_t>(g)].total_byte_size;
  for (auto& b : batches) {
    QUIVER_ASSIGN_OR_RETURN(b, Filter(std::move(b)));
    rows_ += b->num_rows();
  }
  return batches;
}

ReadStats ParquetScan::stats() const {
  // Progress counts row groups of those to read.
  const int64_t total = static_cast<int64_t>(groups_.size());
  return ReadStats{rows_, bytes_, static_cast<int64_t>(next_), total};
}

}  // namespace quiver::stream
