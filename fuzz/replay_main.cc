// Replays inputs through a libFuzzer target without libFuzzer: every regular build links each
// fuzz/<name>_fuzz.cc with this driver and runs it as a test over the kept crash inputs and the
// shared corpus files, so a target that stops compiling, or an input that breaks its checks
// again, fails `make test` and not only a fuzz session.
//
// Usage: <name>_replay PATH...   A PATH is a file or a folder (read recursively, .md notes left
// out); testdata:SUB is SUB under $QUIVER_TESTDATA, else under $QUIVER_SOURCE_DIR/../shared/testdata.
// Exits 77 (skipped) when no PATH exists, naming what was looked for.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

namespace fs = std::filesystem;

fs::path Resolve(const std::string& arg) {
  const std::string prefix = "testdata:";
  if (arg.rfind(prefix, 0) != 0) return arg;
  fs::path root;
  if (const char* env = std::getenv("QUIVER_TESTDATA"); env != nullptr && *env != '\0') {
    root = env;
  } else if (const char* src = std::getenv("QUIVER_SOURCE_DIR"); src != nullptr && *src != '\0') {
    root = fs::path(src) / ".." / "shared" / "testdata";
  } else {
    root = fs::path("..") / "shared" / "testdata";
  }
  return root / arg.substr(prefix.size());
}

bool Replay(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", file.c_str());
    return false;
  }
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // A fresh heap copy of exactly the input's size, so that ASan sees any read past its end.
  auto* copy = static_cast<uint8_t*>(std::malloc(std::max<size_t>(bytes.size(), 1)));
  std::copy(bytes.begin(), bytes.end(), copy);
  LLVMFuzzerTestOneInput(copy, bytes.size());
  std::free(copy);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<fs::path> files;
  int missing = 0;
  for (int i = 1; i < argc; ++i) {
    const fs::path path = Resolve(argv[i]);
    std::error_code ec;
    if (fs::is_regular_file(path, ec)) {
      files.push_back(path);
    } else if (fs::is_directory(path, ec)) {
      for (const auto& e : fs::recursive_directory_iterator(path)) {
        // A folder's notes (README.md) are not inputs.
        if (e.is_regular_file() && e.path().extension() != ".md") files.push_back(e.path());
      }
    } else {
      std::fprintf(stderr, "not found, skipped: %s\n", path.c_str());
      ++missing;
    }
  }
  if (files.empty()) {
    std::fprintf(stderr, "no inputs to replay (%d paths not found; set QUIVER_TESTDATA)\n", missing);
    return 77;
  }
  std::sort(files.begin(), files.end());
  size_t replayed = 0;
  for (const fs::path& f : files) replayed += Replay(f) ? 1 : 0;
  std::printf("replayed %zu of %zu inputs\n", replayed, files.size());
  return replayed == files.size() ? 0 : 1;
}
