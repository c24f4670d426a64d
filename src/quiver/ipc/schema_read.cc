#include "quiver/ipc/schema_read_internal.h"

#include <fmt/format.h>

#include <algorithm>

#include "quiver/ipc/format.h"

namespace quiver::ipc {
namespace {

namespace f = format;

KeyValueMetadata ReadMetadata(const fb::Table& t, int slot) {
  KeyValueMetadata out;
  fb::Vector v = t.VectorOf(slot, 4);
  for (uint32_t i = 0; i < v.size(); ++i) {
    fb::Table kv = v.TableAt(i);
    out.emplace_back(std::string(kv.String(f::key_value::key)), std::string(kv.String(f::key_value::value)));
  }
  return out;
}

quiver::TimeUnit UnitOf(int16_t u) {
  switch (u) {
    case f::kSecond: return quiver::TimeUnit::kSecond;
    case f::kMillisecond: return quiver::TimeUnit::kMilli;
    case f::kMicrosecond: return quiver::TimeUnit::kMicro;
    default: return quiver::TimeUnit::kNano;
  }
}

Status Unsupported(const std::string& path, std::string_view what) {
  return Status::NotImplemented(fmt::format("field '{}': {} is not supported by quiver", path, what));
}

Result<FieldInfo> ReadField(const fb::Table& t, const std::string& parent, int depth) {
  FieldInfo info;
  const std::string name(t.String(f::field::name));
  const std::string path = parent.empty() ? name : parent + "." + name;
  if (depth > fb::kMaxDepth) return Status::Corrupt(fmt::format("field '{}' is nested deeper than {}", path, fb::kMaxDepth));
  info.tag = t.Scalar<uint8_t>(f::field::type_type, 0);
  fb::Table type = t.Child(f::field::type);
  fb::Vector kids = t.VectorOf(f::field::children, 4);
  std::vector<Field> child_fields;
  for (uint32_t i = 0; i < kids.size(); ++i) {
    QUIVER_ASSIGN_OR_RETURN(FieldInfo c, ReadField(kids.TableAt(i), path, depth + 1));
    child_fields.push_back(c.field);
    info.children.push_back(std::move(c));
  }
  if (!t.context()->ok()) return t.context()->status();
  fb::Table dict = t.Child(f::field::dictionary);
  if (dict.valid()) {
    info.dict_id = dict.Scalar<int64_t>(f::dictionary_encoding::id, 0);
    fb::Table index = dict.Child(f::dictionary_encoding::index_type);
    if (index.valid()) {
      info.index_bits = index.Scalar<int32_t>(f::int_type::bit_width, 0);
      info.index_signed = index.Bool(f::int_type::is_signed);
    }
    if (info.index_bits != 8 && info.index_bits != 16 && info.index_bits != 32 && info.index_bits != 64) {
      return Status::Corrupt(fmt::format("field '{}': dictionary index width of {} bits", path, info.index_bits));
    }
  }
  auto need_children = [&](size_t n) -> Status {
    if (child_fields.size() != n) {
      return Status::Corrupt(fmt::format("field '{}': an Arrow {} has {} children, not {}", path,
                                         f::TypeTagName(info.tag), child_fields.size(), n));
    }
    return Status::OK();
  };
  if (!type.valid() && info.tag != f::kNull) {
    if (!t.context()->ok()) return t.context()->status();
    return Status::Corrupt(fmt::format("field '{}' has no type", path));
  }
  TypePtr ty;
  switch (info.tag) {
    case f::kInt: {
      const int bits = type.Scalar<int32_t>(f::int_type::bit_width, 0);
      const bool sign = type.Bool(f::int_type::is_signed);
      switch (bits) {
        case 8: ty = sign ? int8() : uint8(); break;
        case 16: ty = sign ? int16() : uint16(); break;
        case 32: ty = sign ? int32() : uint32(); break;
        case 64: ty = sign ? int64() : uint64(); break;
        default: return Status::Corrupt(fmt::format("field '{}': integer width of {} bits", path, bits));
      }
      break;
    }
    case f::kFloatingPoint:
      switch (type.Scalar<int16_t>(f::floating_point::precision, f::kHalf)) {
        case f::kHalf: ty = float16(); break;
        case f::kSingle: ty = float32(); break;
        case f::kDouble: ty = float64(); break;
        default: return Status::Corrupt(fmt::format("field '{}': unknown floating-point precision", path));
      }
      break;
    case f::kBool: ty = boolean(); break;
    case f::kUtf8: ty = utf8(); break;
    case f::kBinary: ty = binary(); break;
    case f::kLargeUtf8: ty = utf8(); info.large = true; break;
    case f::kLargeBinary: ty = binary(); info.large = true; break;
    case f::kUtf8View: ty = utf8(); info.view = true; break;
    case f::kBinaryView: ty = binary(); info.view = true; break;
    case f::kDecimal: {
      const int bits = type.Scalar<int32_t>(f::decimal::bit_width, 128);
      const int precision = type.Scalar<int32_t>(f::decimal::precision, 0);
      const int scale = type.Scalar<int32_t>(f::decimal::scale, 0);
      if (bits != 128) return Unsupported(path, fmt::format("decimal{}", bits));
      if (precision < 1 || precision > 38 || scale > precision) {
        return Unsupported(path, fmt::format("decimal128 with precision {} and scale {}", precision, scale));
      }
      ty = decimal128(precision, scale);
      break;
    }
    case f::kDate:
      if (type.Scalar<int16_t>(f::date::unit, f::kDateMillisecond) != f::kDay) return Unsupported(path, "date64 (milliseconds)");
      ty = date32();
      break;
    case f::kTime: {
      const int16_t unit = type.Scalar<int16_t>(f::time::unit, f::kMillisecond);
      const int bits = type.Scalar<int32_t>(f::time::bit_width, 32);
      if (bits == 32 && (unit == f::kSecond || unit == f::kMillisecond)) {
        ty = time32(UnitOf(unit));
      } else if (bits == 64 && (unit == f::kMicrosecond || unit == f::kNanosecond)) {
        ty = time64(UnitOf(unit));
      } else {
        return Status::Corrupt(fmt::format("field '{}': time of {} bits in unit {}", path, bits, unit));
      }
      break;
    }
    case f::kTimestamp: {
      const int16_t unit = type.Scalar<int16_t>(f::timestamp::unit, f::kSecond);
      if (unit < f::kSecond || unit > f::kNanosecond) return Status::Corrupt(fmt::format("field '{}': timestamp unit {}", path, unit));
      ty = timestamp(UnitOf(unit), std::string(type.String(f::timestamp::timezone)));
      break;
    }
    case f::kFixedSizeBinary: {
      const int width = type.Scalar<int32_t>(f::fixed_size_binary::byte_width, 0);
      // quiver counts a type's width in bits in an int.
      if (width <= 0 || width > INT32_MAX / 8) {
        return Status::Corrupt(fmt::format("field '{}': fixed-size binary of width {}", path, width));
      }
      ty = fixed_size_binary(width);
      break;
    }
    case f::kList:
    case f::kLargeList:
      QUIVER_RETURN_NOT_OK(need_children(1));
      ty = list(child_fields[0]);
      info.large = info.tag == f::kLargeList;
      break;
    case f::kFixedSizeList: {
      QUIVER_RETURN_NOT_OK(need_children(1));
      info.list_size = type.Scalar<int32_t>(f::fixed_size_list::list_size, 0);
      if (info.list_size < 0) return Status::Corrupt(fmt::format("field '{}': fixed-size list of size {}", path, info.list_size));
      ty = list(child_fields[0]);
      break;
    }
    case f::kStruct: ty = struct_(child_fields); break;
    case f::kMap: {
      QUIVER_RETURN_NOT_OK(need_children(1));
      const Field& entries = child_fields[0];
      if (entries.type->id() != TypeId::kStruct || entries.type->num_fields() != 2) {
        return Status::Corrupt(fmt::format("field '{}': a map's entries are not a struct of key and value", path));
      }
      DataType::Params p;
      p.keys_sorted = type.Bool(f::map::keys_sorted);
      p.fields = child_fields;
      ty = std::make_shared<DataType>(TypeId::kMap, std::move(p));
      break;
    }
    case f::kUnion: {
      const int16_t mode = type.Scalar<int16_t>(f::union_type::mode, f::kSparse);
      if (mode != f::kSparse && mode != f::kDense) return Status::Corrupt(fmt::format("field '{}': union mode {}", path, mode));
      info.sparse = mode == f::kSparse;
      // Without typeIds the codes are the members' positions.
      fb::Vector ids = type.VectorOf(f::union_type::type_ids, 4);
      std::vector<int8_t> codes;
      if (child_fields.size() > 128) return Status::Corrupt(fmt::format("field '{}': a union of {} members", path, child_fields.size()));
      for (size_t i = 0; i < child_fields.size(); ++i) {
        const int32_t c = ids.size() == 0 ? static_cast<int32_t>(i) : i < ids.size() ? ids.StructAt<int32_t>(static_cast<uint32_t>(i)) : -1;
        if (c < 0 || c > 127 || std::count(codes.begin(), codes.end(), static_cast<int8_t>(c)) != 0) {
          return Status::Corrupt(fmt::format("field '{}': union type code {} for member {} (0..127, distinct, one per member)", path, c, i));
        }
        codes.push_back(static_cast<int8_t>(c));
      }
      if (ids.size() != 0 && ids.size() != child_fields.size()) {
        return Status::Corrupt(fmt::format("field '{}': {} union type codes for {} members", path, ids.size(), child_fields.size()));
      }
      ty = dense_union(child_fields, std::move(codes));
      break;
    }
    default:
      return Unsupported(path, fmt::format("the Arrow type {}", f::TypeTagName(info.tag)));
  }
  if (!t.context()->ok()) return t.context()->status();
  info.field = field(name, std::move(ty), t.Bool(f::field::nullable), ReadMetadata(t, f::field::custom_metadata));
  return info;
}

}  // namespace

void CollectDictionaries(const std::vector<FieldInfo>& fields, std::map<int64_t, const FieldInfo*>* out) {
  for (const auto& fi : fields) {
    if (fi.dict_id >= 0) out->emplace(fi.dict_id, &fi);
    CollectDictionaries(fi.children, out);
  }
}

Status ReadSchema(const fb::Table& s, std::vector<FieldInfo>* fields, SchemaPtr* schema) {
  if (s.Scalar<int16_t>(f::schema::endianness, f::kLittle) != f::kLittle) {
    return Status::NotImplemented("the Arrow IPC data is big-endian; quiver reads little-endian data only");
  }
  fb::Vector v = s.VectorOf(f::schema::fields, 4);
  std::vector<Field> out;
  for (uint32_t i = 0; i < v.size(); ++i) {
    QUIVER_ASSIGN_OR_RETURN(FieldInfo fi, ReadField(v.TableAt(i), "", 0));
    out.push_back(fi.field);
    fields->push_back(std::move(fi));
  }
  KeyValueMetadata md = ReadMetadata(s, f::schema::custom_metadata);
  if (!s.context()->ok()) return s.context()->status();
  *schema = std::make_shared<Schema>(std::move(out), std::move(md));
  return Status::OK();
}

}  // namespace quiver::ipc
