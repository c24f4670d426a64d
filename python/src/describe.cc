// quiver.schema() and quiver.metadata(): the library's JSON description of a file
// (describe/describe.h, what `quiver schema --json` and `quiver meta --json` print) as Python
// dicts, for Parquet, ORC and Arrow IPC files.
#include "binding.h"
#include "quiver/describe/describe.h"

namespace quiver::python {
namespace {

// Names and values may hold any bytes: invalid UTF-8 reads as U+FFFD, as elsewhere in the binding.
py::object Parsed(const std::string& json) {
  py::str text = py::reinterpret_steal<py::str>(
      PyUnicode_DecodeUTF8(json.data(), static_cast<Py_ssize_t>(json.size()), "replace"));
  return py::module_::import("json").attr("loads")(text);
}

py::object Schema(const std::string& path) {
  describe::DescribeOptions options;
  options.json = true;
  return Parsed(WithoutGil([&] { return describe::DescribeSchema(path, options); }));
}

py::object Metadata(const std::string& path) {
  describe::DescribeOptions options;
  options.json = true;
  return Parsed(WithoutGil([&] { return describe::DescribeMetadata(path, options); }));
}

}  // namespace

void RegisterDescribe(py::module_& m) {
  m.def("_schema", &Schema, py::arg("path"));
  m.def("_metadata", &Metadata, py::arg("path"));
}

}  // namespace quiver::python
