// Schema, Array, Column, RecordBatch and Table as Python objects: sizes, slicing, a readable
// repr, values as Python objects (to_pylist) and as NumPy arrays (zero-copy for fixed-width
// columns without nulls), and the Arrow PyCapsule interface.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cmath>

#include "binding.h"

namespace quiver::python {
namespace {

// Python objects the conversions build, imported once.
struct PyTypes {
  py::object date, time, datetime, timedelta, utc, decimal, zoneinfo;
  static const PyTypes& Get() {
    static const PyTypes* types = [] {
      auto* t = new PyTypes;
      py::module_ dt = py::module_::import("datetime");
      t->date = dt.attr("date");
      t->time = dt.attr("time");
      t->datetime = dt.attr("datetime");
      t->timedelta = dt.attr("timedelta");
      t->utc = dt.attr("timezone").attr("utc");
      t->decimal = py::module_::import("decimal").attr("Decimal");
      t->zoneinfo = py::module_::import("zoneinfo").attr("ZoneInfo");
      return t;
    }();
    return *types;
  }
};

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

int64_t MicrosPer(TimeUnit unit, int64_t v) {
  switch (unit) {
    case TimeUnit::kSecond: return v * 1000000;
    case TimeUnit::kMilli: return v * 1000;
    case TimeUnit::kMicro: return v;
    case TimeUnit::kNano: return FloorDiv(v, 1000);
  }
  return v;
}

py::object Value(const Array& a, int64_t i);

py::object Values(const Array& a) {
  py::list out(a.length());
  for (int64_t i = 0; i < a.length(); ++i) out[static_cast<size_t>(i)] = Value(a, i);
  return out;
}

py::object ValueOrRaise(const Array& a, int64_t i);

// Dates and times Python's datetime cannot hold (years outside 1..9999) raise InvalidInputError
// naming the value, rather than Python's bare OverflowError.
py::object Value(const Array& a, int64_t i) {
  try {
    return ValueOrRaise(a, i);
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_OverflowError) && !e.matches(PyExc_ValueError)) throw;
    const std::string why = e.what();
    RaiseInvalid("value " + FormatValue(a, i) + " of a " + a.type()->ToString() +
                 " column cannot be a Python datetime object (" + why + "); read the column with to_numpy()");
  }
}

