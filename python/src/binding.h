// What the binding's files share: the Python-side objects wrapping quiver's tables, batches and
// readers, the exception mapping, and the entry points each file registers.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <type_traits>
#include <string>
#include <vector>

#include "quiver/api.h"
#include "quiver/core/memory_tracker.h"
#include "quiver/core/utf8.h"
#include "quiver/stream/csv_stream.h"
#include "quiver/stream/file_format.h"
#include "quiver/stream/rejects_file.h"

namespace quiver::python {

namespace py = pybind11;

// Raises the quiver.Error subclass of the status's code with the library's message.
[[noreturn]] void Raise(const Status& status);
inline void Check(const Status& status) {
  if (!status.ok()) Raise(status);
}
template <typename T>
T Check(Result<T> result) {
  if (!result.ok()) Raise(result.status());
  return std::move(*result);
}
// Raises InvalidInputError with this message.
[[noreturn]] void RaiseInvalid(const std::string& message);
// Runs `f` (returning a Result or a Status) with the GIL released, then raises its error with
// the GIL held again: Python may be called only with the GIL held, raising included.
template <typename F>
auto WithoutGil(F&& f) {
  using R = decltype(f());
  std::optional<R> r;
  {
    py::gil_scoped_release release;
    r.emplace(f());
  }
  if constexpr (std::is_same_v<R, Status>) {
    Check(*r);
  } else {
    return Check(std::move(*r));
  }
}


struct PySchema {
  SchemaPtr schema;
};

// One column of a batch.
struct PyArray {
  Array array;
  std::string name;
};

// One column of a table: the same column of each of its batches.
struct PyColumn {
  std::string name;
  TypePtr type;
  std::vector<Array> chunks;
};

struct PyBatch {
  std::shared_ptr<RecordBatch> batch;
};

struct PyTable {
  SchemaPtr schema;
  std::vector<std::shared_ptr<RecordBatch>> batches;  // none empty
  int64_t num_rows() const;
};

// A batch stream and what must outlive it (the thread pool its decoders run on).
struct PyReader {
  std::unique_ptr<stream::BatchReader> reader;
  std::shared_ptr<ThreadPool> pool;
  const csv::CsvReader* csv = nullptr;  // the CSV reader inside, for its counters
  // The rejects= file of an on_error="skip" read, renamed into place once the input is read
  // to its end (by Next, or by a writer the reader was handed to).
  std::shared_ptr<stream::RejectsFile> rejects;
  bool done = false;
  void CommitRejects();
  // The next batch (the GIL released while it is read), or nullptr at the end.
  std::shared_ptr<RecordBatch> Next();
  // Every remaining batch; Ctrl-C is checked between batches.
  PyTable ReadAll();
};

// A thread pool of `threads` threads, or null (the default pool) for 0.
std::shared_ptr<ThreadPool> MakePool(int threads);

// The registrations of each file.
void RegisterErrors(py::module_& m);
void RegisterArrowInterface(py::module_& m);  // capsules out and in
void RegisterValues(py::module_& m);          // Schema, Array, Column, RecordBatch, Table
void RegisterIo(py::module_& m);              // readers, writers, sniff
void RegisterDescribe(py::module_& m);        // schema and footer as dicts

// Capsules of the Arrow PyCapsule interface.
py::object SchemaCapsule(const Schema& schema);
py::object FieldCapsule(const Field& field);
py::object ArrayCapsule(const Array& array);
py::object BatchCapsule(const RecordBatch& batch);
py::object StreamCapsule(SchemaPtr schema, std::vector<std::shared_ptr<RecordBatch>> batches);
// A schema as plain Python values and back (pickling).
py::tuple SchemaState(const Schema& schema);
SchemaPtr SchemaFromState(const py::tuple& state);
// The capsule a consumer passed as requested_schema must describe `schema` (quiver does not cast).
void CheckRequestedSchema(const py::object& requested, const Schema& schema);

}  // namespace quiver::python
