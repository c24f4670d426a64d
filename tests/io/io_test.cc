#include <gtest/gtest.h>
#include <sys/resource.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>

#include "quiver/io/atomic_file.h"
#include "quiver/io/file.h"
#include "quiver/io/output_stream.h"
#include "testing/scratch_dir.h"

namespace quiver::io {
namespace {

namespace fs = std::filesystem;

class IoTest : public testing::ScratchDirTest {
 protected:
  std::string Write(const std::string& name, const std::string& content) {
    std::string p = (dir_ / name).string();
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }
};

TEST_F(IoTest, MmapAndPreadReadTheSameBytes) {
  std::string content(100000, '\0');
  for (size_t i = 0; i < content.size(); ++i) content[i] = static_cast<char>(i * 7);
  std::string path = Write("data.bin", content);
  for (ReadMode mode : {ReadMode::kMmap, ReadMode::kPread}) {
    auto f = OpenFile(path, mode);
    ASSERT_TRUE(f.ok()) << f.status().ToString();
    EXPECT_EQ((*f)->size(), 100000);
    EXPECT_EQ(mode == ReadMode::kMmap, (*f)->mapped_data() != nullptr);
    auto part = (*f)->ReadAt(99990, 10);
    ASSERT_TRUE(part.ok());
    EXPECT_EQ(part->get()->view(), content.substr(99990, 10));
    auto bad = (*f)->ReadAt(99995, 10);
    EXPECT_TRUE(bad.status().IsCorrupt());
    EXPECT_EQ(bad.status().message(), path + ": read of 10 bytes at offset 99995 is outside the file (100000 bytes)");
  }
}

TEST_F(IoTest, MappedBytesOutliveTheFileObject) {
  std::string path = Write("keep.bin", "hello mapped world");
  std::shared_ptr<Buffer> part;
  {
    auto f = OpenFile(path);
    ASSERT_TRUE(f.ok());
    part = *(*f)->ReadAt(6, 6);
  }
  EXPECT_EQ(part->view(), "mapped");
}

TEST_F(IoTest, OpenErrorsNameThePath) {
  auto missing = OpenFile((dir_ / "nope.csv").string());
  EXPECT_TRUE(missing.status().IsIOError());
  EXPECT_EQ(missing.status().message(), (dir_ / "nope.csv").string() + ": No such file or directory");
  auto d = OpenFile(dir_.string());
  EXPECT_EQ(d.status().message(), dir_.string() + ": is a directory");
  auto empty = OpenFile(Write("empty", ""));
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ((*empty)->size(), 0);
  EXPECT_TRUE((*empty)->ReadAt(0, 0).ok());
}

TEST_F(IoTest, MemorySource) {
  auto buf = *Buffer::CopyOf(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>("abcdef"), 6));
  auto src = MemorySource(buf, "inline");
  EXPECT_EQ((*src->ReadAt(2, 3))->view(), "cde");
  EXPECT_EQ(src->ReadAt(5, 2).status().message(), "inline: read of 2 bytes at offset 5 is outside the file (6 bytes)");
}

TEST_F(IoTest, AtomicFileCommitReplacesTarget) {
  std::string target = Write("out.csv", "old contents");
  auto f = AtomicFile::Open(target);
  ASSERT_TRUE(f.ok());
  ASSERT_TRUE((*f)->stream()->Write("new ").ok());
  ASSERT_TRUE((*f)->stream()->Write(std::string(3 << 20, 'x')).ok());  // larger than the buffer
  EXPECT_EQ((*f)->stream()->Tell(), 4 + (3 << 20));
  // Until Commit, readers see the old file.
  std::ifstream before(target);
  std::string old((std::istreambuf_iterator<char>(before)), {});
  EXPECT_EQ(old, "old contents");
  EXPECT_EQ(Entries(), std::vector<std::string>{"out.csv"});  // the new file is unnamed until Commit
  ASSERT_TRUE((*f)->Commit().ok());
  EXPECT_EQ(fs::file_size(target), 4u + (3u << 20));
  EXPECT_EQ(Entries(), std::vector<std::string>{"out.csv"});
  EXPECT_TRUE((*f)->Commit().IsInvalid());
}

TEST_F(IoTest, BufferedAndDirectWritesLandInOrder) {
  // Small writes are buffered, writes of 64 KiB and more go straight to the file: the buffer
  // must be flushed first, whatever mix of sizes comes.
  auto f = AtomicFile::Open((dir_ / "mixed.bin").string());
  ASSERT_TRUE(f.ok());
  std::string expected;
  int64_t tell = 0;
  char fill = 'a';
  for (size_t size : {size_t{10}, size_t{65535}, size_t{65536}, size_t{5}, size_t{70000}, size_t{1} << 20,
                      (size_t{1} << 20) + 3, size_t{1000}, size_t{600000}, size_t{1}}) {
    std::string part(size, fill++);
    ASSERT_TRUE((*f)->stream()->Write(part).ok());
    expected += part;
    tell += static_cast<int64_t>(size);
    EXPECT_EQ((*f)->stream()->Tell(), tell) << size;
  }
  ASSERT_TRUE((*f)->Commit().ok());
  std::ifstream in(dir_ / "mixed.bin", std::ios::binary);
  std::string got((std::istreambuf_iterator<char>(in)), {});
  ASSERT_EQ(got.size(), expected.size());
  EXPECT_TRUE(got == expected) << "bytes out of order";
}

TEST_F(IoTest, DirectWritesKeepEveryByteThroughAPartialFlush) {
  // Whole aligned blocks go out with O_DIRECT; the flush of a partial block ends direct mode,
  // and what is written after it lands behind it.
  const std::string path = (dir_ / "direct.bin").string();
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0);
  std::string expected;
  {
    FdOutputStream out(fd, path, 64 << 10);
    if (!out.UseDirectIo()) {
      ::close(fd);
      GTEST_SKIP() << "the file system under " << dir_ << " refuses O_DIRECT";
    }
    char fill = 'a';
    auto put = [&](size_t size) {
      std::string part(size, fill++);
      for (size_t i = 0; i < size; i += 97) part[i] = static_cast<char>(i);
      ASSERT_TRUE(out.Write(part.data(), static_cast<int64_t>(size)).ok());
      expected += part;
      EXPECT_EQ(out.Tell(), static_cast<int64_t>(expected.size()));
    };
    for (size_t size : {size_t{10}, size_t{65535}, size_t{65536}, size_t{5}, size_t{200000}, size_t{690}}) put(size);
    ASSERT_EQ(expected.size() % 4096, 0u);
    ASSERT_TRUE(out.Flush().ok());  // aligned: still direct
    EXPECT_TRUE(out.direct_io());
    for (size_t size : {size_t{70000}, size_t{3}}) put(size);
    ASSERT_TRUE(out.Flush().ok());  // a partial block: through the page cache from here on
    EXPECT_FALSE(out.direct_io());
    for (size_t size : {size_t{1} << 17, size_t{7}}) put(size);
    ASSERT_TRUE(out.Flush().ok());
  }
  ::close(fd);
  std::ifstream in(path, std::ios::binary);
  std::string got((std::istreambuf_iterator<char>(in)), {});
  ASSERT_EQ(got.size(), expected.size());
  EXPECT_TRUE(got == expected) << "bytes lost or out of order";
}

