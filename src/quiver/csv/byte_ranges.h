// Byte ranges of one CSV file cut on row boundaries, so that separate processes (quiver.dask)
// can each read a piece of one file. A range owns the rows that start in it; where its first
// row starts follows from the quote state at its first byte, which is the parity of the quotes
// before it (RFC 4180 quoting: an escaped quote is doubled, so it toggles the state twice).
#pragma once

#include <cstdint>
#include <string>

#include "quiver/core/result.h"

namespace quiver::csv {

// True when bytes [start, end) of the file hold an odd number of `quote` bytes ('\0': no quoting,
// always false).
Result<bool> QuoteParity(const std::string& path, int64_t start, int64_t end, char quote);

// Where the first row starting at or after `pos` begins, given the quote state at `pos`: `pos`
// itself at 0 or right after a line feed outside quotes, else just past the next line feed
// outside quotes, else the file's size. A quote still open at the end of the file is Invalid.
Result<int64_t> NextRowStart(const std::string& path, int64_t pos, bool in_quotes, char quote);

}  // namespace quiver::csv
