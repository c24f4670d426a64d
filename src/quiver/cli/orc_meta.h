// `quiver schema` and `quiver meta` of an ORC file: its type tree, and its PostScript, footer,
// stripes (streams, encodings, writer time zone) and column statistics, as text or JSON.
#pragma once

#include <string>
#include <vector>

#include "quiver/core/status.h"

namespace quiver::cli {

Status RunOrcSchema(const std::string& path, bool json, const std::vector<std::string>& columns);
// `stripe` >= 0 shows only that stripe.
Status RunOrcMeta(const std::string& path, bool json, int stripe, const std::vector<std::string>& columns);

}  // namespace quiver::cli
