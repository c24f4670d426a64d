// Real pages from the parquet-testing corpus: every page of one file per codec decompresses to
// the size its header promises, and the DELTA_* files decode to the values of their
// *_expect.csv (written by the corpus authors, independent of our encoders).
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "encoding_test_util.h"
#include "quiver/compress/codec.h"
#include "quiver/parquet/encoding/delta_binary_packed_internal.h"
#include "quiver/parquet/encoding/delta_byte_array_internal.h"
#include "quiver/parquet/encoding/delta_length_byte_array_internal.h"
#include "quiver/parquet/encoding/dictionary_internal.h"
#include "quiver/parquet/encoding/plain_internal.h"
#include "quiver/parquet/encoding/rle_bitpacked_internal.h"
#include "quiver/parquet/footer.h"
#include "quiver/parquet/metadata_codec.h"
#include "testing/corpus.h"

namespace quiver::parquet::encoding {
namespace {

std::vector<uint8_t> ReadAll(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

// One data page's values section after decompression and level stripping.
struct Page {
  Encoding encoding;
  int64_t non_null;
  std::vector<uint8_t> values;
};
struct Chunk {
  Type type;
  compress::Codec codec;
  std::vector<uint8_t> dictionary;  // decompressed dictionary page, if any
  int64_t dictionary_count = 0;
  std::vector<Page> pages;
};

// Walks the pages of flat columns (max repetition 0, max definition 0 or 1). Pages larger than
// 64 MiB uncompressed are skipped (large_string_map.brotli.parquet holds a 2 GiB one).
Status ReadChunks(const std::vector<uint8_t>& file, std::vector<Chunk>* out) {
  constexpr int32_t kMaxPage = 64 << 20;
  const int64_t n = static_cast<int64_t>(file.size());
  uint32_t footer_len;
  std::memcpy(&footer_len, file.data() + n - 8, 4);
  auto footer_buf = Buffer::CopyOf({file.data() + n - 8 - footer_len, footer_len});
  QUIVER_RETURN_NOT_OK(footer_buf.status());
  auto footer = DecodeFooter(*footer_buf);
  QUIVER_RETURN_NOT_OK(footer.status());
  const FileMetaData& md = (*footer)->metadata();
  for (const RowGroup& rg : md.row_groups) {
    for (uint32_t c = 0; c < rg.columns.size(); ++c) {
      const ColumnMetaData& cm = *rg.columns[c].meta_data;
      const bool optional = md.schema[c + 1].repetition_type == FieldRepetitionType::OPTIONAL;
      Chunk chunk;
      chunk.type = cm.type;
      chunk.codec = static_cast<compress::Codec>(cm.codec);
      int64_t pos = cm.dictionary_page_offset.value_or(cm.data_page_offset);
      if (cm.dictionary_page_offset && *cm.dictionary_page_offset == 0) pos = cm.data_page_offset;
      const int64_t end = pos + cm.total_compressed_size;
      while (pos < end) {
        Arena arena;
        PageHeader h;
        size_t used = 0;
        QUIVER_RETURN_NOT_OK(DecodePageHeader({file.data() + pos, static_cast<size_t>(end - pos)}, &arena, &h, &used));
        const uint8_t* body = file.data() + pos + used;
        pos += static_cast<int64_t>(used) + h.compressed_page_size;
        if (h.uncompressed_page_size > kMaxPage) continue;
        std::vector<uint8_t> page(h.uncompressed_page_size);
        if (h.type == PageType::DATA_PAGE_V2) {
          const auto& v2 = *h.data_page_header_v2;
          const int64_t levels = v2.definition_levels_byte_length + v2.repetition_levels_byte_length;
          std::memcpy(page.data(), body, static_cast<size_t>(levels));
          std::span<const uint8_t> rest(body + levels, h.compressed_page_size - levels);
          std::span<uint8_t> dst(page.data() + levels, page.size() - levels);
          if (v2.is_compressed.value_or(true)) {
            QUIVER_RETURN_NOT_OK(compress::Decompress(chunk.codec, rest, dst));
          } else {
            QUIVER_RETURN_NOT_OK(compress::Decompress(compress::Codec::kUncompressed, rest, dst));
          }
          chunk.pages.push_back({v2.encoding, v2.num_values - v2.num_nulls,
                                 std::vector<uint8_t>(page.begin() + levels, page.end())});
          continue;
        }
        QUIVER_RETURN_NOT_OK(
            compress::Decompress(chunk.codec, {body, static_cast<size_t>(h.compressed_page_size)}, page));
        if (h.type == PageType::DICTIONARY_PAGE) {
          chunk.dictionary = page;
          chunk.dictionary_count = h.dictionary_page_header->num_values;
        } else if (h.type == PageType::DATA_PAGE) {
          const auto& v1 = *h.data_page_header;
          int64_t non_null = v1.num_values;
          size_t values_at = 0;
          if (optional) {
            uint32_t len;
            std::memcpy(&len, page.data(), 4);
            RleBitPackedDecoder levels;
            QUIVER_RETURN_NOT_OK(levels.Reset(page.data() + 4, len, 1));
            std::vector<int16_t> def(v1.num_values);
            QUIVER_RETURN_NOT_OK(levels.Decode(def.data(), v1.num_values));
            non_null = 0;
            for (int16_t d : def) non_null += d;
            values_at = 4 + len;
          }
          chunk.pages.push_back({v1.encoding, non_null, std::vector<uint8_t>(page.begin() + values_at, page.end())});
        }
      }
      out->push_back(std::move(chunk));
    }
  }
  return Status::OK();
}

// Minimal RFC 4180 reader: empty unquoted field = null (nullopt).
std::vector<std::vector<std::optional<std::string>>> ReadCsv(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  std::vector<std::vector<std::optional<std::string>>> rows(1);
  std::optional<std::string> field;
  bool quoted = false, in_quotes = false;
  auto end_field = [&] {
    rows.back().push_back(quoted || (field && !field->empty()) ? field : std::nullopt);
    field.reset();
    quoted = false;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_quotes) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field->push_back('"');
        ++i;
      } else if (c == '"') {
        in_quotes = false;
      } else {
        field->push_back(c);
      }
    } else if (c == '"') {
      in_quotes = quoted = true;
      if (!field) field.emplace();
    } else if (c == ',') {
      end_field();
    } else if (c == '\n') {
      end_field();
      rows.emplace_back();
    } else if (c != '\r') {
      if (!field) field.emplace();
      field->push_back(c);
    }
  }
  if (!rows.back().empty() || field) end_field();
  if (rows.back().empty()) rows.pop_back();
  rows.erase(rows.begin());  // header
  return rows;
}

