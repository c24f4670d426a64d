#include "quiver/parquet/reader/page_reader_internal.h"

#include <fmt/format.h>
#include <libdeflate.h>

#include <cstring>

#include "quiver/parquet/metadata_codec.h"

namespace quiver::parquet::reader {

PageReader::PageReader(std::shared_ptr<Buffer> chunk, compress::Codec codec, int64_t num_values,
                       PageReaderOptions options)
    : chunk_(std::move(chunk)), codec_(codec), num_values_(num_values), options_(options), arena_(options.pool),
      scratch_(options.scratch ? options.scratch : &own_scratch_) {
  if (options_.decrypt.file != nullptr) cipher_ = std::make_unique<crypto::Cipher>();
}

Status PageReader::DecryptHeader(PageHeader* h) {
  const crypto::ChunkDecryption& d = options_.decrypt;
  std::span<const uint8_t> rest(chunk_->data() + pos_, static_cast<size_t>(chunk_->size() - pos_));
  // Only the chunk's first page can be its dictionary page; which one it is shows in the
  // header, so the first header is tried as the kind the metadata suggests, then the other.
  crypto::Module kinds[2] = {crypto::Module::kDataPageHeader, crypto::Module::kDictionaryPageHeader};
  if (page_index_ == 1 && d.has_dictionary) std::swap(kinds[0], kinds[1]);
  const int tries = page_index_ == 1 ? 2 : 1;
  Status first;
  int64_t consumed = 0;
  for (int t = 0; t < tries; ++t) {
    QUIVER_RETURN_NOT_OK(crypto::ModuleAadOf(*d.file, kinds[t], d.row_group, d.column, data_page_ordinal_, &aad_));
    Status st = cipher_->GcmDecrypt(*d.key, rest, aad_, crypto::ModuleName(kinds[0]), &header_plain_, &consumed);
    if (st.ok()) {
      first = Status::OK();
      break;
    }
    if (t == 0) first = std::move(st);  // the kind the metadata suggests names the failure
    if (first.code() != StatusCode::kInvalid) break;
  }
  QUIVER_RETURN_NOT_OK(first);
  QUIVER_RETURN_NOT_OK(DecodePageHeader({header_plain_.data(), header_plain_.size()}, &arena_, h));
  pos_ += consumed;
  return Status::OK();
}

Status PageReader::DecryptBody(const PageHeader& h, std::span<const uint8_t> module, std::span<const uint8_t>* body) {
  const crypto::ChunkDecryption& d = options_.decrypt;
  const bool dict = h.type == PageType::DICTIONARY_PAGE;
  const crypto::Module kind = dict ? crypto::Module::kDictionaryPage : crypto::Module::kDataPage;
  const bool ctr = d.file->gcm_ctr;
  // `module` is exactly the length its prefix gives (NextRead cut it so); this checks it holds
  // a nonce and a tag.
  QUIVER_ASSIGN_OR_RETURN(int64_t len, crypto::Cipher::ModuleLength(module, ctr ? crypto::kCtrOverhead
                                                                                 : crypto::kGcmOverhead,
                                                                    crypto::ModuleName(kind)));
  if (!body_plain_ || body_plain_->capacity() < len) {
    body_plain_.reset();
    QUIVER_ASSIGN_OR_RETURN(body_plain_, Buffer::Allocate(len, options_.pool));
  }
  int64_t plain = 0;
  if (ctr) {
    QUIVER_RETURN_NOT_OK(cipher_->CtrDecryptTo(*d.key, module, crypto::ModuleName(kind), body_plain_->mutable_data(), &plain));
  } else {
    QUIVER_RETURN_NOT_OK(crypto::ModuleAadOf(*d.file, kind, d.row_group, d.column, data_page_ordinal_, &aad_));
    QUIVER_RETURN_NOT_OK(cipher_->GcmDecryptTo(*d.key, module, aad_, crypto::ModuleName(kind),
                                               body_plain_->mutable_data(), &plain));
  }
  if (!dict) ++data_page_ordinal_;
  *body = {body_plain_->data(), static_cast<size_t>(plain)};
  return Status::OK();
}

Result<uint8_t*> PageLog::Grow(int64_t n) {
  if (!bytes_) {
    QUIVER_ASSIGN_OR_RETURN(bytes_, Buffer::Allocate(n, pool_));
  } else {
    QUIVER_RETURN_NOT_OK(bytes_->Resize(size_ + n));
  }
  uint8_t* at = bytes_->mutable_data() + size_;
  size_ += n;
  return at;
}

Status PageLog::Keep(Page* page) {
  // A span already in the buffer (a body decompressed into it) keeps its place; the rest
  // point into the chunk's bytes, which the next chunk overwrites, and are copied.
  auto place = [&](std::span<const uint8_t> s, int64_t* at) -> Status {
    const uint8_t* base = bytes_ ? bytes_->data() : nullptr;
    if (base != nullptr && s.data() >= base && s.data() + s.size() <= base + size_ && !s.empty()) {
      *at = s.data() - base;
      return Status::OK();
    }
    *at = size_;
    QUIVER_ASSIGN_OR_RETURN(uint8_t* to, Grow(static_cast<int64_t>(s.size())));
    if (!s.empty()) std::memcpy(to, s.data(), s.size());
    return Status::OK();
  };
  Kept k;
  QUIVER_RETURN_NOT_OK(place(page->data, &k.data));
  QUIVER_RETURN_NOT_OK(place(page->repetition_levels, &k.repetition_levels));
  QUIVER_RETURN_NOT_OK(place(page->definition_levels, &k.definition_levels));
  k.page = *page;
  pages_.push_back(k);
  *page = PageAt(pages_.size() - 1);
  return Status::OK();
}

Page PageLog::PageAt(size_t i) const {
  const Kept& k = pages_[i];
  const uint8_t* base = bytes_ ? bytes_->data() : nullptr;
  auto at = [&](int64_t off, size_t n) {
    return n == 0 ? std::span<const uint8_t>() : std::span<const uint8_t>(base + off, n);
  };
  Page page = k.page;
  page.data = at(k.data, k.page.data.size());
  page.repetition_levels = at(k.repetition_levels, k.page.repetition_levels.size());
  page.definition_levels = at(k.definition_levels, k.page.definition_levels.size());
  return page;
}

Result<bool> PageReader::NextReplayed(Page* page) {
  const PageLog& log = *options_.replay;
  if (page_index_ >= log.num_pages()) return false;
  *page = log.PageAt(static_cast<size_t>(page_index_++));
  return true;
}

Status PageReader::Decompress(std::span<const uint8_t> in, int64_t uncompressed_size,
                              std::span<const uint8_t>* out) {
  if (uncompressed_size < 0) return Status::Corrupt(fmt::format("negative uncompressed size {}", uncompressed_size));
  if (codec_ == compress::Codec::kUncompressed) {
    if (static_cast<int64_t>(in.size()) != uncompressed_size) {
      return Status::Corrupt(fmt::format("uncompressed page body is {} bytes, header says {}", in.size(),
                                         uncompressed_size));
    }
    *out = in;
    return Status::OK();
  }
  // An empty body (all-null or empty V2 page) has no compressed stream to decode.
  if (uncompressed_size == 0) {
    *out = {};
    return Status::OK();
  }
  if (options_.log != nullptr) {
    QUIVER_ASSIGN_OR_RETURN(uint8_t* to, options_.log->Grow(uncompressed_size));
    std::span<uint8_t> dst(to, static_cast<size_t>(uncompressed_size));
    QUIVER_RETURN_NOT_OK(compress::Decompress(codec_, in, dst));
    *out = dst;
    return Status::OK();
  }
  std::shared_ptr<Buffer>& scratch = *scratch_;
  if (!scratch) {
    QUIVER_ASSIGN_OR_RETURN(scratch, Buffer::Allocate(uncompressed_size, options_.pool));
  } else {
    QUIVER_RETURN_NOT_OK(scratch->Resize(uncompressed_size));
  }
  std::span<uint8_t> dst(scratch->mutable_data(), static_cast<size_t>(uncompressed_size));
  QUIVER_RETURN_NOT_OK(compress::Decompress(codec_, in, dst));
  *out = dst;
  return Status::OK();
}

Result<bool> PageReader::Next(Page* page) {
  if (options_.replay != nullptr) return NextReplayed(page);
  if (options_.log == nullptr) return NextRead(page);
  QUIVER_ASSIGN_OR_RETURN(bool more, NextRead(page));
  if (more) QUIVER_RETURN_NOT_OK(options_.log->Keep(page).WithContext(fmt::format("page {}", page->index)));
  return more;
}

Result<bool> PageReader::NextRead(Page* page) {
  const uint8_t* base = chunk_->data();
  const int64_t size = chunk_->size();
  while (values_seen_ < num_values_ && pos_ < size) {
    const int32_t index = page_index_++;
    auto fail = [&](Status st) { return std::move(st).WithContext(fmt::format("page {}", index)); };
    arena_.Reset();
    PageHeader h;
    Status st;
    if (cipher_) {
      st = DecryptHeader(&h);
      if (!st.ok()) return fail(std::move(st));
    } else {
      size_t header_len = 0;
      st = DecodePageHeader({base + pos_, static_cast<size_t>(size - pos_)}, &arena_, &h, &header_len);
      if (!st.ok()) return fail(std::move(st));
      pos_ += static_cast<int64_t>(header_len);
    }
    const bool encrypted = cipher_ && (h.type == PageType::DICTIONARY_PAGE || h.type == PageType::DATA_PAGE ||
                                       h.type == PageType::DATA_PAGE_V2);
    int64_t stored = h.compressed_page_size;
    if (encrypted) {
      // The specification makes compressed_page_size the encrypted module's size; DuckDB (1.5)
      // writes the size before encryption there. The module's own length prefix decides: a
      // wrong one fails the module's tag (GCM) or its length check below.
      auto module = crypto::Cipher::ModuleLength({base + pos_, static_cast<size_t>(size - pos_)}, 0,
                                                 crypto::ModuleName(h.type == PageType::DICTIONARY_PAGE
                                                                        ? crypto::Module::kDictionaryPage
                                                                        : crypto::Module::kDataPage));
      if (!module.ok()) return fail(module.status());
      stored = *module;
    }
    if (stored < 0 || stored > size - pos_) {
      return fail(Status::Corrupt(fmt::format("compressed page size {} exceeds the {} bytes left in the column chunk",
                                              stored, size - pos_)));
    }
    std::span<const uint8_t> body(base + pos_, static_cast<size_t>(stored));
    pos_ += stored;
    if (encrypted) {
      st = DecryptBody(h, body, &body);
      if (!st.ok()) return fail(std::move(st));
    } else if (options_.verify_crc && h.crc) {
      const uint32_t crc = libdeflate_crc32(0, body.data(), body.size());
      if (crc != static_cast<uint32_t>(*h.crc)) {
        return fail(Status::Corrupt(fmt::format("page CRC mismatch: header says {:08x}, page bytes give {:08x}",
                                                static_cast<uint32_t>(*h.crc), crc)));
      }
    }
    *page = Page{};
    page->index = index;
    page->type = h.type;
    switch (h.type) {
      case PageType::DICTIONARY_PAGE: {
        if (!h.dictionary_page_header) {
          return fail(Status::Corrupt("dictionary page without a dictionary_page_header"));
        }
        const auto& d = *h.dictionary_page_header;
        if (d.num_values < 0) return fail(Status::Corrupt(fmt::format("dictionary has {} entries", d.num_values)));
        page->num_values = d.num_values;
        page->encoding = d.encoding;
        st = Decompress(body, h.uncompressed_page_size, &page->data);
        if (!st.ok()) return fail(std::move(st));
        return true;
      }
      case PageType::DATA_PAGE: {
        if (!h.data_page_header) return fail(Status::Corrupt("data page without a data_page_header"));
        const auto& d = *h.data_page_header;
        if (d.num_values < 0) return fail(Status::Corrupt(fmt::format("data page has {} values", d.num_values)));
        page->num_values = d.num_values;
        page->encoding = d.encoding;
        page->definition_level_encoding = d.definition_level_encoding;
        page->repetition_level_encoding = d.repetition_level_encoding;
        st = Decompress(body, h.uncompressed_page_size, &page->data);
        if (!st.ok()) return fail(std::move(st));
        values_seen_ += d.num_values;
        return true;
      }
      case PageType::DATA_PAGE_V2: {
        if (!h.data_page_header_v2) return fail(Status::Corrupt("data page V2 without a data_page_header_v2"));
        const auto& d = *h.data_page_header_v2;
        if (d.num_values < 0 || d.num_nulls < 0 || d.num_nulls > d.num_values) {
          return fail(Status::Corrupt(fmt::format("data page V2 has {} values and {} nulls", d.num_values, d.num_nulls)));
        }
        const int64_t rep_len = d.repetition_levels_byte_length, def_len = d.definition_levels_byte_length;
        if (rep_len < 0 || def_len < 0 || rep_len + def_len > static_cast<int64_t>(body.size()) ||
            rep_len + def_len > h.uncompressed_page_size) {
          return fail(Status::Corrupt(fmt::format(
              "data page V2 level lengths {} + {} exceed the page ({} bytes compressed, {} uncompressed)", rep_len,
              def_len, body.size(), h.uncompressed_page_size)));
        }
        page->num_values = d.num_values;
        page->num_nulls = d.num_nulls;
        page->encoding = d.encoding;
        page->repetition_levels = body.subspan(0, static_cast<size_t>(rep_len));
        page->definition_levels = body.subspan(static_cast<size_t>(rep_len), static_cast<size_t>(def_len));
        std::span<const uint8_t> values = body.subspan(static_cast<size_t>(rep_len + def_len));
        const int64_t values_size = h.uncompressed_page_size - rep_len - def_len;
        if (d.is_compressed.value_or(true)) {
          st = Decompress(values, values_size, &page->data);
          if (!st.ok()) return fail(std::move(st));
        } else {
          if (static_cast<int64_t>(values.size()) != values_size) {
            return fail(Status::Corrupt(fmt::format("uncompressed V2 values are {} bytes, header says {}",
                                                    values.size(), values_size)));
          }
          page->data = values;
        }
        values_seen_ += d.num_values;
        return true;
      }
      case PageType::INDEX_PAGE:
        continue;
      default:
        // Unknown page types are skipped, as the format's forward-compatibility rules ask.
        continue;
    }
  }
  return false;
}

}  // namespace quiver::parquet::reader
