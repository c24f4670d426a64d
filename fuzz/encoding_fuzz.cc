// libFuzzer target for every Parquet decoder and codec: the first two bytes choose the decoder
// and its parameters, the rest is the page. Decoders must fail cleanly (Status) and every SIMD
// level must produce exactly what the scalar path produces.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "quiver/compress/codec.h"
#include "quiver/parquet/encoding/byte_stream_split_internal.h"
#include "quiver/parquet/encoding/delta_binary_packed_internal.h"
#include "quiver/parquet/encoding/delta_byte_array_internal.h"
#include "quiver/parquet/encoding/delta_length_byte_array_internal.h"
#include "quiver/parquet/encoding/dictionary_internal.h"
#include "quiver/parquet/encoding/plain_internal.h"
#include "quiver/parquet/encoding/rle_bitpacked_internal.h"

using namespace quiver;
using namespace quiver::parquet::encoding;

namespace {

void Check(bool cond) {
  if (!cond) __builtin_trap();
}

// Decodes with each level; all must agree on success and on the values.
template <typename Fn>
void Differential(Fn&& decode) {
  std::vector<uint8_t> first;
  bool first_ok = false;
  bool have = false;
  for (SimdLevel level : SupportedSimdLevels()) {
    std::vector<uint8_t> out;
    const bool ok = decode(level, &out);
    if (!have) {
      first = out;
      first_ok = ok;
      have = true;
    } else {
      Check(ok == first_ok);
      if (ok) Check(out == first);
    }
  }
}

template <typename T>
void Append(std::vector<uint8_t>* out, const T* v, int64_t n) {
  const auto* p = reinterpret_cast<const uint8_t*>(v);
  out->insert(out->end(), p, p + n * sizeof(T));
}

void AppendStrings(std::vector<uint8_t>* out, const BufferBuilder& offsets, const BufferBuilder& data) {
  out->insert(out->end(), offsets.data(), offsets.data() + offsets.size());
  out->insert(out->end(), data.data(), data.data() + data.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 3) return 0;
  const uint8_t which = data[0];
  const uint8_t param = data[1];
  const int64_t n = 1 + (data[2] * 61) % 3000;
  data += 3;
  size -= 3;
  const auto len = static_cast<int64_t>(size);
  switch (which % 10) {
    case 0:  // RLE/bit-packed, batches of odd sizes
      Differential([&](SimdLevel level, std::vector<uint8_t>* out) {
        RleBitPackedDecoder dec(level);
        if (!dec.Reset(data, len, param % 34).ok()) return false;
        std::vector<uint32_t> v(n);
        int64_t got = 0;
        for (int64_t k = 1; got < n; k = k * 3 + 1) {
          const int64_t r = dec.GetBatch(v.data() + got, std::min(k, n - got));
          if (r == 0) break;
          got += r;
        }
        Append(out, v.data(), got);
        return true;
      });
      break;
    case 1:  // dictionary indices and gathers
      Differential([&](SimdLevel level, std::vector<uint8_t>* out) {
        const int64_t dict_size = param;
        std::vector<int64_t> dict(dict_size + 1);
        for (int64_t i = 0; i < dict_size; ++i) dict[i] = i * 1000003;
        DictionaryDecoder dec(level);
        if (!dec.Reset(data, len, dict_size).ok()) return false;
        std::vector<int64_t> v(n);
        if (!dec.Decode(dict.data(), v.data(), n).ok()) return false;
        Append(out, v.data(), n);
        return true;
      });
      break;
    case 2:
    case 3: {
      const bool wide = which % 10 == 3;
      Differential([&](SimdLevel level, std::vector<uint8_t>* out) {
        if (wide) {
          DeltaBinaryPackedDecoder<int64_t> dec(level);
          if (!dec.Reset(data, len).ok()) return false;
          const int64_t k = std::min(n, dec.total_values());
          std::vector<int64_t> v(k);
          if (!dec.Decode(v.data(), k).ok()) return false;
          Append(out, v.data(), k);
          int64_t used;
          return dec.ConsumeAll(&used).ok();
        }
        DeltaBinaryPackedDecoder<int32_t> dec(level);
        if (!dec.Reset(data, len).ok()) return false;
        const int64_t k = std::min(n, dec.total_values());
        std::vector<int32_t> v(k);
        if (!dec.Decode(v.data(), k).ok()) return false;
        Append(out, v.data(), k);
        return true;
      });
      break;
    }
    case 4:
      Differential([&](SimdLevel level, std::vector<uint8_t>* out) {
        DeltaLengthByteArrayDecoder dec(level);
        if (!dec.Reset(data, len).ok()) return false;
        BufferBuilder offsets, values;
        if (!dec.Decode(std::min(n, dec.values_left()), &offsets, &values).ok()) return false;
        AppendStrings(out, offsets, values);
        return true;
      });
      break;
    case 5:
      Differential([&](SimdLevel level, std::vector<uint8_t>* out) {
        DeltaByteArrayDecoder dec(level);
        if (!dec.Reset(data, len).ok()) return false;
        const int64_t k = std::min(n, dec.values_left());
        if (param & 1) {
          const int width = 1 + param % 20;
          std::vector<uint8_t> v(k * width);
          if (!dec.DecodeFixed(k, width, v.data()).ok()) return false;
          out->insert(out->end(), v.begin(), v.end());
          return true;
        }
        BufferBuilder offsets, values;
        if (!dec.Decode(k / 2, &offsets, &values).ok()) return false;
        if (!dec.Decode(k - k / 2, &offsets, &values).ok()) return false;
        AppendStrings(out, offsets, values);
        return true;
      });
      break;
    case 6:
      Differential([&](SimdLevel level, std::vector<uint8_t>* out) {
        const int width = 1 + param % 17;
        ByteStreamSplitDecoder dec(level);
        if (!dec.Reset(data, len - len % width, width).ok()) return false;
        const int64_t k = std::min(n, dec.values_left());
        std::vector<uint8_t> v(k * width);
        if (!dec.Decode(v.data(), k).ok()) return false;
        out->insert(out->end(), v.begin(), v.end());
        return true;
      });
      break;
    case 7: {
      PlainByteArrayDecoder dec;
      dec.Reset(data, len);
      BufferBuilder offsets, values;
      (void)dec.Decode(n, &offsets, &values);
      PlainBooleanDecoder b;
      b.Reset(data, len);
      std::vector<uint8_t> bits(n / 8 + 2);
      (void)b.DecodeBitmap(bits.data(), param % 8, std::min(n, b.values_left()));
      PlainFixedDecoder f;
      if (f.Reset(data, len, 1 + param % 16).ok()) {
        std::vector<uint8_t> v(n * (1 + param % 16));
        (void)f.Decode(v.data(), std::min(n, f.values_left()));
      }
      break;
    }
    case 8: {
      std::vector<int16_t> levels(n);
      (void)DecodeLegacyBitPacked(data, len, param % 18, n, levels.data());
      break;
    }
    case 9: {
      // Codecs: expected size from the parameters, output checked for overruns by ASan.
      const auto codec = static_cast<compress::Codec>(param % 8);
      const int64_t expect = n * (1 + (param >> 3));
      std::vector<uint8_t> out(expect);
      (void)compress::Decompress(codec, {data, size}, out);
      break;
    }
  }
  return 0;
}