// Decodes a chunk's non-null values as strings (integers printed in decimal).
Status DecodeChunk(const Chunk& chunk, std::vector<std::string>* out) {
  for (const Page& page : chunk.pages) {
    const uint8_t* data = page.values.data();
    const int64_t size = static_cast<int64_t>(page.values.size());
    const int64_t n = page.non_null;
    if (chunk.type == Type::INT32 || chunk.type == Type::INT64) {
      std::vector<int64_t> v(n);
      if (chunk.type == Type::INT32) {
        std::vector<int32_t> v32(n);
        if (page.encoding == Encoding::DELTA_BINARY_PACKED) {
          DeltaBinaryPackedDecoder<int32_t> dec;
          QUIVER_RETURN_NOT_OK(dec.Reset(data, size));
          QUIVER_RETURN_NOT_OK(dec.Decode(v32.data(), n));
        } else if (page.encoding == Encoding::PLAIN) {
          PlainFixedDecoder dec;
          QUIVER_RETURN_NOT_OK(dec.Reset(data, size, 4));
          QUIVER_RETURN_NOT_OK(dec.Decode(v32.data(), n));
        } else {
          DictionaryDecoder dec;
          QUIVER_RETURN_NOT_OK(dec.Reset(data, size, chunk.dictionary_count));
          QUIVER_RETURN_NOT_OK(dec.Decode(reinterpret_cast<const int32_t*>(chunk.dictionary.data()), v32.data(), n));
        }
        for (int64_t i = 0; i < n; ++i) v[i] = v32[i];
      } else if (page.encoding == Encoding::DELTA_BINARY_PACKED) {
        DeltaBinaryPackedDecoder<int64_t> dec;
        QUIVER_RETURN_NOT_OK(dec.Reset(data, size));
        QUIVER_RETURN_NOT_OK(dec.Decode(v.data(), n));
      } else {
        PlainFixedDecoder dec;
        QUIVER_RETURN_NOT_OK(dec.Reset(data, size, 8));
        QUIVER_RETURN_NOT_OK(dec.Decode(v.data(), n));
      }
      for (int64_t x : v) out->push_back(std::to_string(x));
    } else if (chunk.type == Type::BYTE_ARRAY) {
      testing::Strings s;
      if (page.encoding == Encoding::DELTA_BYTE_ARRAY) {
        DeltaByteArrayDecoder dec;
        QUIVER_RETURN_NOT_OK(dec.Reset(data, size));
        QUIVER_RETURN_NOT_OK(dec.Decode(n, &s.offsets, &s.data));
      } else if (page.encoding == Encoding::DELTA_LENGTH_BYTE_ARRAY) {
        DeltaLengthByteArrayDecoder dec;
        QUIVER_RETURN_NOT_OK(dec.Reset(data, size));
        QUIVER_RETURN_NOT_OK(dec.Decode(n, &s.offsets, &s.data));
      } else if (page.encoding == Encoding::PLAIN) {
        PlainByteArrayDecoder dec;
        dec.Reset(data, size);
        QUIVER_RETURN_NOT_OK(dec.Decode(n, &s.offsets, &s.data));
      } else {
        testing::Strings dict;
        PlainByteArrayDecoder plain;
        plain.Reset(chunk.dictionary.data(), static_cast<int64_t>(chunk.dictionary.size()));
        QUIVER_RETURN_NOT_OK(plain.Decode(chunk.dictionary_count, &dict.offsets, &dict.data));
        DictionaryDecoder dec;
        QUIVER_RETURN_NOT_OK(dec.Reset(data, size, chunk.dictionary_count));
        QUIVER_RETURN_NOT_OK(dec.DecodeByteArrays(reinterpret_cast<const int32_t*>(dict.offsets.data()),
                                                  dict.data.data(), n, &s.offsets, &s.data));
      }
      auto all = s.all();
      out->insert(out->end(), all.begin(), all.end());
    } else {
      return Status::NotImplemented("test decodes INT32, INT64 and BYTE_ARRAY only");
    }
  }
  return Status::OK();
}

