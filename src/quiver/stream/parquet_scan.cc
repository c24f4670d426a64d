#include "quiver/stream/parquet_scan.h"

#include <algorithm>
#include <bit>

#include "quiver/core/bit_util.h"
#include "quiver/core/thread_pool.h"

namespace quiver::stream {
namespace {

// The rows both selections keep.
parquet::RowSelection Intersect(const parquet::RowSelection& a, const parquet::RowSelection& b) {
  if (a.all) return b;
  if (b.all) return a;
  std::vector<parquet::RowRange> out;
  size_t i = 0, j = 0;
  while (i < a.ranges.size() && j < b.ranges.size()) {
    const int64_t lo = std::max(a.ranges[i].begin, b.ranges[j].begin);
    const int64_t hi = std::min(a.ranges[i].end, b.ranges[j].end);
    if (lo < hi) out.push_back({lo, hi});
    if (a.ranges[i].end < b.ranges[j].end) ++i;
    else ++j;
  }
  return parquet::RowSelection::Ranges(std::move(out));
}

}  // namespace

Result<std::unique_ptr<ParquetScan>> ParquetScan::Make(std::shared_ptr<parquet::ParquetFileReader> file,
                                                       ScanOptions options) {
  auto s = std::unique_ptr<ParquetScan>(new ParquetScan());
  s->file_ = std::move(file);
  parquet::ParquetFileReader& f = *s->file_;
  s->recycle_ = RecyclingPool::Make(f.options().pool, kScanRecycling);
  if (ThreadPool* pool = f.options().thread_pool) s->window_ = static_cast<size_t>(pool->num_threads()) + 1;
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
  std::vector<ScanPredicate> preds;
  if (options.where) preds.push_back(std::move(*options.where));
  for (ScanPredicate& w : options.and_where) preds.push_back(std::move(w));
  for (ScanPredicate& w : preds) {
    QUIVER_ASSIGN_OR_RETURN(parquet::BoundPredicate p, f.BindPredicate(w.column, w.op, std::move(w.value)));
    s->where_.push_back(std::move(p));
  }
  if (!s->where_.empty()) {
    std::vector<int> may = s->groups_;
    for (const parquet::BoundPredicate& p : s->where_) {
      if (may.empty()) break;  // (an empty list would ask for every group)
      may = f.RowGroupsMayMatch(p, std::move(may));
    }
    s->counters_.skipped_by_statistics = static_cast<int64_t>(s->groups_.size() - may.size());
    // Then each group's bloom filters (for =) and its page indexes narrow the reading further.
    s->groups_.clear();
    for (int g : may) {
      bool maybe = true;
      for (size_t k = 0; k < s->where_.size() && maybe; ++k) {
        QUIVER_ASSIGN_OR_RETURN(maybe, f.BloomMayMatch(s->where_[k], g));
      }
      if (!maybe) {
        ++s->counters_.skipped_by_bloom_filter;
        continue;
      }
      parquet::RowSelection sel = parquet::RowSelection::All();
      for (const parquet::BoundPredicate& p : s->where_) {
        QUIVER_ASSIGN_OR_RETURN(parquet::RowSelection one, f.PageRowsMayMatch(p, g));
        sel = Intersect(sel, one);
      }
      if (!sel.all && sel.ranges.empty()) {
        ++s->counters_.skipped_by_page_index;
        continue;
      }
      s->groups_.push_back(g);
      s->selections_.push_back(std::move(sel));
    }
    // Late materialization when every chosen column outside the predicates' is flat.
    std::vector<int> shown = s->read_columns_;
    if (shown.empty()) {
      for (int c = 0; c < f.schema()->num_fields(); ++c) shown.push_back(c);
    }
    for (const parquet::BoundPredicate& p : s->where_) {
      auto it = std::find(s->pred_fields_.begin(), s->pred_fields_.end(), p.field);
      s->pred_positions_.push_back(static_cast<int>(it - s->pred_fields_.begin()));
      if (it == s->pred_fields_.end()) s->pred_fields_.push_back(p.field);
    }
    s->late_ = true;
    s->shown_fields_ = shown;
    const parquet::SchemaTree& tree = f.schema_tree();
    for (int c : shown) {
      auto it = std::find(s->pred_fields_.begin(), s->pred_fields_.end(), c);
      if (it != s->pred_fields_.end()) {
        s->out_from_.emplace_back(true, static_cast<int>(it - s->pred_fields_.begin()));
        for (const parquet::BoundPredicate& p : s->where_) {
          if (p.field == c) {
            s->twice_leaves_.push_back(p.leaf);
            break;
          }
        }
        continue;
      }
      const parquet::SchemaNode& n = tree.node(tree.root().children[static_cast<size_t>(c)]);
      if (!n.is_leaf() || n.repetition == parquet::FieldRepetitionType::REPEATED) s->late_ = false;
      s->out_from_.emplace_back(false, static_cast<int>(s->rest_fields_.size()));
      s->rest_fields_.push_back(c);
    }
    for (const parquet::BoundPredicate& p : s->where_) {
      if (s->read_columns_.empty()) {
        s->where_positions_.push_back(p.field);
      } else {
        auto it = std::find(s->read_columns_.begin(), s->read_columns_.end(), p.field);
        s->where_positions_.push_back(static_cast<int>(it - s->read_columns_.begin()));
        if (it == s->read_columns_.end()) s->read_columns_.push_back(p.field);
      }
    }
  }
  return s;
}

Result<std::shared_ptr<Buffer>> ParquetScan::Keep(const RecordBatch& b, const std::vector<int>& positions,
                                                  int64_t* selected) const {
  QUIVER_ASSIGN_OR_RETURN(auto bits, parquet::EvaluatePredicate(b.column(positions[0]), where_[0].op, where_[0].value,
                                                                selected, recycle_));
  if (where_.size() > 1) {
    // Every predicate must hold: their rows' bits ANDed, then counted.
    uint8_t* keep = bits->mutable_data();
    const int64_t bytes = bit_util::BytesForBits(b.num_rows());
    for (size_t k = 1; k < where_.size(); ++k) {
      int64_t n = 0;
      QUIVER_ASSIGN_OR_RETURN(auto more, parquet::EvaluatePredicate(b.column(positions[k]), where_[k].op,
                                                                    where_[k].value, &n, recycle_));
      const uint8_t* m = more->data();
      for (int64_t i = 0; i < bytes; ++i) keep[i] &= m[i];
    }
    *selected = 0;
    for (int64_t i = 0; i < bytes; ++i) *selected += std::popcount(static_cast<unsigned>(keep[i]));
  }
  return bits;
}

Result<std::shared_ptr<RecordBatch>> ParquetScan::Filter(std::shared_ptr<RecordBatch> b) const {
  if (where_.empty()) return b;
  int64_t selected = 0;
  QUIVER_ASSIGN_OR_RETURN(auto bits, Keep(*b, where_positions_, &selected));
  // The predicates' columns go before the copy when they were not chosen.
  if (shown_ > 0 && read_columns_.size() > shown_) {
    std::vector<Array> columns(b->columns().begin(), b->columns().begin() + static_cast<std::ptrdiff_t>(shown_));
    b = std::make_shared<RecordBatch>(schema_, b->num_rows(), std::move(columns));
  }
  return parquet::FilterBatch(b, bits->data(), selected, recycle_);
}

ParquetScan::~ParquetScan() {
  // A task that claimed its group is decoding it and uses this scan: it is waited for. The
  // others find their group claimed and return without touching the scan.
  for (auto& a : ahead_) {
    if (!a->claimed.exchange(true)) continue;
    std::unique_lock<std::mutex> lock(a->mu);
    a->cv.wait(lock, [&] { return a->done; });
  }
  ahead_.clear();
  if (recycle_ != nullptr) recycle_->Close();
}

Result<std::shared_ptr<RecordBatch>> ParquetScan::Decode(size_t k) const {
  const parquet::RowSelection* sel = selections_.empty() ? nullptr : &selections_[k];
  const int g = groups_[k];
  if (!late_) {
    QUIVER_ASSIGN_OR_RETURN(auto read, file_->ReadRowGroupHere(g, read_columns_, sel, recycle_));
    return Filter(std::move(read));
  }
  if (sel == nullptr || sel->all) {
    // The predicates first, over their columns' pages without keeping values; then every chosen
    // column decodes only the rows kept.
    // One per thread, as Decode runs on the pool's threads, its buffers reused group after group.
    thread_local parquet::KeptPages kept_pages;
    parquet::KeptPages* pages = nullptr;
    if (!twice_leaves_.empty()) {
      if (kept_pages.leaves() != twice_leaves_) kept_pages.set_leaves(twice_leaves_);
      pages = &kept_pages;
    }
    int64_t selected = 0;
    QUIVER_ASSIGN_OR_RETURN(auto bits, file_->SelectRowGroupHere(g, where_, recycle_, &selected, pages));
    const bool all = selected == file_->metadata().row_groups[static_cast<size_t>(g)].num_rows;
    QUIVER_ASSIGN_OR_RETURN(auto read, file_->ReadRowGroupHere(g, shown_fields_, nullptr, recycle_,
                                                              all ? nullptr : bits->data(), selected, pages));
    return std::make_shared<RecordBatch>(schema_, read->num_rows(), read->columns());
  }
  // The predicates' columns first; the other chosen columns then decode only the rows kept.
  QUIVER_ASSIGN_OR_RETURN(auto p, file_->ReadRowGroupHere(g, pred_fields_, sel, recycle_));
  int64_t selected = 0;
  QUIVER_ASSIGN_OR_RETURN(auto bits, Keep(*p, pred_positions_, &selected));
  const bool all = selected == p->num_rows();
  std::shared_ptr<RecordBatch> rest;
  if (!rest_fields_.empty()) {
    QUIVER_ASSIGN_OR_RETURN(rest, file_->ReadRowGroupHere(g, rest_fields_, sel, recycle_,
                                                          all ? nullptr : bits->data(), selected));
  }
  std::vector<Array> columns;
  columns.reserve(out_from_.size());
  for (const auto& [from_predicates, i] : out_from_) {
    if (!from_predicates) {
      columns.push_back(rest->column(i));
    } else if (all) {
      columns.push_back(p->column(i));
    } else {
      QUIVER_ASSIGN_OR_RETURN(Array a, parquet::FilterArray(p->column(i), bits->data(), selected, recycle_));
      columns.push_back(std::move(a));
    }
  }
  return std::make_shared<RecordBatch>(schema_, selected, std::move(columns));
}

void ParquetScan::FillWindow() {
  ThreadPool* pool = file_->options().thread_pool;
  while (queued_ < groups_.size() && ahead_.size() < window_) {
    auto a = std::make_shared<Ahead>();
    a->k = queued_++;
    ahead_.push_back(a);
    pool->Submit([this, a] {
      if (a->claimed.exchange(true)) return;
      auto r = Decode(a->k);
      {
        std::lock_guard<std::mutex> lock(a->mu);
        a->result = std::move(r);
        a->done = true;
      }
      a->cv.notify_all();
    });
  }
}

Result<std::shared_ptr<RecordBatch>> ParquetScan::TakeFront() {
  std::shared_ptr<Ahead> a = std::move(ahead_.front());
  ahead_.pop_front();
  // Not started (the pool is busy elsewhere, or this thread is one of its workers): here.
  if (!a->claimed.exchange(true)) return Decode(a->k);
  std::unique_lock<std::mutex> lock(a->mu);
  a->cv.wait(lock, [&] { return a->done; });
  return std::move(a->result);
}

Result<std::shared_ptr<RecordBatch>> ParquetScan::Next() {
  if (next_ >= groups_.size()) return std::shared_ptr<RecordBatch>();
  Result<std::shared_ptr<RecordBatch>> batch{std::shared_ptr<RecordBatch>()};
  if (window_ == 0 && ahead_.empty()) {
    batch = Decode(next_);
  } else {
    FillWindow();
    batch = TakeFront();
    FillWindow();  // the group after the window starts while the caller uses this one
  }
  const int g = groups_[next_++];
  if (!batch.ok()) return batch.status();
  bytes_ += file_->metadata().row_groups[static_cast<size_t>(g)].total_byte_size;
  rows_ += (*batch)->num_rows();
  return batch;
}

Result<std::vector<std::shared_ptr<RecordBatch>>> ParquetScan::ReadAll() {
  std::vector<std::shared_ptr<RecordBatch>> batches;
  // Groups already decoding ahead come first, as Next would return them; no more are queued.
  window_ = 0;
  while (!ahead_.empty()) {
    QUIVER_ASSIGN_OR_RETURN(auto b, Next());
    batches.push_back(std::move(b));
  }
  const size_t from = std::max(next_, queued_);
  const std::vector<int> groups(groups_.begin() + static_cast<std::ptrdiff_t>(from), groups_.end());
  std::vector<parquet::RowSelection> sel;
  if (!selections_.empty()) sel.assign(selections_.begin() + static_cast<std::ptrdiff_t>(from), selections_.end());
  next_ = queued_ = groups_.size();
  // (An empty list would ask ReadRowGroups for every group.)
  if (groups.empty()) return batches;
  QUIVER_ASSIGN_OR_RETURN(auto rest, file_->ReadRowGroups(groups, read_columns_, sel));
  for (int g : groups) bytes_ += file_->metadata().row_groups[static_cast<size_t>(g)].total_byte_size;
  for (auto& b : rest) {
    QUIVER_ASSIGN_OR_RETURN(b, Filter(std::move(b)));
    rows_ += b->num_rows();
    batches.push_back(std::move(b));
  }
  return batches;
}

ReadStats ParquetScan::stats() const {
  // Progress counts row groups of those to read.
  const int64_t total = static_cast<int64_t>(groups_.size());
  return ReadStats{rows_, bytes_, static_cast<int64_t>(next_), total};
}

}  // namespace quiver::stream
