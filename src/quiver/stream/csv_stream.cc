#include "quiver/stream/csv_stream.h"

namespace quiver::stream {

Result<std::unique_ptr<CsvStreamReader>> CsvStreamReader::Open(const std::string& path, csv::CsvOptions options) {
  QUIVER_ASSIGN_OR_RETURN(auto reader, csv::CsvReader::Open(path, std::move(options)));
  return std::make_unique<CsvStreamReader>(std::move(reader));
}

ReadStats CsvStreamReader::stats() const {
  const csv::CsvReadStats& s = reader_->stats();
  return ReadStats{s.rows_written, s.bytes_read, reader_->input_position(), reader_->input_size(), s.rows_rejected};
}

Result<std::unique_ptr<CsvStreamWriter>> CsvStreamWriter::Open(const std::string& path, SchemaPtr schema,
                                                                    csv::CsvWriteOptions options) {
  auto w = std::unique_ptr<CsvStreamWriter>(new CsvStreamWriter());
  w->schema_ = std::move(schema);
  QUIVER_ASSIGN_OR_RETURN(w->out_, io::OutputTarget::Open(path));
  w->writer_ = std::make_unique<csv::CsvWriter>(w->out_->stream(), std::move(options));
  return w;
}

}  // namespace quiver::stream
