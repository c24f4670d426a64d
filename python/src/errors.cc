// quiver.Error and its subclasses, one per library status code, raised with the library's message.
#include <Python.h>

#include "binding.h"

namespace quiver::python {
namespace {

PyObject* g_error = nullptr;
PyObject* g_invalid = nullptr;
PyObject* g_corrupt = nullptr;
PyObject* g_memory = nullptr;
PyObject* g_not_implemented = nullptr;
PyObject* g_io = nullptr;
PyObject* g_cancelled = nullptr;

PyObject* NewError(py::module_& m, const char* name, const char* doc, std::initializer_list<PyObject*> bases) {
  PyObject* tuple = PyTuple_New(static_cast<Py_ssize_t>(bases.size()));
  Py_ssize_t i = 0;
  for (PyObject* b : bases) {
    Py_INCREF(b);
    PyTuple_SET_ITEM(tuple, i++, b);
  }
  const std::string full = std::string("quiver.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(full.c_str(), doc, tuple, nullptr);
  Py_DECREF(tuple);
  if (type == nullptr) throw py::error_already_set();
  m.add_object(name, py::handle(type));  // the module keeps a reference; so does g_*
  return type;
}

}  // namespace

void Raise(const Status& status) {
  PyObject* type = g_error;
  switch (status.code()) {
    case StatusCode::kInvalid: type = g_invalid; break;
    case StatusCode::kCorrupt: type = g_corrupt; break;
    case StatusCode::kOutOfMemory: type = g_memory; break;
    case StatusCode::kNotImplemented: type = g_not_implemented; break;
    case StatusCode::kIOError: type = g_io; break;
    case StatusCode::kCancelled: type = g_cancelled; break;
    default: break;
  }
  PyErr_SetString(type, status.message().c_str());
  throw py::error_already_set();
}

void RaiseInvalid(const std::string& message) {
  PyErr_SetString(g_invalid, message.c_str());
  throw py::error_already_set();
}

void RegisterErrors(py::module_& m) {
  g_error = NewError(m, "Error", "Base class of every error quiver raises.", {PyExc_Exception});
  g_invalid = NewError(m, "InvalidInputError", "Bad input or a bad option: a CSV value, an unknown column, an option out of range.",
                       {g_error, PyExc_ValueError});
  g_corrupt = NewError(m, "CorruptFileError", "A file whose contents are malformed (a bad footer, page or checksum).",
                       {g_error});
  g_memory = NewError(m, "OutOfMemoryError", "An allocation failed or the memory limit was reached.",
                      {g_error, PyExc_MemoryError});
  g_not_implemented = NewError(m, "NotImplementedError", "A valid feature quiver does not support.",
                               {g_error, PyExc_NotImplementedError});
  g_io = NewError(m, "FileError", "The operating system refused: a missing file, a permission, a full disk.",
                  {g_error, PyExc_OSError});
  g_cancelled = NewError(m, "CancelledError", "The work was stopped before it finished.", {g_error});
  // The mapping itself, for the tests: each status code raised as the library would.
  m.def("_raise_status", [](const std::string& code, const std::string& message) {
    static const std::pair<const char*, StatusCode> kCodes[] = {
        {"invalid", StatusCode::kInvalid}, {"io", StatusCode::kIOError}, {"out_of_memory", StatusCode::kOutOfMemory},
        {"not_implemented", StatusCode::kNotImplemented}, {"corrupt", StatusCode::kCorrupt},
        {"cancelled", StatusCode::kCancelled}};
    for (const auto& [name, c] : kCodes) {
      if (code == name) Raise(Status(c, message));
    }
    RaiseInvalid("unknown status code '" + code + "'");
  }, py::arg("code"), py::arg("message"));
}

}  // namespace quiver::python
