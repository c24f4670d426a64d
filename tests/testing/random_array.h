// Random arrays of any type, with nulls, for round-trip and property tests.
#pragma once

#include <cstdint>
#include <cmath>
#include <random>
#include <string>

#include "quiver/columnar/builder.h"

namespace quiver::testing {

class RandomArrays {
 public:
  explicit RandomArrays(uint64_t seed) : rng_(seed) {}

  // `null_probability` applies at every level (list elements, struct fields, ...).
  Array Make(const TypePtr& type, int64_t length, double null_probability = 0.2) {
    auto builder = MakeBuilder(type);
    EXPECT_TRUE(builder.ok()) << builder.status().ToString();
    for (int64_t i = 0; i < length; ++i) Append(builder->get(), null_probability, 0);
    auto out = (*builder)->Finish();
    EXPECT_TRUE(out.ok()) << out.status().ToString();
    return *out;
  }

 private:
  bool Coin(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  int64_t Int(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng_); }
  uint64_t Bits() { return rng_(); }

  std::string Text() {
    static const char* pieces[] = {"a", "quiver", ",", "\"", "\n", "é", "日本", "", " ", "\xF0\x9F\x98\x80"};
    std::string s;
    int64_t n = Int(0, 6);
    for (int64_t i = 0; i < n; ++i) s += pieces[Int(0, 9)];
    return s;
  }

  template <typename T>
  void AppendNum(ArrayBuilder* b, T v) {
    EXPECT_TRUE(static_cast<NumericBuilder<T>*>(b)->Append(v).ok());
  }

  void Append(ArrayBuilder* b, double p, int depth) {
    const DataType& t = *b->type();
    if (Coin(p) && t.id() != TypeId::kMap) {
      EXPECT_TRUE(b->AppendNull().ok());
      return;
    }
    switch (t.id()) {
      case TypeId::kBool: EXPECT_TRUE(static_cast<BooleanBuilder*>(b)->Append(Coin(0.5)).ok()); return;
      case TypeId::kInt8: AppendNum<int8_t>(b, static_cast<int8_t>(Bits())); return;
      case TypeId::kInt16: AppendNum<int16_t>(b, static_cast<int16_t>(Bits())); return;
      case TypeId::kInt32: case TypeId::kDate32: AppendNum<int32_t>(b, static_cast<int32_t>(Int(-800000, 800000))); return;
      case TypeId::kTime32: AppendNum<int32_t>(b, static_cast<int32_t>(Int(0, 86399))); return;
      case TypeId::kInt64: AppendNum<int64_t>(b, static_cast<int64_t>(Bits())); return;
      case TypeId::kTime64: AppendNum<int64_t>(b, Int(0, 86399999999)); return;
      case TypeId::kTimestamp: AppendNum<int64_t>(b, Int(-4000000000000000, 4000000000000000)); return;
      case TypeId::kUInt8: AppendNum<uint8_t>(b, static_cast<uint8_t>(Bits())); return;
      case TypeId::kUInt16: case TypeId::kFloat16: AppendNum<uint16_t>(b, static_cast<uint16_t>(Bits())); return;
      case TypeId::kUInt32: AppendNum<uint32_t>(b, static_cast<uint32_t>(Bits())); return;
      case TypeId::kUInt64: AppendNum<uint64_t>(b, Bits()); return;
      case TypeId::kFloat32: AppendNum<float>(b, static_cast<float>(Int(-1000000, 1000000)) / 64.0f); return;
      case TypeId::kFloat64: AppendNum<double>(b, Coin(0.05) ? std::nan("") : static_cast<double>(Int(-1000000, 1000000)) / 1024.0); return;
      case TypeId::kDecimal128: {
        __int128 v = static_cast<__int128>(static_cast<int64_t>(Bits())) * Int(1, 1000000);
        EXPECT_TRUE(static_cast<FixedSizeBinaryBuilder*>(b)->AppendDecimal(v).ok());
        return;
      }
      case TypeId::kFixedSizeBinary: {
        std::string s(static_cast<size_t>(t.fixed_size()), '\0');
        for (auto& c : s) c = static_cast<char>(Bits());
        EXPECT_TRUE(static_cast<FixedSizeBinaryBuilder*>(b)->Append(s).ok());
        return;
      }
      case TypeId::kString: case TypeId::kBinary:
        EXPECT_TRUE(static_cast<BinaryBuilder*>(b)->Append(Text()).ok());
        return;
      case TypeId::kList: {
        auto* lb = static_cast<ListBuilder*>(b);
        EXPECT_TRUE(lb->Append().ok());
        int64_t n = depth > 3 ? 0 : Int(0, 4);
        for (int64_t i = 0; i < n; ++i) Append(lb->value_builder(), p, depth + 1);
        return;
      }
      case TypeId::kStruct: {
        auto* sb = static_cast<StructBuilder*>(b);
        EXPECT_TRUE(sb->Append().ok());
        for (int i = 0; i < sb->num_fields(); ++i) Append(sb->field_builder(i), p, depth + 1);
        return;
      }
      case TypeId::kMap: {
        auto* mb = static_cast<MapBuilder*>(b);
        if (Coin(p)) {
          EXPECT_TRUE(mb->AppendNull().ok());
          return;
        }
        EXPECT_TRUE(mb->Append().ok());
        int64_t n = depth > 3 ? 0 : Int(0, 3);
        for (int64_t i = 0; i < n; ++i) {
          Append(mb->key_builder(), 0.0, depth + 1);  // keys are never null
          Append(mb->item_builder(), p, depth + 1);
        }
        return;
      }
      case TypeId::kDenseUnion: ADD_FAILURE() << "no random dense unions (no builder)"; return;
    }
  }

  std::mt19937_64 rng_;
};

}  // namespace quiver::testing
