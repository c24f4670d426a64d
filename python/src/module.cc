// The quiver._quiver extension module: registers each file's part.
#include "binding.h"

PYBIND11_MODULE(_quiver, m) {
  m.doc() = "quiver's C++ core (CSV, Parquet and Arrow IPC readers and writers); use the quiver package.";
  m.attr("__version__") = QUIVER_VERSION_STRING;
  quiver::python::RegisterErrors(m);
  quiver::python::RegisterValues(m);
  quiver::python::RegisterArrowInterface(m);
  quiver::python::RegisterIo(m);
  quiver::python::RegisterDescribe(m);
}