py::object ValueOrRaise(const Array& a, int64_t i) {
  if (a.IsNull(i)) return py::none();
  const DataType& t = *a.type();
  const PyTypes& pt = PyTypes::Get();
  switch (t.id()) {
    case TypeId::kBool: return py::bool_(BooleanArray(a).Value(i));
    case TypeId::kInt8: return py::int_(PrimitiveArray<int8_t>(a).Value(i));
    case TypeId::kInt16: return py::int_(PrimitiveArray<int16_t>(a).Value(i));
    case TypeId::kInt32: return py::int_(PrimitiveArray<int32_t>(a).Value(i));
    case TypeId::kInt64: return py::int_(PrimitiveArray<int64_t>(a).Value(i));
    case TypeId::kUInt8: return py::int_(PrimitiveArray<uint8_t>(a).Value(i));
    case TypeId::kUInt16: return py::int_(PrimitiveArray<uint16_t>(a).Value(i));
    case TypeId::kUInt32: return py::int_(PrimitiveArray<uint32_t>(a).Value(i));
    case TypeId::kUInt64: return py::int_(PrimitiveArray<uint64_t>(a).Value(i));
    case TypeId::kFloat16: return py::float_(HalfToFloat(PrimitiveArray<uint16_t>(a).Value(i)));
    case TypeId::kFloat32: return py::float_(PrimitiveArray<float>(a).Value(i));
    case TypeId::kFloat64: return py::float_(PrimitiveArray<double>(a).Value(i));
    case TypeId::kDecimal128: return pt.decimal(FormatValue(a, i));
    case TypeId::kDate32:
      // 719163: the proleptic Gregorian ordinal of 1970-01-01.
      return pt.date.attr("fromordinal")(719163 + int64_t{PrimitiveArray<int32_t>(a).Value(i)});
    case TypeId::kTime32:
    case TypeId::kTime64: {
      const int64_t v = t.id() == TypeId::kTime32 ? PrimitiveArray<int32_t>(a).Value(i) : PrimitiveArray<int64_t>(a).Value(i);
      int64_t us = MicrosPer(t.unit(), v);
      return pt.time(us / 3600000000, us / 60000000 % 60, us / 1000000 % 60, us % 1000000);
    }
    case TypeId::kTimestamp: {
      const int64_t us = MicrosPer(t.unit(), PrimitiveArray<int64_t>(a).Value(i));
      py::object epoch = t.timezone().empty() ? pt.datetime(1970, 1, 1) : pt.datetime(1970, 1, 1, 0, 0, 0, 0, pt.utc);
      py::object v = epoch + pt.timedelta(py::arg("microseconds") = us);
      const std::string& tz = t.timezone();
      if (!tz.empty() && tz != "UTC" && tz != "utc" && tz != "+00:00" && tz != "Z") {
        v = v.attr("astimezone")(pt.zoneinfo(tz));
      }
      return v;
    }
    case TypeId::kString: {
      // Readers validate UTF-8 where they can; bytes that are not still read, as U+FFFD.
      std::string_view s = BinaryArray(a).GetView(i);
      PyObject* text = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace");
      if (text == nullptr) throw py::error_already_set();
      return py::reinterpret_steal<py::object>(text);
    }
    case TypeId::kBinary: {
      std::string_view s = BinaryArray(a).GetView(i);
      return py::bytes(s.data(), s.size());
    }
    case TypeId::kFixedSizeBinary: {
      std::string_view s = FixedSizeBinaryArray(a).GetView(i);
      return py::bytes(s.data(), s.size());
    }
    case TypeId::kList:
    case TypeId::kMap: {
      ListArray l(a);
      Array values = l.values().Slice(l.raw_offsets()[i], l.value_length(i));
      if (t.id() == TypeId::kList) return Values(values);
      StructArray entries(values);
      py::list out;
      for (int64_t k = 0; k < values.length(); ++k) {
        out.append(py::make_tuple(Value(entries.field(0), k), Value(entries.field(1), k)));
      }
      return out;
    }
    case TypeId::kStruct: {
      StructArray s(a);
      py::dict out;
      for (int f = 0; f < s.num_fields(); ++f) out[py::str(t.field(f).name)] = Value(s.field(f), i);
      return out;
    }
    case TypeId::kDenseUnion: {  // the active member's value
      DenseUnionArray u(a);
      return Value(u.member(u.child_index(i)), u.value_offset(i));
    }
  }
  return py::none();
}

// The NumPy dtype a fixed-width type's values are read as, or "" when there is none.
std::string NumpyDtype(const DataType& t) {
  switch (t.id()) {
    case TypeId::kInt8: return "int8";
    case TypeId::kInt16: return "int16";
    case TypeId::kInt32: return "int32";
    case TypeId::kInt64: return "int64";
    case TypeId::kUInt8: return "uint8";
    case TypeId::kUInt16: return "uint16";
    case TypeId::kUInt32: return "uint32";
    case TypeId::kUInt64: return "uint64";
    case TypeId::kFloat16: return "float16";
    case TypeId::kFloat32: return "float32";
    case TypeId::kFloat64: return "float64";
    case TypeId::kTimestamp: return std::string("datetime64[") + TimeUnitName(t.unit()) + "]";
    case TypeId::kTime64: return std::string("timedelta64[") + TimeUnitName(t.unit()) + "]";
    default: return "";
  }
}