void CheckAgainstCsv(const std::string& name, const std::string& csv_name, int64_t expect_rows) {
  QUIVER_CORPUS_OR_SKIP(root);
  const auto dir = root / "parquet-testing" / "data";
  if (!std::filesystem::exists(dir / name)) GTEST_SKIP() << "missing " << name;
  std::vector<Chunk> chunks;
  Status st = ReadChunks(ReadAll(dir / name), &chunks);
  ASSERT_TRUE(st.ok()) << st.ToString();
  auto rows = ReadCsv(dir / csv_name);
  ASSERT_EQ(static_cast<int64_t>(rows.size()), expect_rows);
  ASSERT_EQ(chunks.size(), rows[0].size());
  for (size_t c = 0; c < chunks.size(); ++c) {
    std::vector<std::string> got;
    st = DecodeChunk(chunks[c], &got);
    ASSERT_TRUE(st.ok()) << name << " column " << c << ": " << st.ToString();
    std::vector<std::string> expect;
    for (const auto& row : rows) {
      if (row.size() > c && row[c]) expect.push_back(*row[c]);
    }
    ASSERT_EQ(got, expect) << name << " column " << c;
  }
}

TEST(CorpusPages, DeltaBinaryPackedMatchesExpectedCsv) {
  CheckAgainstCsv("delta_binary_packed.parquet", "delta_binary_packed_expect.csv", 200);
}
TEST(CorpusPages, DeltaByteArrayMatchesExpectedCsv) {
  CheckAgainstCsv("delta_byte_array.parquet", "delta_byte_array_expect.csv", 1000);
}
TEST(CorpusPages, DeltaRequiredColumnsMatchExpectedCsv) {
  CheckAgainstCsv("delta_encoding_required_column.parquet", "delta_encoding_required_column_expect.csv", 100);
}
TEST(CorpusPages, DeltaOptionalColumnsMatchExpectedCsv) {
  CheckAgainstCsv("delta_encoding_optional_column.parquet", "delta_encoding_optional_column_expect.csv", 100);
}

TEST(CorpusPages, EveryCodecDecompressesRealPages) {
  QUIVER_CORPUS_OR_SKIP(root);
  const auto dir = root / "parquet-testing" / "data";
  const std::vector<std::pair<std::string, compress::Codec>> files = {
      {"alltypes_plain.snappy.parquet", compress::Codec::kSnappy},
      {"datapage_v2.snappy.parquet", compress::Codec::kSnappy},
      {"concatenated_gzip_members.parquet", compress::Codec::kGzip},
      {"large_string_map.brotli.parquet", compress::Codec::kBrotli},
      {"hadoop_lz4_compressed.parquet", compress::Codec::kLz4Hadoop},
      {"hadoop_lz4_compressed_larger.parquet", compress::Codec::kLz4Hadoop},
      {"non_hadoop_lz4_compressed.parquet", compress::Codec::kLz4Hadoop},
      {"lz4_raw_compressed.parquet", compress::Codec::kLz4Raw},
      {"lz4_raw_compressed_larger.parquet", compress::Codec::kLz4Raw},
      {"byte_stream_split.zstd.parquet", compress::Codec::kZstd},
  };
  for (const auto& [name, codec] : files) {
    if (!std::filesystem::exists(dir / name)) {
      ADD_FAILURE() << "corpus present but " << name << " missing";
      continue;
    }
    std::vector<Chunk> chunks;
    Status st = ReadChunks(ReadAll(dir / name), &chunks);
    ASSERT_TRUE(st.ok()) << name << ": " << st.ToString();
    int64_t pages = 0;
    for (const Chunk& c : chunks) {
      if (c.codec == codec) pages += static_cast<int64_t>(c.pages.size());
    }
    EXPECT_GT(pages, 0) << name << " has no " << compress::CodecName(codec) << " pages";
  }
}

}  // namespace
}  // namespace quiver::parquet::encoding
