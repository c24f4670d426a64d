#include "quiver/orc/writer/metadata_encode_internal.h"

#include "quiver/orc/format.h"
#include "quiver/orc/protobuf.h"

namespace quiver::orc::writer {
namespace {

using protobuf::AppendBytes;
using protobuf::AppendDouble;
using protobuf::AppendSInt;
using protobuf::AppendUInt;

// A nested message: encoded into a scratch string, then appended length-delimited.
template <typename F>
void AppendMessage(std::string* out, uint32_t field, F&& encode) {
  std::string sub;
  encode(&sub);
  AppendBytes(out, field, sub);
}

template <typename T>
void SInt(std::string* out, uint32_t field, const std::optional<T>& v) {
  if (v) AppendSInt(out, field, static_cast<int64_t>(*v));
}
template <typename T>
void UInt(std::string* out, uint32_t field, const std::optional<T>& v) {
  if (v) AppendUInt(out, field, static_cast<uint64_t>(*v));
}
void Str(std::string* out, uint32_t field, const std::optional<std::string>& v) {
  if (v) AppendBytes(out, field, *v);
}
void Dbl(std::string* out, uint32_t field, const std::optional<double>& v) {
  if (v) AppendDouble(out, field, *v);
}

void PackedUInts(std::string* out, uint32_t field, const std::vector<uint64_t>& values) {
  if (values.empty()) return;
  std::string packed;
  for (uint64_t v : values) protobuf::AppendVarint(&packed, v);
  AppendBytes(out, field, packed);
}

void EncodeStream(const Stream& s, std::string* out) {
  namespace f = format::stream;
  AppendUInt(out, f::kind, s.kind);
  AppendUInt(out, f::column, s.column);
  AppendUInt(out, f::length, s.length);
}

void EncodeEncoding(const ColumnEncoding& e, std::string* out) {
  namespace f = format::column_encoding;
  AppendUInt(out, f::kind, e.kind);
  if (e.dictionary_size != 0) AppendUInt(out, f::dictionary_size, e.dictionary_size);
  if (e.bloom_encoding != 0) AppendUInt(out, f::bloom_encoding, e.bloom_encoding);
}

void EncodeType(const Type& t, std::string* out) {
  namespace f = format::type;
  AppendUInt(out, f::kind, t.kind);
  if (!t.subtypes.empty()) {
    std::vector<uint64_t> ids(t.subtypes.begin(), t.subtypes.end());
    PackedUInts(out, f::subtypes, ids);
  }
  for (const std::string& name : t.field_names) AppendBytes(out, f::field_names, name);
  UInt(out, f::maximum_length, t.maximum_length);
  UInt(out, f::precision, t.precision);
  UInt(out, f::scale, t.scale);
}

}  // namespace

void EncodeColumnStatistics(const ColumnStatistics& s, std::string* out) {
  namespace f = format::column_statistics;
  UInt(out, f::number_of_values, s.number_of_values);
  if (const auto& i = s.int_statistics) {
    AppendMessage(out, f::int_statistics, [&](std::string* m) {
      namespace g = format::integer_statistics;
      SInt(m, g::minimum, i->minimum);
      SInt(m, g::maximum, i->maximum);
      SInt(m, g::sum, i->sum);
    });
  }
  if (const auto& d = s.double_statistics) {
    AppendMessage(out, f::double_statistics, [&](std::string* m) {
      namespace g = format::double_statistics;
      Dbl(m, g::minimum, d->minimum);
      Dbl(m, g::maximum, d->maximum);
      Dbl(m, g::sum, d->sum);
    });
  }
  if (const auto& t = s.string_statistics) {
    AppendMessage(out, f::string_statistics, [&](std::string* m) {
      namespace g = format::string_statistics;
      Str(m, g::minimum, t->minimum);
      Str(m, g::maximum, t->maximum);
      SInt(m, g::sum, t->sum);
      Str(m, g::lower_bound, t->lower_bound);
      Str(m, g::upper_bound, t->upper_bound);
    });
  }
  if (const auto& b = s.bucket_statistics) {
    AppendMessage(out, f::bucket_statistics,
                  [&](std::string* m) { PackedUInts(m, format::bucket_statistics::count, b->count); });
  }
  if (const auto& d = s.decimal_statistics) {
    AppendMessage(out, f::decimal_statistics, [&](std::string* m) {
      namespace g = format::decimal_statistics;
      Str(m, g::minimum, d->minimum);
      Str(m, g::maximum, d->maximum);
      Str(m, g::sum, d->sum);
    });
  }
  if (const auto& d = s.date_statistics) {
    AppendMessage(out, f::date_statistics, [&](std::string* m) {
      SInt(m, format::date_statistics::minimum, d->minimum);
      SInt(m, format::date_statistics::maximum, d->maximum);
    });
  }
  if (const auto& b = s.binary_statistics) {
    AppendMessage(out, f::binary_statistics, [&](std::string* m) { SInt(m, format::binary_statistics::sum, b->sum); });
  }
  if (const auto& t = s.timestamp_statistics) {
    AppendMessage(out, f::timestamp_statistics, [&](std::string* m) {
      namespace g = format::timestamp_statistics;
      SInt(m, g::minimum, t->minimum);
      SInt(m, g::maximum, t->maximum);
      SInt(m, g::minimum_utc, t->minimum_utc);
      SInt(m, g::maximum_utc, t->maximum_utc);
      UInt(m, g::minimum_nanos, t->minimum_nanos);
      UInt(m, g::maximum_nanos, t->maximum_nanos);
    });
  }
  if (s.has_null) AppendUInt(out, f::has_null, *s.has_null ? 1 : 0);
  UInt(out, f::bytes_on_disk, s.bytes_on_disk);
  if (const auto& c = s.collection_statistics) {
    AppendMessage(out, f::collection_statistics, [&](std::string* m) {
      namespace g = format::collection_statistics;
      UInt(m, g::min_children, c->min_children);
      UInt(m, g::max_children, c->max_children);
      UInt(m, g::total_children, c->total_children);
    });
  }
}

void EncodeRowIndex(const RowIndex& index, std::string* out) {
  for (const RowIndexEntry& e : index.entry) {
    AppendMessage(out, format::row_index::entry, [&](std::string* m) {
      PackedUInts(m, format::row_index_entry::positions, e.positions);
      if (e.statistics) {
        AppendMessage(m, format::row_index_entry::statistics,
                      [&](std::string* s) { EncodeColumnStatistics(*e.statistics, s); });
      }
    });
  }
}

void EncodeBloomFilterIndex(const BloomFilterIndex& index, std::string* out) {
  for (const BloomFilter& b : index.bloom_filter) {
    AppendMessage(out, format::bloom_filter_index::bloom_filter, [&](std::string* m) {
      namespace g = format::bloom_filter;
      AppendUInt(m, g::num_hash_functions, b.num_hash_functions);
      if (!b.bitset.empty()) {
        std::string words(b.bitset.size() * 8, '\0');
        std::memcpy(words.data(), b.bitset.data(), words.size());  // fixed64: little-endian
        AppendBytes(m, g::bitset, words);
      }
      if (!b.utf8bitset.empty()) AppendBytes(m, g::utf8bitset, b.utf8bitset);
    });
  }
}

void EncodeStripeFooter(const StripeFooter& footer, std::string* out) {
  namespace f = format::stripe_footer;
  for (const Stream& s : footer.streams) AppendMessage(out, f::streams, [&](std::string* m) { EncodeStream(s, m); });
  for (const ColumnEncoding& e : footer.columns) {
    AppendMessage(out, f::columns, [&](std::string* m) { EncodeEncoding(e, m); });
  }
  Str(out, f::writer_timezone, footer.writer_timezone);
}

void EncodeMetadata(const Metadata& metadata, std::string* out) {
  for (const StripeStatistics& stripe : metadata.stripe_stats) {
    AppendMessage(out, format::metadata::stripe_stats, [&](std::string* m) {
      for (const ColumnStatistics& c : stripe.col_stats) {
        AppendMessage(m, format::stripe_statistics::col_stats, [&](std::string* s) { EncodeColumnStatistics(c, s); });
      }
    });
  }
}

void EncodeFooter(const Footer& footer, std::string* out) {
  namespace f = format::footer;
  AppendUInt(out, f::header_length, footer.header_length);
  AppendUInt(out, f::content_length, footer.content_length);
  for (const StripeInformation& s : footer.stripes) {
    AppendMessage(out, f::stripes, [&](std::string* m) {
      namespace g = format::stripe_information;
      AppendUInt(m, g::offset, s.offset);
      AppendUInt(m, g::index_length, s.index_length);
      AppendUInt(m, g::data_length, s.data_length);
      AppendUInt(m, g::footer_length, s.footer_length);
      AppendUInt(m, g::number_of_rows, s.number_of_rows);
    });
  }
  for (const Type& t : footer.types) AppendMessage(out, f::types, [&](std::string* m) { EncodeType(t, m); });
  for (const UserMetadataItem& item : footer.metadata) {
    AppendMessage(out, f::metadata, [&](std::string* m) {
      AppendBytes(m, format::user_metadata_item::name, item.name);
      AppendBytes(m, format::user_metadata_item::value, item.value);
    });
  }
  UInt(out, f::number_of_rows, footer.number_of_rows);
  for (const ColumnStatistics& c : footer.statistics) {
    AppendMessage(out, f::statistics, [&](std::string* m) { EncodeColumnStatistics(c, m); });
  }
  if (footer.row_index_stride != 0) AppendUInt(out, f::row_index_stride, footer.row_index_stride);
  UInt(out, f::writer, footer.writer);
  if (footer.calendar != 0) AppendUInt(out, f::calendar, footer.calendar);
  Str(out, f::software_version, footer.software_version);
}

void EncodePostScript(const PostScript& ps, std::string* out) {
  namespace f = format::post_script;
  AppendUInt(out, f::footer_length, ps.footer_length);
  AppendUInt(out, f::compression, ps.compression);
  UInt(out, f::compression_block_size, ps.compression_block_size);
  if (!ps.version.empty()) {
    std::vector<uint64_t> v(ps.version.begin(), ps.version.end());
    PackedUInts(out, f::version, v);
  }
  AppendUInt(out, f::metadata_length, ps.metadata_length);
  UInt(out, f::writer_version, ps.writer_version);
  UInt(out, f::stripe_statistics_length, ps.stripe_statistics_length);
  Str(out, f::magic, ps.magic);
}

}  // namespace quiver::orc::writer