// The values buffer itself as a read-only NumPy array that keeps the column's buffers alive.
py::array ZeroCopy(const Array& a, const std::string& dtype) {
  auto* keep = new std::shared_ptr<ArrayData>(a.data());
  py::capsule owner(keep, [](void* p) { delete static_cast<std::shared_ptr<ArrayData>*>(p); });
  py::dtype dt = py::dtype::from_args(py::str(dtype));
  const uint8_t* data = a.data()->buffers[1]->data() + a.offset() * a.type()->byte_width();
  py::array out(dt, {a.length()}, {}, data, owner);
  py::detail::array_proxy(out.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return out;
}

py::array NullMask(const Array& a) {
  py::array_t<bool> mask(a.length());
  bool* m = mask.mutable_data();
  for (int64_t i = 0; i < a.length(); ++i) m[i] = a.IsNull(i);
  return mask;
}

// NumPy values: fixed-width columns without nulls share the column's memory; with nulls,
// floats hold NaN, timestamps NaT and integers become float64 with NaN (as pandas and
// pyarrow do); booleans and dates are copied; other types are object arrays.
py::array ToNumpy(const Array& a, bool zero_copy_only) {
  const DataType& t = *a.type();
  const std::string dtype = NumpyDtype(t);
  const bool nulls = a.null_count() > 0;
  if (!dtype.empty() && !nulls) return ZeroCopy(a, dtype);
  if (zero_copy_only) {
    RaiseInvalid("to_numpy(zero_copy_only=True): a column of type " + t.ToString() + (nulls ? " with nulls" : "") +
                 " cannot be shared without a copy; pass zero_copy_only=False");
  }
  py::module_ np = py::module_::import("numpy");
  if (t.id() == TypeId::kBool && !nulls) {
    py::array_t<bool> out(a.length());
    bool* o = out.mutable_data();
    BooleanArray b(a);
    for (int64_t i = 0; i < a.length(); ++i) o[i] = b.Value(i);
    return out;
  }
  if (t.id() == TypeId::kDate32) {
    py::array_t<int64_t> days(a.length());
    int64_t* d = days.mutable_data();
    PrimitiveArray<int32_t> v(a);
    for (int64_t i = 0; i < a.length(); ++i) d[i] = v.Value(i);
    py::array out = days.attr("view")("datetime64[D]");
    if (nulls) out[NullMask(a)] = np.attr("datetime64")("NaT");
    return out;
  }
  if (!dtype.empty()) {
    const bool is_int = t.id() >= TypeId::kInt8 && t.id() <= TypeId::kUInt64;
    py::array out = ZeroCopy(a, dtype).attr("astype")(is_int ? py::str("float64") : py::str(dtype));
    out[NullMask(a)] = (t.id() == TypeId::kTimestamp || t.id() == TypeId::kTime64)
                           ? np.attr(t.id() == TypeId::kTimestamp ? "datetime64" : "timedelta64")("NaT")
                           : py::object(py::float_(NAN));
    return out;
  }
  py::array out = np.attr("empty")(a.length(), py::arg("dtype") = "object");
  for (int64_t i = 0; i < a.length(); ++i) out[py::int_(i)] = Value(a, i);
  return out;
}

Array Joined(const std::vector<Array>& chunks, const TypePtr& type) {
  if (chunks.size() == 1) return chunks[0];
  if (chunks.empty()) {
    std::unique_ptr<ArrayBuilder> b = Check(MakeBuilder(type));
    return Check(b->Finish());
  }
  return WithoutGil([&] { return Concatenate(chunks); });
}

std::string TypeName(const TypePtr& t) { return t->ToString(); }

// Python's slice of a sequence of `length` items as (start, count), step 1 only.
std::pair<int64_t, int64_t> SliceBounds(const py::slice& s, int64_t length) {
  size_t start, stop, step, count;
  if (!s.compute(static_cast<size_t>(length), &start, &stop, &step, &count)) throw py::error_already_set();
  if (step != 1) RaiseInvalid("slices of quiver tables and batches take step 1 only");
  return {static_cast<int64_t>(start), static_cast<int64_t>(count)};
}

int FieldIndex(const Schema& schema, const py::object& key) {
  if (py::isinstance<py::int_>(key)) {
    int64_t i = key.cast<int64_t>();
    if (i < 0) i += schema.num_fields();
    if (i < 0 || i >= schema.num_fields()) {
      PyErr_SetString(PyExc_IndexError, ("column " + std::to_string(key.cast<int64_t>()) + " out of range (" +
                                         std::to_string(schema.num_fields()) + " columns)").c_str());
      throw py::error_already_set();
    }
    return static_cast<int>(i);
  }
  const std::string name = key.cast<std::string>();
  const int i = schema.GetFieldIndex(name);
  if (i < 0) {
    std::string names;
    for (const Field& f : schema.fields()) names += (names.empty() ? "" : ", ") + f.name;
    PyErr_SetString(PyExc_KeyError, ("no column named '" + EscapeForMessage(name) + "'; columns: " +
                                     EscapeForMessage(names, 400)).c_str());
    throw py::error_already_set();
  }
  return i;
}

PyTable SliceTable(const PyTable& t, int64_t offset, int64_t length) {
  PyTable out{t.schema, {}};
  int64_t at = 0;
  for (const auto& b : t.batches) {
    const int64_t begin = std::max(offset, at), end = std::min(offset + length, at + b->num_rows());
    if (begin < end) out.batches.push_back(b->Slice(begin - at, end - begin));
    at += b->num_rows();
  }
  return out;
}

std::shared_ptr<RecordBatch> Combined(const PyTable& t) {
  if (t.batches.size() == 1) return t.batches[0];
  return WithoutGil([&] { return ConcatenateBatches(t.schema, t.batches); });
}

std::string SchemaRepr(const Schema& s) {
  std::string out;
  for (const Field& f : s.fields()) {
    out += "  " + f.name + ": " + f.type->ToString() + (f.nullable ? "" : " not null") + "\n";
  }
  return out;
}

}  // namespace

