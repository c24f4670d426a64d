#include "quiver/stream/jsonl_stream.h"

namespace quiver::stream {

Result<std::unique_ptr<JsonlStreamWriter>> JsonlStreamWriter::Open(const std::string& path) {
  auto w = std::unique_ptr<JsonlStreamWriter>(new JsonlStreamWriter());
  QUIVER_ASSIGN_OR_RETURN(w->out_, io::OutputTarget::Open(path));
  w->writer_ = std::make_unique<jsonl::JsonlWriter>(w->out_->stream());
  return w;
}

}  // namespace quiver::stream
