// Library errors in the program's terms: the library names options and problem kinds, the
// program names its flags (a CSV problem's flag hint, option names spelled as flags).
#pragma once

#include <string>

#include "quiver/core/status.h"
#include "quiver/csv/problems.h"

namespace quiver::cli {

// Remembers the problem that failed a CSV read (the reader's failure handler; any thread).
void NoteCsvFailure(const csv::Problem& problem);
// The message printed for a failed command: the error's text, the flag hint of the CSV
// problem behind it, library option names as the flags that set them.
std::string ErrorMessage(const Status& st);

}  // namespace quiver::cli