TEST_F(IoTest, AbandonedAtomicFileLeavesNothing) {
  {
    auto f = AtomicFile::Open((dir_ / "never.parquet").string());
    ASSERT_TRUE(f.ok());
    ASSERT_TRUE((*f)->stream()->Write("partial").ok());
    ASSERT_TRUE((*f)->stream()->Flush().ok());
    // Unnamed until Commit (O_TMPFILE): nothing in the folder even while it is written.
    EXPECT_EQ((*f)->temp_path(), "");
    EXPECT_TRUE(Entries().empty());
  }
  EXPECT_TRUE(Entries().empty());
}

TEST_F(IoTest, CommitNamesTheUnnamedFileAndReplacesAnExistingTarget) {
  const fs::path target = dir_ / "out.csv";
  for (const std::string text : {"first version\n", "second\n"}) {
    auto f = AtomicFile::Open(target.string());
    ASSERT_TRUE(f.ok());
    ASSERT_TRUE((*f)->stream()->Write(text).ok());
    ASSERT_TRUE((*f)->Commit().ok());
    std::ifstream in(target, std::ios::binary);
    EXPECT_EQ(std::string((std::istreambuf_iterator<char>(in)), {}), text);
    EXPECT_EQ(Entries().size(), 1u) << "a temporary name was left beside the target";
    const mode_t mask = umask(022);
    umask(mask);
    struct stat st{};
    ASSERT_EQ(stat(target.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0644u & ~mask) << "a new data file's usual permissions";
  }
}

TEST_F(IoTest, WriteFailureLeavesNoFile) {
  // A file-size limit makes write() fail with EFBIG, as a full disk fails with ENOSPC.
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit rl{4096, 4096};
    setrlimit(RLIMIT_FSIZE, &rl);
    // A large write fails in Write (it skips the buffer), a small one at Commit's flush; the
    // AtomicFile is dropped on the way out either way, as a caller returning the error drops it.
    for (size_t size : {size_t{1} << 20, size_t{8192}}) {
      auto f = AtomicFile::Open((dir_ / "big.parquet").string());
      if (!f.ok()) _exit(10);
      Status st = (*f)->stream()->Write(std::string(size, 'y'));
      if (st.ok() != (size < 65536)) _exit(13);
      if (st.ok()) st = (*f)->Commit();
      if (st.ok()) _exit(11);
      if (st.message().find("File too large") == std::string::npos) _exit(12);
    }
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_TRUE(Entries().empty());
}

TEST_F(IoTest, InterruptRemovesTemporaryFiles) {
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    InstallInterruptCleanup();
    auto f = AtomicFile::Open((dir_ / "interrupted.parquet").string());
    if (!f.ok()) _exit(10);
    (void)(*f)->stream()->Write("half");
    (void)(*f)->stream()->Flush();
    raise(SIGINT);
    _exit(11);  // not reached: the handler re-raises with the default action
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGINT);
  EXPECT_TRUE(Entries().empty());
}

