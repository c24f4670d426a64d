// Protocol-buffers encoding of the ORC metadata model (orc/metadata.h): what the writer puts in
// a stripe's index and footer and in the file's Metadata, Footer and PostScript. Unset optionals
// and empty lists are left out, as protobuf does.
#pragma once

#include <string>

#include "quiver/orc/metadata.h"

namespace quiver::orc::writer {

void EncodeColumnStatistics(const ColumnStatistics& s, std::string* out);
void EncodeRowIndex(const RowIndex& index, std::string* out);
void EncodeBloomFilterIndex(const BloomFilterIndex& index, std::string* out);
void EncodeStripeFooter(const StripeFooter& footer, std::string* out);
void EncodeMetadata(const Metadata& metadata, std::string* out);
void EncodeFooter(const Footer& footer, std::string* out);
void EncodePostScript(const PostScript& ps, std::string* out);

}  // namespace quiver::orc::writer