int64_t PyTable::num_rows() const {
  int64_t n = 0;
  for (const auto& b : batches) n += b->num_rows();
  return n;
}

void RegisterValues(py::module_& m) {
  py::class_<PySchema>(m, "Schema", "Column names and types, settled when a file is opened.")
      .def_property_readonly("names", [](const PySchema& s) {
        std::vector<std::string> n;
        for (const Field& f : s.schema->fields()) n.push_back(f.name);
        return n;
      }, "Column names, in order.")
      .def_property_readonly("types", [](const PySchema& s) {
        std::vector<std::string> n;
        for (const Field& f : s.schema->fields()) n.push_back(f.type->ToString());
        return n;
      }, "Column types as quiver writes them (\"int64\", \"timestamp[us]\", \"decimal(12, 2)\", ...).")
      .def("field", [](const PySchema& s, const py::object& key) {
        const Field& f = s.schema->field(FieldIndex(*s.schema, key));
        return py::make_tuple(f.name, f.type->ToString(), f.nullable);
      }, py::arg("key"), "(name, type, nullable) of the column named or numbered `key`.")
      .def("__len__", [](const PySchema& s) { return s.schema->num_fields(); })
      .def("__eq__", [](const PySchema& a, const PySchema& b) { return a.schema->Equals(*b.schema); })
      .def("__repr__", [](const PySchema& s) { return "quiver.Schema\n" + SchemaRepr(*s.schema); })
      .def("__arrow_c_schema__", [](const PySchema& s) { return SchemaCapsule(*s.schema); },
           "An arrow_schema PyCapsule (a struct of the columns).")
      .def(py::pickle([](const PySchema& s) { return SchemaState(*s.schema); },
                      [](const py::tuple& state) { return PySchema{SchemaFromState(state)}; }));

  py::class_<PyArray>(m, "Array", "One column of a RecordBatch, in the Arrow layout.")
      .def_property_readonly("type", [](const PyArray& a) { return TypeName(a.array.type()); })
      .def_property_readonly("name", [](const PyArray& a) { return a.name; })
      .def_property_readonly("null_count", [](const PyArray& a) { return a.array.null_count(); })
      .def("__len__", [](const PyArray& a) { return a.array.length(); })
      .def("__getitem__", [](const PyArray& a, int64_t i) {
        if (i < 0) i += a.array.length();
        if (i < 0 || i >= a.array.length()) throw py::index_error("index out of range");
        return Value(a.array, i);
      })
      .def("to_pylist", [](const PyArray& a) { return Values(a.array); }, "The values as Python objects (None for null).")
      .def("to_numpy", [](const PyArray& a, bool zero_copy_only) { return ToNumpy(a.array, zero_copy_only); },
           py::arg("zero_copy_only") = false,
           "The values as a NumPy array: fixed-width columns without nulls share quiver's memory (read-only);\n"
           "others are copied (nulls as NaN/NaT, integers with nulls as float64, other types as objects).\n"
           "zero_copy_only=True raises InvalidInputError instead of copying.")
      .def("is_null", [](const PyArray& a) { return NullMask(a.array); }, "A NumPy bool array, True where a value is null.")
      .def("__repr__", [](const PyArray& a) { return "quiver.Array<" + TypeName(a.array.type()) + ">\n" + ArrayToString(a.array, 20); })
      .def("__arrow_c_schema__", [](const PyArray& a) { return FieldCapsule(Field{a.name, a.array.type()}); })
      .def("__arrow_c_array__", [](const PyArray& a, const py::object& requested) {
        Field f{a.name, a.array.type()};
        if (!requested.is_none()) CheckRequestedSchema(requested, Schema({f}));
        return py::make_tuple(FieldCapsule(f), ArrayCapsule(a.array));
      }, py::arg("requested_schema") = py::none());

  py::class_<PyColumn>(m, "Column", "One column of a Table: the column's chunk in each of the table's batches.")
      .def_property_readonly("type", [](const PyColumn& c) { return TypeName(c.type); })
      .def_property_readonly("name", [](const PyColumn& c) { return c.name; })
      .def_property_readonly("num_chunks", [](const PyColumn& c) { return c.chunks.size(); })
      .def("chunk", [](const PyColumn& c, size_t i) {
        if (i >= c.chunks.size()) throw py::index_error("chunk out of range");
        return PyArray{c.chunks[i], c.name};
      })
      .def_property_readonly("null_count", [](const PyColumn& c) {
        int64_t n = 0;
        for (const Array& a : c.chunks) n += a.null_count();
        return n;
      })
      .def("__len__", [](const PyColumn& c) {
        int64_t n = 0;
        for (const Array& a : c.chunks) n += a.length();
        return n;
      })
      .def("to_pylist", [](const PyColumn& c) {
        py::list out;
        for (const Array& a : c.chunks) out.attr("extend")(Values(a));
        return out;
      }, "The values as Python objects (None for null).")
      .def("to_numpy", [](const PyColumn& c, bool zero_copy_only) {
        if (c.chunks.size() > 1 && zero_copy_only) {
          RaiseInvalid("to_numpy(zero_copy_only=True): the column has " + std::to_string(c.chunks.size()) +
                       " chunks; call Table.combine_chunks() first or pass zero_copy_only=False");
        }
        return ToNumpy(Joined(c.chunks, c.type), zero_copy_only);
      }, py::arg("zero_copy_only") = false,
           "As Array.to_numpy; a column of one chunk (Table.combine_chunks()) is shared without a copy.")
      .def("is_null", [](const PyColumn& c) { return NullMask(Joined(c.chunks, c.type)); })
      .def("__repr__", [](const PyColumn& c) {
        std::string s = "quiver.Column<" + TypeName(c.type) + ">";
        if (!c.chunks.empty()) s += "\n" + ArrayToString(c.chunks[0], 20);
        return s;
      });

  py::class_<PyBatch>(m, "RecordBatch", "Equal-length columns under a schema: the unit quiver reads and writes.")
      .def_property_readonly("num_rows", [](const PyBatch& b) { return b.batch->num_rows(); })
      .def_property_readonly("num_columns", [](const PyBatch& b) { return b.batch->num_columns(); })
      .def_property_readonly("schema", [](const PyBatch& b) { return PySchema{b.batch->schema()}; })
      .def_property_readonly("column_names", [](const PyBatch& b) {
        std::vector<std::string> n;
        for (const Field& f : b.batch->schema()->fields()) n.push_back(f.name);
        return n;
      })
      .def("column", [](const PyBatch& b, const py::object& key) {
        const int i = FieldIndex(*b.batch->schema(), key);
        return PyArray{b.batch->column(i), b.batch->schema()->field(i).name};
      }, py::arg("key"), "The column named (str) or numbered (int) `key`.")
      .def("slice", [](const PyBatch& b, int64_t offset, std::optional<int64_t> length) {
        const int64_t n = b.batch->num_rows();
        offset = std::clamp<int64_t>(offset, 0, n);
        return PyBatch{b.batch->Slice(offset, std::clamp<int64_t>(length.value_or(n - offset), 0, n - offset))};
      }, py::arg("offset") = 0, py::arg("length") = py::none(), "Rows [offset, offset + length), sharing memory.")
      .def("__getitem__", [](const PyBatch& b, const py::slice& s) {
        auto [start, count] = SliceBounds(s, b.batch->num_rows());
        return PyBatch{b.batch->Slice(start, count)};
      })
      .def("__getitem__", [](const PyBatch& b, const py::object& key) {
        const int i = FieldIndex(*b.batch->schema(), key);
        return PyArray{b.batch->column(i), b.batch->schema()->field(i).name};
      })
      .def("__len__", [](const PyBatch& b) { return b.batch->num_rows(); })
      .def("equals", [](const PyBatch& a, const PyBatch& b) { return a.batch->Equals(*b.batch); })
      .def("to_pydict", [](const PyBatch& b) {
        py::dict out;
        for (int i = 0; i < b.batch->num_columns(); ++i) out[py::str(b.batch->schema()->field(i).name)] = Values(b.batch->column(i));
        return out;
      }, "{column name: list of values}.")
      .def("__repr__", [](const PyBatch& b) {
        return "quiver.RecordBatch: " + std::to_string(b.batch->num_rows()) + " rows\n" + FormatTable(*b.batch, 10);
      })
      .def("__arrow_c_schema__", [](const PyBatch& b) { return SchemaCapsule(*b.batch->schema()); })
      .def("__arrow_c_array__", [](const PyBatch& b, const py::object& requested) {
        CheckRequestedSchema(requested, *b.batch->schema());
        return py::make_tuple(SchemaCapsule(*b.batch->schema()), BatchCapsule(*b.batch));
      }, py::arg("requested_schema") = py::none())
      .def("__arrow_c_stream__", [](const PyBatch& b, const py::object& requested) {
        CheckRequestedSchema(requested, *b.batch->schema());
        return StreamCapsule(b.batch->schema(), {b.batch});
      }, py::arg("requested_schema") = py::none());

  py::class_<PyTable>(m, "Table", "A table read whole: a schema and the record batches that hold its rows.")
      .def_property_readonly("num_rows", &PyTable::num_rows)
      .def_property_readonly("num_columns", [](const PyTable& t) { return t.schema->num_fields(); })
      .def_property_readonly("schema", [](const PyTable& t) { return PySchema{t.schema}; })
      .def_property_readonly("column_names", [](const PyTable& t) {
        std::vector<std::string> n;
        for (const Field& f : t.schema->fields()) n.push_back(f.name);
        return n;
      })
      .def("to_batches", [](const PyTable& t) {
        std::vector<PyBatch> out;
        for (const auto& b : t.batches) out.push_back(PyBatch{b});
        return out;
      }, "The table's record batches (sharing memory).")
      .def("column", [](const PyTable& t, const py::object& key) {
        const int i = FieldIndex(*t.schema, key);
        PyColumn c{t.schema->field(i).name, t.schema->field(i).type, {}};
        for (const auto& b : t.batches) c.chunks.push_back(b->column(i));
        return c;
      }, py::arg("key"), "The column named (str) or numbered (int) `key`.")
      .def("__getitem__", [](const PyTable& t, const py::slice& s) {
        auto [start, count] = SliceBounds(s, t.num_rows());
        return SliceTable(t, start, count);
      })
      .def("__getitem__", [](const PyTable& t, const py::object& key) {
        const int i = FieldIndex(*t.schema, key);
        PyColumn c{t.schema->field(i).name, t.schema->field(i).type, {}};
        for (const auto& b : t.batches) c.chunks.push_back(b->column(i));
        return c;
      })
      .def("slice", [](const PyTable& t, int64_t offset, std::optional<int64_t> length) {
        const int64_t n = t.num_rows();
        offset = std::clamp<int64_t>(offset, 0, n);
        return SliceTable(t, offset, std::clamp<int64_t>(length.value_or(n - offset), 0, n - offset));
      }, py::arg("offset") = 0, py::arg("length") = py::none(), "Rows [offset, offset + length), sharing memory.")
      .def("combine_chunks", [](const PyTable& t) {
        PyTable out{t.schema, {}};
        if (!t.batches.empty()) out.batches.push_back(Combined(t));
        return out;
      }, "The table as one batch (a copy when it has several), so that columns share memory with NumPy.")
      .def("equals", [](const PyTable& a, const PyTable& b) {
        if (!a.schema->Equals(*b.schema) || a.num_rows() != b.num_rows()) return false;
        if (a.num_rows() == 0) return true;
        return Combined(a)->Equals(*Combined(b));
      }, py::arg("other"), "Same schema and values.")
      .def("__len__", &PyTable::num_rows)
      .def("__repr__", [](const PyTable& t) {
        std::string s = "quiver.Table: " + std::to_string(t.num_rows()) + " rows, " + std::to_string(t.schema->num_fields()) +
                        " columns\n";
        if (t.batches.empty()) return s + SchemaRepr(*t.schema);
        return s + FormatTable(*t.batches[0], 10);
      })
      .def("__arrow_c_schema__", [](const PyTable& t) { return SchemaCapsule(*t.schema); })
      .def("__arrow_c_array__", [](const PyTable& t, const py::object& requested) {
        CheckRequestedSchema(requested, *t.schema);
        if (t.batches.empty()) RaiseInvalid("an empty table has no array to hand out; use __arrow_c_stream__");
        return py::make_tuple(SchemaCapsule(*t.schema), BatchCapsule(*Combined(t)));
      }, py::arg("requested_schema") = py::none(), "The table as one struct array (a copy when it has several batches).")
      .def("__arrow_c_stream__", [](const PyTable& t, const py::object& requested) {
        CheckRequestedSchema(requested, *t.schema);
        return StreamCapsule(t.schema, t.batches);
      }, py::arg("requested_schema") = py::none(), "An arrow_array_stream PyCapsule over the table's batches.");

  m.def("_table_from_batches", [](const std::vector<PyBatch>& batches, std::optional<PySchema> schema) {
    PyTable t;
    if (schema) t.schema = schema->schema;
    for (const PyBatch& b : batches) {
      if (!t.schema) t.schema = b.batch->schema();
      if (!b.batch->schema()->Equals(*t.schema)) RaiseInvalid("batches of one table must share its schema");
      if (b.batch->num_rows() > 0) t.batches.push_back(b.batch);
    }
    if (!t.schema) RaiseInvalid("a table of no batches needs a schema");
    return t;
  }, py::arg("batches"), py::arg("schema") = py::none());
}

}  // namespace quiver::python