TEST_F(IoTest, InputCutShortUnderItsMappingRemovesTemporaryFilesAndSaysSo) {
  const fs::path input = dir_ / "input.csv";
  { std::ofstream(input) << std::string(3 * 4096, 'x'); }
  const fs::path err = dir_ / "stderr.txt";
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (e < 0 || dup2(e, STDERR_FILENO) < 0) _exit(9);
    struct rlimit no_core{0, 0};
    setrlimit(RLIMIT_CORE, &no_core);  // dying of SIGBUS would leave a core file
    InstallInterruptCleanup();
    auto f = AtomicFile::Open((dir_ / "out.parquet").string());
    if (!f.ok()) _exit(10);
    (void)(*f)->stream()->Write("half");
    (void)(*f)->stream()->Flush();
    const int fd = open(input.c_str(), O_RDWR);
    if (fd < 0) _exit(12);
    void* m = mmap(nullptr, 3 * 4096, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED) _exit(13);
    if (ftruncate(fd, 0) != 0) _exit(14);
    volatile const char* p = static_cast<const char*>(m);
    (void)p[2 * 4096];  // a page past the file's new end
    _exit(11);  // not reached
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGBUS);
  std::ifstream in(err);
  std::string said((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(said, "quiver: an input file was cut short while being read (SIGBUS on its mapped pages); no output was kept\n");
  fs::remove(err);
  fs::remove(input);
  EXPECT_TRUE(Entries().empty());
}

TEST_F(IoTest, UnwritableFolderFailsAtOpen) {
  auto f = AtomicFile::Open((dir_ / "no-such-dir" / "x.csv").string());
  EXPECT_TRUE(f.status().IsIOError());
  EXPECT_NE(f.status().message().find("cannot create a temporary file"), std::string::npos);
}

}  // namespace
}  // namespace quiver::io
