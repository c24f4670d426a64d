// The Arrow PyCapsule interface: quiver's schemas, arrays, batches and tables handed out as
// "arrow_schema" / "arrow_array" / "arrow_array_stream" capsules through the library's C Data
// Interface export, and capsules taken in through its importer.
#include <Python.h>

#include <cerrno>
#include <cstring>

#include "binding.h"

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE
extern "C" {
struct ArrowArrayStream {
  int (*get_schema)(struct ArrowArrayStream*, struct ArrowSchema* out);
  int (*get_next)(struct ArrowArrayStream*, struct ArrowArray* out);
  const char* (*get_last_error)(struct ArrowArrayStream*);
  void (*release)(struct ArrowArrayStream*);
  void* private_data;
};
}
#endif

namespace quiver::python {
namespace {

// Capsule destructors: a struct a consumer moved out has release == nullptr.
void DeleteSchema(PyObject* capsule) {
  auto* s = static_cast<ArrowSchema*>(PyCapsule_GetPointer(capsule, "arrow_schema"));
  if (s == nullptr) return PyErr_Clear();
  if (s->release != nullptr) s->release(s);
  delete s;
}
void DeleteArray(PyObject* capsule) {
  auto* a = static_cast<ArrowArray*>(PyCapsule_GetPointer(capsule, "arrow_array"));
  if (a == nullptr) return PyErr_Clear();
  if (a->release != nullptr) a->release(a);
  delete a;
}
void DeleteStream(PyObject* capsule) {
  auto* s = static_cast<ArrowArrayStream*>(PyCapsule_GetPointer(capsule, "arrow_array_stream"));
  if (s == nullptr) return PyErr_Clear();
  if (s->release != nullptr) s->release(s);
  delete s;
}

py::object Wrap(void* ptr, const char* name, PyCapsule_Destructor destructor) {
  PyObject* capsule = PyCapsule_New(ptr, name, destructor);
  if (capsule == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(capsule);
}

template <typename T>
T* CapsulePointer(const py::handle& capsule, const char* name) {
  void* p = PyCapsule_GetPointer(capsule.ptr(), name);
  if (p == nullptr) {
    PyErr_Clear();
    RaiseInvalid(std::string("expected a PyCapsule named '") + name + "'");
  }
  return static_cast<T*>(p);
}

// The stream's state: the batches it still has to hand out.
struct StreamState {
  SchemaPtr schema;
  std::vector<std::shared_ptr<RecordBatch>> batches;
  size_t next = 0;
  std::string last_error;
};

int StreamGetSchema(ArrowArrayStream* stream, ArrowSchema* out) {
  auto* state = static_cast<StreamState*>(stream->private_data);
  Status st = ExportSchema(*state->schema, out);
  if (!st.ok()) {
    state->last_error = st.message();
    return EINVAL;
  }
  return 0;
}

int StreamGetNext(ArrowArrayStream* stream, ArrowArray* out) {
  auto* state = static_cast<StreamState*>(stream->private_data);
  if (state->next == state->batches.size()) {
    out->release = nullptr;  // the end of the stream
    return 0;
  }
  Status st = ExportRecordBatch(*state->batches[state->next], out);
  if (!st.ok()) {
    state->last_error = st.message();
    return EINVAL;
  }
  // Handed out: the exported array keeps the buffers alive, not the stream.
  state->batches[state->next++].reset();
  return 0;
}

const char* StreamLastError(ArrowArrayStream* stream) {
  auto* state = static_cast<StreamState*>(stream->private_data);
  return state->last_error.empty() ? nullptr : state->last_error.c_str();
}

void StreamRelease(ArrowArrayStream* stream) {
  delete static_cast<StreamState*>(stream->private_data);
  stream->release = nullptr;
}

// Moves a capsule's struct out, so that the capsule's destructor leaves it alone.
template <typename T>
T MoveOut(T* from) {
  if (from->release == nullptr) RaiseInvalid("the Arrow C struct was already consumed (its release is null)");
  T moved = *from;
  from->release = nullptr;
  return moved;
}

// A capsule pair (schema, array) as a RecordBatch when it is a struct, else as an Array.
py::object ImportArrayCapsules(const py::object& schema_capsule, const py::object& array_capsule) {
  ArrowSchema schema = MoveOut(CapsulePointer<ArrowSchema>(schema_capsule, "arrow_schema"));
  ArrowArray array = MoveOut(CapsulePointer<ArrowArray>(array_capsule, "arrow_array"));
  const bool is_struct = schema.format != nullptr && std::string(schema.format) == "+s";
  if (is_struct) {
    std::shared_ptr<RecordBatch> batch = Check(ImportRecordBatch(&array, &schema));
    if (schema.release != nullptr) schema.release(&schema);
    return py::cast(PyBatch{std::move(batch)});
  }
  std::string name = schema.name != nullptr ? schema.name : "";
  Array imported = Check(ImportArray(&array, &schema));
  if (schema.release != nullptr) schema.release(&schema);
  Check(imported.Validate());
  return py::cast(PyArray{std::move(imported), std::move(name)});
}

PyTable ImportStreamCapsule(const py::object& capsule) {
  ArrowArrayStream stream = MoveOut(CapsulePointer<ArrowArrayStream>(capsule, "arrow_array_stream"));
  struct Releaser {
    ArrowArrayStream* s;
    ~Releaser() {
      if (s->release != nullptr) s->release(s);
    }
  } releaser{&stream};
  auto failed = [&](int code, const char* what) {
    const char* message = stream.get_last_error ? stream.get_last_error(&stream) : nullptr;
    RaiseInvalid(std::string("Arrow stream: ") + what + " failed (errno " + std::to_string(code) + ")" +
                 (message ? std::string(": ") + message : std::string()));
  };
  ArrowSchema c_schema;
  if (int rc = stream.get_schema(&stream, &c_schema); rc != 0) failed(rc, "get_schema");
  PyTable table;
  table.schema = Check(ImportSchema(&c_schema));
  for (;;) {
    ArrowArray c_array;
    if (int rc = stream.get_next(&stream, &c_array); rc != 0) failed(rc, "get_next");
    if (c_array.release == nullptr) break;
    std::shared_ptr<RecordBatch> batch = Check(ImportRecordBatch(&c_array, table.schema));
    if (batch->num_rows() > 0) table.batches.push_back(std::move(batch));
  }
  return table;
}

// A schema as plain Python values (for pickling: Dask ships schemas to its workers): the
// exported C struct's format, name, metadata, flags and children, recursively.
size_t MetadataSize(const char* metadata) {
  if (metadata == nullptr) return 0;
  auto read = [&](size_t at) {
    int32_t v;
    std::memcpy(&v, metadata + at, 4);
    return static_cast<size_t>(v);
  };
  size_t at = 4;
  for (size_t i = 0, n = read(0); i < n; ++i) {
    at += 4 + read(at);
    at += 4 + read(at);
  }
  return at;
}

py::tuple StateOf(const ArrowSchema* s) {
  py::list children;
  for (int64_t i = 0; i < s->n_children; ++i) children.append(StateOf(s->children[i]));
  return py::make_tuple(py::bytes(s->format), py::bytes(s->name ? s->name : ""),
                        s->metadata ? py::object(py::bytes(s->metadata, MetadataSize(s->metadata))) : py::object(py::none()),
                        s->flags, children);
}

// The C struct rebuilt from StateOf's values; its release frees what it owns.
struct BuiltSchema {
  std::string format, name, metadata;
  bool has_metadata = false;
  std::vector<ArrowSchema*> children;
};

void ReleaseBuilt(ArrowSchema* s) {
  auto* b = static_cast<BuiltSchema*>(s->private_data);
  for (ArrowSchema* c : b->children) {
    if (c->release != nullptr) c->release(c);
    delete c;
  }
  delete b;
  s->release = nullptr;
}

void Build(const py::handle& state, ArrowSchema* out) {
  auto t = state.cast<py::tuple>();
  if (t.size() != 5) RaiseInvalid("not a pickled quiver.Schema");
  auto* b = new BuiltSchema;
  b->format = t[0].cast<std::string>();
  b->name = t[1].cast<std::string>();
  b->has_metadata = !t[2].is_none();
  if (b->has_metadata) b->metadata = t[2].cast<std::string>();
  for (const py::handle& c : t[4].cast<py::list>()) {
    auto* child = new ArrowSchema{};
    b->children.push_back(child);
    Build(c, child);
  }
  *out = ArrowSchema{};
  out->format = b->format.c_str();
  out->name = b->name.c_str();
  out->metadata = b->has_metadata ? b->metadata.data() : nullptr;
  out->flags = t[3].cast<int64_t>();
  out->n_children = static_cast<int64_t>(b->children.size());
  out->children = b->children.data();
  out->release = ReleaseBuilt;
  out->private_data = b;
}

}  // namespace

py::tuple SchemaState(const Schema& schema) {
  ArrowSchema c;
  Check(ExportSchema(schema, &c));
  py::tuple state = StateOf(&c);
  c.release(&c);
  return state;
}

SchemaPtr SchemaFromState(const py::tuple& state) {
  ArrowSchema c;
  Build(state, &c);
  return Check(ImportSchema(&c));
}

py::object SchemaCapsule(const Schema& schema) {
  auto* s = new ArrowSchema{};
  Status st = ExportSchema(schema, s);
  if (!st.ok()) {
    delete s;
    Raise(st);
  }
  return Wrap(s, "arrow_schema", DeleteSchema);
}

py::object FieldCapsule(const Field& field) {
  auto* s = new ArrowSchema{};
  Status st = ExportField(field, s);
  if (!st.ok()) {
    delete s;
    Raise(st);
  }
  return Wrap(s, "arrow_schema", DeleteSchema);
}

py::object ArrayCapsule(const Array& array) {
  auto* a = new ArrowArray{};
  Status st = ExportArray(array, a);
  if (!st.ok()) {
    delete a;
    Raise(st);
  }
  return Wrap(a, "arrow_array", DeleteArray);
}

py::object BatchCapsule(const RecordBatch& batch) {
  auto* a = new ArrowArray{};
  Status st = ExportRecordBatch(batch, a);
  if (!st.ok()) {
    delete a;
    Raise(st);
  }
  return Wrap(a, "arrow_array", DeleteArray);
}

py::object StreamCapsule(SchemaPtr schema, std::vector<std::shared_ptr<RecordBatch>> batches) {
  auto* s = new ArrowArrayStream{};
  s->get_schema = StreamGetSchema;
  s->get_next = StreamGetNext;
  s->get_last_error = StreamLastError;
  s->release = StreamRelease;
  s->private_data = new StreamState{std::move(schema), std::move(batches), 0, {}};
  return Wrap(s, "arrow_array_stream", DeleteStream);
}

void CheckRequestedSchema(const py::object& requested, const Schema& schema) {
  if (requested.is_none()) return;
  // Read without consuming: the capsule stays the caller's.
  auto* c = CapsulePointer<ArrowSchema>(requested, "arrow_schema");
  if (c->release == nullptr) RaiseInvalid("requested_schema was already consumed");
  ArrowSchema copy;
  Status st = ExportSchema(schema, &copy);
  Check(st);
  auto same = [](const ArrowSchema* a, const ArrowSchema* b, auto& self) -> bool {
    if (std::string(a->format) != b->format || a->n_children != b->n_children) return false;
    for (int64_t i = 0; i < a->n_children; ++i) {
      if (!self(a->children[i], b->children[i], self)) return false;
    }
    return true;
  };
  const bool equal = same(c, &copy, same);
  copy.release(&copy);
  if (!equal) {
    PyErr_SetString(PyExc_NotImplementedError,
                    "quiver hands out its data in its own types: requested_schema must be None or the data's schema");
    throw py::error_already_set();
  }
}

void RegisterArrowInterface(py::module_& m) {
  m.def("_import_array", &ImportArrayCapsules, py::arg("schema_capsule"), py::arg("array_capsule"),
        "A RecordBatch (struct) or Array from an (arrow_schema, arrow_array) capsule pair.");
  m.def("_import_stream", &ImportStreamCapsule, py::arg("stream_capsule"),
        "A Table from an arrow_array_stream capsule (read to its end).");
  m.def("_import_schema", [](const py::object& capsule) {
    ArrowSchema s = MoveOut(CapsulePointer<ArrowSchema>(capsule, "arrow_schema"));
    return PySchema{Check(ImportSchema(&s))};
  }, py::arg("schema_capsule"), "A Schema from an arrow_schema capsule (a struct).");
}

}  // namespace quiver::python
