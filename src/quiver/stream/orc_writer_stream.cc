#include "quiver/stream/orc_writer_stream.h"

namespace quiver::stream {

Result<std::unique_ptr<OrcStreamWriter>> OrcStreamWriter::Open(const std::string& path, SchemaPtr schema,
                                                               orc::OrcWriterOptions options) {
  auto w = std::unique_ptr<OrcStreamWriter>(new OrcStreamWriter());
  QUIVER_ASSIGN_OR_RETURN(w->out_, io::OutputTarget::Open(path));
  QUIVER_ASSIGN_OR_RETURN(w->writer_, orc::OrcFileWriter::Open(w->out_->stream(), std::move(schema), std::move(options)));
  return w;
}

void OrcStreamWriter::Abort() {
  writer_.reset();
  TargetWriter::Abort();
}

}  // namespace quiver::stream
