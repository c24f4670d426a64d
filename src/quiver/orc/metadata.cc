// Decoders of ORC's metadata messages over protobuf::Reader: each message a loop over its fields,
// unknown fields skipped, wire types checked, the first problem reported with the message's name.
#include "quiver/orc/metadata.h"

#include <fmt/format.h>

#include <bit>

#include "quiver/orc/format.h"
#include "quiver/orc/protobuf.h"

namespace quiver::orc {
namespace {

using protobuf::Reader;
using protobuf::WireType;
namespace f = format;

// Message nesting is fixed by the schema (at most about six deep), so recursion is bounded.
struct Decoder {
  Reader r;
  uint32_t field = 0;
  WireType type = protobuf::kVarint;

  explicit Decoder(Reader reader) : r(reader) {}
  bool Next() { return r.NextField(&field, &type); }
  bool Is(uint32_t want_field, WireType want_type) { return field == want_field && type == want_type; }
  void Skip() { r.Skip(type); }

  uint64_t U64() { return r.Varint(); }
  uint32_t U32() { return static_cast<uint32_t>(r.Varint()); }
  int64_t S64() { return r.SignedVarint(); }
  std::string Str() { return std::string(r.Bytes()); }
  // A repeated varint field, packed or not.
  template <typename T>
  void Repeated(std::vector<T>* out) {
    if (type == protobuf::kLengthDelimited) {
      Reader sub = r.Sub();
      while (!sub.done()) out->push_back(static_cast<T>(sub.Varint()));
      if (!sub.ok()) r.Fail(sub.error());
    } else if (type == protobuf::kVarint) {
      out->push_back(static_cast<T>(r.Varint()));
    } else {
      r.Fail("a repeated integer field has the wrong wire type");
    }
  }
};

#define QUIVER_ORC_FIELD(msg, name, wire) d.Is(f::msg::name, protobuf::wire)

// A sub-message is decoded from its bytes; its first problem becomes the parent's.
template <typename T, typename F>
T Sub(Decoder& d, F&& decode) {
  Reader sub = d.r.Sub();
  Decoder child(sub);
  T out = decode(child);
  if (!child.r.ok()) d.r.Fail(child.r.error());
  return out;
}

IntegerStatistics IntStats(Decoder& d) {
  IntegerStatistics s;
  while (d.Next()) {
    if (QUIVER_ORC_FIELD(integer_statistics, minimum, kVarint)) s.minimum = d.S64();
    else if (QUIVER_ORC_FIELD(integer_statistics, maximum, kVarint)) s.maximum = d.S64();
    else if (QUIVER_ORC_FIELD(integer_statistics, sum, kVarint)) s.sum = d.S64();
    else d.Skip();
  }
  return s;
}
DoubleStatistics DoubleStats(Decoder& d) {
  DoubleStatistics s;
  while (d.Next()) {
    if (QUIVER_ORC_FIELD(double_statistics, minimum, kFixed64)) s.minimum = d.r.Double();
    else if (QUIVER_ORC_FIELD(double_statistics, maximum, kFixed64)) s.maximum = d.r.Double();
    else if (QUIVER_ORC_FIELD(double_statistics, sum, kFixed64)) s.sum = d.r.Double();
    else d.Skip();
  }
  return s;
}
StringStatistics StringStats(Decoder& d) {
  StringStatistics s;
  while (d.Next()) {
    if (QUIVER_ORC_FIELD(string_statistics, minimum, kLengthDelimited)) s.minimum = d.Str();
    else if (QUIVER_ORC_FIELD(string_statistics, maximum, kLengthDelimited)) s.maximum = d.Str();
    else if (QUIVER_ORC_FIELD(string_statistics, sum, kVarint)) s.sum = d.S64();
    else if (QUIVER_ORC_FIELD(string_statistics, lower_bound, kLengthDelimited)) s.lower_bound = d.Str();
    else if (QUIVER_ORC_FIELD(string_statistics, upper_bound, kLengthDelimited)) s.upper_bound = d.Str();
    else d.Skip();
  }
  return s;
}
BucketStatistics BucketStats(Decoder& d) {
  BucketStatistics s;
  while (d.Next()) {
    if (d.field == f::bucket_statistics::count) d.Repeated(&s.count);
    else d.Skip();
  }
  return s;
}
DecimalStatistics DecimalStats(Decoder& d) {
  DecimalStatistics s;
  while (d.Next()) {
    if (QUIVER_ORC_FIELD(decimal_statistics, minimum, kLengthDelimited)) s.minimum = d.Str();
    else if (QUIVER_ORC_FIELD(decimal_statistics, maximum, kLengthDelimited)) s.maximum = d.Str();
    else if (QUIVER_ORC_FIELD(decimal_statistics, sum, kLengthDelimited)) s.sum = d.Str();
    else d.Skip();
  }
  return s;
}
DateStatistics DateStats(Decoder& d) {
  DateStatistics s;
  while (d.Next()) {
    if (QUIVER_ORC_FIELD(date_statistics, minimum, kVarint)) s.minimum = static_cast<int32_t>(d.S64());
    else if (QUIVER_ORC_FIELD(date_statistics, maximum, kVarint)) s.maximum = static_cast<int32_t>(d.S64());
    else d.Skip();
  }
  return s;
}
TimestampStatistics TimestampStats(Decoder& d) {
  TimestampStatistics s;
  while (d.Next()) {
    if (QUIVER_ORC_FIELD(timestamp_statistics, minimum, kVarint)) s.minimum = d.S64();
    else if (QUIVER_ORC_FIELD(timestamp_statistics, maximum, kVarint)) s.maximum = d.S64();
    else if (QUIVER_ORC_FIELD(timestamp_statistics, minimum_utc, kVarint)) s.minimum_utc = d.S64();
    else if (QUIVER_ORC_FIELD(timestamp_statistics, maximum_utc, kVarint)) s.maximum_utc = d.S64();
    else if (QUIVER_ORC_FIELD(timestamp_statistics, minimum_nanos, kVarint)) s.minimum_nanos = static_cast<int32_t>(d.U64());
    else if (QUIVER_ORC_FIELD(timestamp_statistics, maximum_nanos, kVarint)) s.maximum_nanos = static_cast<int32_t>(d.U64());
    else d.Skip();
  }
  return s;
}
BinaryStatistics BinaryStats(Decoder& d) {
  BinaryStatistics s;
  while (d.Next()) {
    if (QUIVER_ORC_FIELD(binary_statistics, sum, kVarint)) s.sum = d.S64();
    else d.Skip();
  }
  return s;
}
CollectionStatistics CollectionStats(Decoder& d) {
  CollectionStatistics s;
  while (d.Next()) {
    if (QUIVER_ORC_FIELD(collection_statistics, min_children, kVarint)) s.min_children = d.U64();
    else if (QUIVER_ORC_FIELD(collection_statistics, max_children, kVarint)) s.max_children = d.U64();
    else if (QUIVER_ORC_FIELD(collection_statistics, total_children, kVarint)) s.total_children = d.U64();
    else d.Skip();
  }
  return s;
}
ColumnStatistics ColumnStats(Decoder& d) {
  namespace cs = f::column_statistics;
  ColumnStatistics s;
  while (d.Next()) {
    if (QUIVER_ORC_FIELD(column_statistics, number_of_values, kVarint)) s.number_of_values = d.U64();
    else if (QUIVER_ORC_FIELD(column_statistics, has_null, kVarint)) s.has_null = d.U64() != 0;
    else if (QUIVER_ORC_FIELD(column_statistics, bytes_on_disk, kVarint)) s.bytes_on_disk = d.U64();
    else if (d.type != protobuf::kLengthDelimited) d.Skip();
    else if (d.field == cs::int_statistics) s.int_statistics = Sub<IntegerStatistics>(d, IntStats);
    else if (d.field == cs::double_statistics) s.double_statistics = Sub<DoubleStatistics>(d, DoubleStats);
    else if (d.field == cs::string_statistics) s.string_statistics = Sub<StringStatistics>(d, StringStats);
    else if (d.field == cs::bucket_statistics) s.bucket_statistics = Sub<BucketStatistics>(d, BucketStats);
    else if (d.field == cs::decimal_statistics) s.decimal_statistics = Sub<DecimalStatistics>(d, DecimalStats);
    else if (d.field == cs::date_statistics) s.date_statistics = Sub<DateStatistics>(d, DateStats);
    else if (d.field == cs::binary_statistics) s.binary_statistics = Sub<BinaryStatistics>(d, BinaryStats);
    else if (d.field == cs::timestamp_statistics) s.timestamp_statistics = Sub<TimestampStatistics>(d, TimestampStats);
    else if (d.field == cs::collection_statistics) s.collection_statistics = Sub<CollectionStatistics>(d, CollectionStats);
    else d.Skip();
  }
  return s;
}
Stream StreamMsg(Decoder& d) {
  Stream s;
  while (d.Next()) {
    if (QUIVER_ORC_FIELD(stream, kind, kVarint)) s.kind = d.U32();
    else if (QUIVER_ORC_FIELD(stream, column, kVarint)) s.column = d.U32();
    else if (QUIVER_ORC_FIELD(stream, length, kVarint)) s.length = d.U64();
    else d.Skip();
  }
  return s;
}
ColumnEncoding EncodingMsg(Decoder& d) {
  ColumnEncoding e;
  while (d.Next()) {
    if (QUIVER_ORC_FIELD(column_encoding, kind, kVarint)) e.kind = d.U32();
    else if (QUIVER_ORC_FIELD(column_encoding, dictionary_size, kVarint)) e.dictionary_size = d.U32();
    else if (QUIVER_ORC_FIELD(column_encoding, bloom_encoding, kVarint)) e.bloom_encoding = d.U32();
    else d.Skip();
  }
  return e;
}
StripeEncryptionVariant StripeVariant(Decoder& d) {
  StripeEncryptionVariant v;
  while (d.Next()) {
    if (QUIVER_ORC_FIELD(stripe_encryption_variant, streams, kLengthDelimited)) v.streams.push_back(Sub<Stream>(d, StreamMsg));
    else if (QUIVER_ORC_FIELD(stripe_encryption_variant, encoding, kLengthDelimited)) v.encoding.push_back(Sub<ColumnEncoding>(d, EncodingMsg));
    else d.Skip();
  }
  return v;
}
StringPair Pair(Decoder& d) {
  StringPair p;
  while (d.Next()) {
    if (QUIVER_ORC_FIELD(string_pair, key, kLengthDelimited)) p.key = d.Str();
    else if (QUIVER_ORC_FIELD(string_pair, value, kLengthDelimited)) p.value = d.Str();
    else d.Skip();
  }
  return p;
}
Type TypeMsg(Decoder& d) {
  Type t;
  while (d.Next()) {
    if (QUIVER_ORC_FIELD(type, kind, kVarint)) t.kind = d.U32();
    else if (d.field == f::type::subtypes) d.Repeated(&t.subtypes);
    else if (QUIVER_ORC_FIELD(type, field_names, kLengthDelimited)) t.field_names.push_back(d.Str());
    else if (QUIVER_ORC_FIELD(type, maximum_length, kVarint)) t.maximum_length = d.U32();
    else if (QUIVER_ORC_FIELD(type, precision, kVarint)) t.precision = d.U32();
    else if (QUIVER_ORC_FIELD(type, scale, kVarint)) t.scale = d.U32();
    else if (QUIVER_ORC_FIELD(type, attributes, kLengthDelimited)) t.attributes.push_back(Sub<StringPair>(d, Pair));
    else d.Skip();
  }
  return t;
}
StripeInformation StripeInfo(Decoder& d) {
  namespace si = f::stripe_information;
  StripeInformation s;
  while (d.Next()) {
    if (d.type == protobuf::kVarint) {
      uint64_t v = d.U64();
      switch (d.field) {
        case si::offset: s.offset = v; break;
        case si::index_length: s.index_length = v; break;
        case si::data_length: s.data_length = v; break;
        case si::footer_length: s.footer_length = v; break;
        case si::number_of_rows: s.number_of_rows = v; break;
        case si::encrypt_stripe_id: s.encrypt_stripe_id = v; break;
        default: break;
      }
    } else if (QUIVER_ORC_FIELD(stripe_information, encrypted_local_keys, kLengthDelimited)) {
      s.encrypted_local_keys.push_back(d.Str());
    } else {
      d.Skip();
    }
  }
  return s;
}
UserMetadataItem UserItem(Decoder& d) {
  UserMetadataItem u;
  while (d.Next()) {
    if (QUIVER_ORC_FIELD(user_metadata_item, name, kLengthDelimited)) u.name = d.Str();
    else if (QUIVER_ORC_FIELD(user_metadata_item, value, kLengthDelimited)) u.value = d.Str();
    else d.Skip();
  }
  return u;
}
StripeStatistics StripeStats(Decoder& d) {
  StripeStatistics s;
  while (d.Next()) {
    if (QUIVER_ORC_FIELD(stripe_statistics, col_stats, kLengthDelimited)) s.col_stats.push_back(Sub<ColumnStatistics>(d, ColumnStats));
    else d.Skip();
  }
  return s;
}
DataMask Mask(Decoder& d) {
  DataMask m;
  while (d.Next()) {
    if (QUIVER_ORC_FIELD(data_mask, name, kLengthDelimited)) m.name = d.Str();
    else if (QUIVER_ORC_FIELD(data_mask, mask_parameters, kLengthDelimited)) m.mask_parameters.push_back(d.Str());
    else if (d.field == f::data_mask::columns) d.Repeated(&m.columns);
    else d.Skip();
  }
  return m;
}
EncryptionKey Key(Decoder& d) {
  EncryptionKey k;
  while (d.Next()) {
    if (QUIVER_ORC_FIELD(encryption_key, key_name, kLengthDelimited)) k.key_name = d.Str();
    else if (QUIVER_ORC_FIELD(encryption_key, key_version, kVarint)) k.key_version = d.U32();
    else if (QUIVER_ORC_FIELD(encryption_key, algorithm, kVarint)) k.algorithm = d.U32();
    else d.Skip();
  }
  return k;
}
EncryptionVariant Variant(Decoder& d) {
  EncryptionVariant v;
  while (d.Next()) {
    if (QUIVER_ORC_FIELD(encryption_variant, root, kVarint)) v.root = d.U32();
    else if (QUIVER_ORC_FIELD(encryption_variant, key, kVarint)) v.key = d.U32();
    else if (QUIVER_ORC_FIELD(encryption_variant, encrypted_key, kLengthDelimited)) v.encrypted_key = d.Str();
    else if (QUIVER_ORC_FIELD(encryption_variant, stripe_statistics, kLengthDelimited)) v.stripe_statistics.push_back(Sub<Stream>(d, StreamMsg));
    else if (QUIVER_ORC_FIELD(encryption_variant, file_statistics, kLengthDelimited)) v.file_statistics = d.Str();
    else d.Skip();
  }
  return v;
}
Encryption EncryptionMsg(Decoder& d) {
  Encryption e;
  while (d.Next()) {
    if (QUIVER_ORC_FIELD(encryption, mask, kLengthDelimited)) e.mask.push_back(Sub<DataMask>(d, Mask));
    else if (QUIVER_ORC_FIELD(encryption, key, kLengthDelimited)) e.key.push_back(Sub<EncryptionKey>(d, Key));
    else if (QUIVER_ORC_FIELD(encryption, variants, kLengthDelimited)) e.variants.push_back(Sub<EncryptionVariant>(d, Variant));
    else if (QUIVER_ORC_FIELD(encryption, key_provider, kVarint)) e.key_provider = d.U32();
    else d.Skip();
  }
  return e;
}
RowIndexEntry IndexEntry(Decoder& d) {
  RowIndexEntry e;
  while (d.Next()) {
    if (d.field == f::row_index_entry::positions) d.Repeated(&e.positions);
    else if (QUIVER_ORC_FIELD(row_index_entry, statistics, kLengthDelimited)) e.statistics = Sub<ColumnStatistics>(d, ColumnStats);
    else d.Skip();
  }
  return e;
}
// The specification's layout, or the Java writer's earlier one (metadata.h), told apart by
// field 3's wire type: bytes there, varints in the earlier layout.
BloomFilter Bloom(Decoder& d) {
  BloomFilter b;
  std::vector<uint64_t> varint_words;
  while (d.Next()) {
    if (QUIVER_ORC_FIELD(bloom_filter, num_hash_functions, kVarint)) {
      b.num_hash_functions = d.U32();
    } else if (QUIVER_ORC_FIELD(bloom_filter, bitset, kLengthDelimited)) {  // packed fixed64
      Reader sub = d.r.Sub();
      while (!sub.done()) b.bitset.push_back(sub.Fixed64());
      if (!sub.ok()) d.r.Fail(sub.error());
    } else if (QUIVER_ORC_FIELD(bloom_filter, bitset, kFixed64)) {
      b.bitset.push_back(d.r.Fixed64());
    } else if (QUIVER_ORC_FIELD(bloom_filter, utf8bitset, kLengthDelimited)) {
      b.utf8bitset = d.Str();
    } else if (QUIVER_ORC_FIELD(bloom_filter, utf8bitset, kVarint)) {
      varint_words.push_back(d.U64());
    } else {
      d.Skip();
    }
  }
  if (!varint_words.empty()) {
    b.early_layout = true;
    b.expected_entries = b.num_hash_functions;
    if (b.bitset.size() == 1) b.fpp = std::bit_cast<double>(b.bitset[0]);
    b.bitset = std::move(varint_words);
    b.num_hash_functions = 0;
  }
  return b;
}

template <typename T, typename F>
Result<T> DecodeTop(std::string_view bytes, const char* name, F&& decode) {
  Decoder d{Reader(bytes)};
  T out = decode(d);
  if (!d.r.ok()) return Status::Corrupt(fmt::format("ORC {}: {}", name, d.r.error()));
  return out;
}

}  // namespace

Result<PostScript> DecodePostScript(std::string_view bytes) {
  return DecodeTop<PostScript>(bytes, "PostScript", [](Decoder& d) {
    namespace ps = f::post_script;
    PostScript p;
    while (d.Next()) {
      if (QUIVER_ORC_FIELD(post_script, footer_length, kVarint)) p.footer_length = d.U64();
      else if (QUIVER_ORC_FIELD(post_script, compression, kVarint)) p.compression = d.U32();
      else if (QUIVER_ORC_FIELD(post_script, compression_block_size, kVarint)) p.compression_block_size = d.U64();
      else if (d.field == ps::version) d.Repeated(&p.version);
      else if (QUIVER_ORC_FIELD(post_script, metadata_length, kVarint)) p.metadata_length = d.U64();
      else if (QUIVER_ORC_FIELD(post_script, writer_version, kVarint)) p.writer_version = d.U32();
      else if (QUIVER_ORC_FIELD(post_script, stripe_statistics_length, kVarint)) p.stripe_statistics_length = d.U64();
      else if (QUIVER_ORC_FIELD(post_script, magic, kLengthDelimited)) p.magic = d.Str();
      else d.Skip();
    }
    return p;
  });
}

Result<Footer> DecodeFooter(std::string_view bytes) {
  return DecodeTop<Footer>(bytes, "Footer", [](Decoder& d) {
    Footer ft;
    while (d.Next()) {
      if (QUIVER_ORC_FIELD(footer, header_length, kVarint)) ft.header_length = d.U64();
      else if (QUIVER_ORC_FIELD(footer, content_length, kVarint)) ft.content_length = d.U64();
      else if (QUIVER_ORC_FIELD(footer, stripes, kLengthDelimited)) ft.stripes.push_back(Sub<StripeInformation>(d, StripeInfo));
      else if (QUIVER_ORC_FIELD(footer, types, kLengthDelimited)) ft.types.push_back(Sub<Type>(d, TypeMsg));
      else if (QUIVER_ORC_FIELD(footer, metadata, kLengthDelimited)) ft.metadata.push_back(Sub<UserMetadataItem>(d, UserItem));
      else if (QUIVER_ORC_FIELD(footer, number_of_rows, kVarint)) ft.number_of_rows = d.U64();
      else if (QUIVER_ORC_FIELD(footer, statistics, kLengthDelimited)) ft.statistics.push_back(Sub<ColumnStatistics>(d, ColumnStats));
      else if (QUIVER_ORC_FIELD(footer, row_index_stride, kVarint)) ft.row_index_stride = d.U32();
      else if (QUIVER_ORC_FIELD(footer, writer, kVarint)) ft.writer = d.U32();
      else if (QUIVER_ORC_FIELD(footer, encryption, kLengthDelimited)) ft.encryption = Sub<Encryption>(d, EncryptionMsg);
      else if (QUIVER_ORC_FIELD(footer, calendar, kVarint)) ft.calendar = d.U32();
      else if (QUIVER_ORC_FIELD(footer, software_version, kLengthDelimited)) ft.software_version = d.Str();
      else d.Skip();
    }
    return ft;
  });
}

Result<Metadata> DecodeMetadata(std::string_view bytes) {
  return DecodeTop<Metadata>(bytes, "Metadata", [](Decoder& d) {
    Metadata m;
    while (d.Next()) {
      if (QUIVER_ORC_FIELD(metadata, stripe_stats, kLengthDelimited)) m.stripe_stats.push_back(Sub<StripeStatistics>(d, StripeStats));
      else d.Skip();
    }
    return m;
  });
}

Result<StripeFooter> DecodeStripeFooter(std::string_view bytes) {
  return DecodeTop<StripeFooter>(bytes, "StripeFooter", [](Decoder& d) {
    StripeFooter sf;
    while (d.Next()) {
      if (QUIVER_ORC_FIELD(stripe_footer, streams, kLengthDelimited)) sf.streams.push_back(Sub<Stream>(d, StreamMsg));
      else if (QUIVER_ORC_FIELD(stripe_footer, columns, kLengthDelimited)) sf.columns.push_back(Sub<ColumnEncoding>(d, EncodingMsg));
      else if (QUIVER_ORC_FIELD(stripe_footer, writer_timezone, kLengthDelimited)) sf.writer_timezone = d.Str();
      else if (QUIVER_ORC_FIELD(stripe_footer, encryption, kLengthDelimited)) sf.encryption.push_back(Sub<StripeEncryptionVariant>(d, StripeVariant));
      else d.Skip();
    }
    return sf;
  });
}

Result<RowIndex> DecodeRowIndex(std::string_view bytes) {
  return DecodeTop<RowIndex>(bytes, "RowIndex", [](Decoder& d) {
    RowIndex ri;
    while (d.Next()) {
      if (QUIVER_ORC_FIELD(row_index, entry, kLengthDelimited)) ri.entry.push_back(Sub<RowIndexEntry>(d, IndexEntry));
      else d.Skip();
    }
    return ri;
  });
}

Result<BloomFilterIndex> DecodeBloomFilterIndex(std::string_view bytes) {
  return DecodeTop<BloomFilterIndex>(bytes, "BloomFilterIndex", [](Decoder& d) {
    BloomFilterIndex bi;
    while (d.Next()) {
      if (QUIVER_ORC_FIELD(bloom_filter_index, bloom_filter, kLengthDelimited)) bi.bloom_filter.push_back(Sub<BloomFilter>(d, Bloom));
      else d.Skip();
    }
    return bi;
  });
}

Result<ColumnStatistics> DecodeColumnStatistics(std::string_view bytes) {
  return DecodeTop<ColumnStatistics>(bytes, "ColumnStatistics", ColumnStats);
}

}  // namespace quiver::orc
