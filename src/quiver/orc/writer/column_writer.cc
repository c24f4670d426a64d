// ColumnWriter (column_writer_internal.h): PRESENT, row groups, stripes and statistics common
// to every column; Make picks the typed writer (typed_writers_internal.h) and AppendTypes the
// footer's types.
#include "quiver/orc/writer/column_writer_internal.h"

#include <algorithm>

#include <fmt/format.h>

#include "quiver/orc/format.h"
#include "quiver/orc/writer/metadata_encode_internal.h"
#include "quiver/orc/writer/typed_writers_internal.h"

namespace quiver::orc::writer {

namespace sk = format::stream_kind;
namespace ek = format::encoding_kind;

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

Status ColumnWriter::AddIndexStream(uint32_t kind, const std::string& raw, StripeParts* parts) const {
  OutStream out(ctx_.compression, ctx_.compression_level, ctx_.block_size, ctx_.pool);
  out.Write(raw.data(), static_cast<int64_t>(raw.size()));
  QUIVER_RETURN_NOT_OK(out.Flush());
  Stream st;
  st.kind = kind;
  st.column = id_;
  st.length = static_cast<uint64_t>(out.size());
  parts->index.emplace_back(st, std::string(reinterpret_cast<const char*>(out.data()), static_cast<size_t>(out.size())));
  return Status::OK();
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
    QUIVER_RETURN_NOT_OK(AddIndexStream(sk::kRowIndex, raw, parts));
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
    QUIVER_RETURN_NOT_OK(AddIndexStream(sk::kBloomFilterUtf8, raw, parts));
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
  std::unique_ptr<ColumnWriter> w;
  auto add_child = [&](const std::string& child_name, const TypePtr& child_type) -> Status {
    QUIVER_ASSIGN_OR_RETURN(auto c, Make(ctx, child_name, child_type, next_id, bloom_columns));
    w->children_.push_back(std::move(c));
    return Status::OK();
  };
  switch (type->id()) {
    case TypeId::kString: w = MakeStringWriter(ctx, name, id, true, 0); break;
    case TypeId::kBinary: w = MakeStringWriter(ctx, name, id, false, 0); break;
    case TypeId::kFixedSizeBinary: w = MakeStringWriter(ctx, name, id, false, type->fixed_size()); break;
    case TypeId::kTime32:
    case TypeId::kTime64: return NoOrcType(name, type);
    case TypeId::kStruct:
      w = MakeStructWriter(ctx, name, id);
      for (const Field& f : type->fields()) QUIVER_RETURN_NOT_OK(add_child(name.empty() ? f.name : name + "." + f.name, f.type));
      break;
    case TypeId::kList:
      w = MakeListWriter(ctx, name, id, false);
      QUIVER_RETURN_NOT_OK(add_child(name + "." + type->field(0).name, type->field(0).type));
      break;
    case TypeId::kMap:
      w = MakeListWriter(ctx, name, id, true);
      for (const Field& f : type->field(0).type->fields()) QUIVER_RETURN_NOT_OK(add_child(name + "." + f.name, f.type));
      break;
    case TypeId::kDenseUnion:
      w = MakeUnionWriter(ctx, name, id, *type);
      for (const Field& f : type->fields()) QUIVER_RETURN_NOT_OK(add_child(name + "." + f.name, f.type));
      break;
    default:
      w = MakeScalarWriter(ctx, name, id, *type);
      if (w == nullptr) return Status::NotImplemented(fmt::format("column '{}': no ORC writer for {}", name, type->ToString()));
      break;
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
    case TypeId::kDenseUnion:  // members by position: the ORC tag is the member's index
      kind(tk::kUnion);
      for (const Field& f : type->fields()) QUIVER_RETURN_NOT_OK(child(f.name, f.type));
      break;
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

