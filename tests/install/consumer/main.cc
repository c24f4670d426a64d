// A program built against the installed quiver package (tests/install/install_test.sh): a CSV
// file copied to Parquet through the batch streams, then read back.
#include <fstream>
#include <iostream>

#include "quiver/stream/copy.h"
#include "quiver/stream/open.h"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const std::string dir = argv[1];
  std::ofstream(dir + "/in.csv") << "id,name\n1,ada\n2,grace\n3,\n";
  auto run = [&]() -> quiver::Result<int64_t> {
    QUIVER_ASSIGN_OR_RETURN(auto reader, quiver::stream::OpenReader(dir + "/in.csv"));
    QUIVER_ASSIGN_OR_RETURN(auto writer, quiver::stream::OpenWriter(dir + "/out.parquet", reader->schema()));
    QUIVER_RETURN_NOT_OK(quiver::stream::Copy(*reader, *writer).status());
    QUIVER_ASSIGN_OR_RETURN(auto back, quiver::stream::OpenReader(dir + "/out.parquet"));
    std::cout << back->schema()->ToString();
    int64_t rows = 0;
    for (;;) {
      QUIVER_ASSIGN_OR_RETURN(auto batch, back->Next());
      if (!batch) break;
      for (int c = 0; c < batch->num_columns(); ++c) std::cout << batch->column(c).ToString() << "\n";
      rows += batch->num_rows();
    }
    return rows;
  };
  auto rows = run();
  if (!rows.ok()) {
    std::cerr << rows.status().ToString() << "\n";
    return 1;
  }
  std::cout << "rows " << *rows << "\n";
  return 0;
}
