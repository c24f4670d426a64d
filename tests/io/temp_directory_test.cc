// RegisterTempDirectory: a signal removes a registered folder with everything under it (many
// files, so the handler lists the folder in several getdents64 calls, and nested folders),
// while an unregistered folder and the files beside it stay. TempDirectory: built hidden beside
// its target, renamed into place by Commit (never over a target that appeared meanwhile),
// removed with its contents otherwise.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>

#include "quiver/io/atomic_file.h"
#include "quiver/io/temp_directory.h"
#include "testing/scratch_dir.h"

namespace quiver::io {
namespace {

namespace fs = std::filesystem;

TEST(TempDirectory, SignalRemovesTheRegisteredTree) {
  const fs::path dir = fs::temp_directory_path() / ("quiver-tempdir-test-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    const fs::path tree = dir / ("tree-" + std::to_string(sig));
    const fs::path keep = dir / ("keep-" + std::to_string(sig));
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      InstallInterruptCleanup();
      fs::create_directories(keep);
      std::ofstream(keep / "file") << "stays";
      for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 4; ++b) {
          const fs::path leaf = tree / ("a=" + std::to_string(a)) / ("b=" + std::to_string(b));
          fs::create_directories(leaf);
          // Long names: a few hundred entries take more than one 4 KiB listing.
          for (int f = 0; f < 60; ++f) {
            std::ofstream(leaf / ("part-with-a-rather-long-name-to-fill-listings-" + std::to_string(f) + ".parquet")) << f;
          }
        }
      }
      for (int f = 0; f < 200; ++f) std::ofstream(tree / ("top-level-file-with-a-long-name-" + std::to_string(f))) << f;
      if (RegisterTempDirectory(tree.string()) < 0) _exit(10);
      raise(sig);
      _exit(11);  // not reached: the handler re-raises with the default action
    }
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status)) << status;
    EXPECT_EQ(WTERMSIG(status), sig);
    EXPECT_FALSE(fs::exists(tree)) << tree;
    EXPECT_TRUE(fs::exists(keep / "file"));
  }
  // Unregistered: nothing removed.
  const fs::path tree = dir / "unregistered";
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    InstallInterruptCleanup();
    fs::create_directories(tree / "x");
    std::ofstream(tree / "x" / "f") << 1;
    const int slot = RegisterTempDirectory(tree.string());
    UnregisterTempDirectory(slot);
    raise(SIGINT);
    _exit(11);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status));
  EXPECT_TRUE(fs::exists(tree / "x" / "f"));
  fs::remove_all(dir);
}

class TempDir : public testing::ScratchDirTest {};

TEST_F(TempDir, CommitRenamesTheFolderWithItsFilesIntoPlace) {
  const std::string target = (dir_ / "tree").string();
  auto d = TempDirectory::Create(target);
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ(fs::path((*d)->path()).parent_path(), dir_);
  EXPECT_EQ(fs::path((*d)->path()).filename().string().rfind(".tree.quiver-", 0), 0u) << (*d)->path();
  fs::create_directories(fs::path((*d)->path()) / "a=1");
  std::ofstream(fs::path((*d)->path()) / "a=1" / "f") << "x";
  EXPECT_FALSE(fs::exists(target));
  ASSERT_TRUE((*d)->Commit().ok());
  EXPECT_TRUE(fs::exists(fs::path(target) / "a=1" / "f"));
  d->reset();  // a committed folder stays
  EXPECT_EQ(Entries(), std::vector<std::string>{"tree"});
}

TEST_F(TempDir, AbandonedOrDestroyedRemovesEverything) {
  auto d = TempDirectory::Create((dir_ / "t").string());
  ASSERT_TRUE(d.ok());
  fs::create_directories(fs::path((*d)->path()) / "x" / "y");
  std::ofstream(fs::path((*d)->path()) / "x" / "y" / "f") << "x";
  d->reset();
  EXPECT_TRUE(Entries().empty());
}

TEST_F(TempDir, NeverReplacesATarget) {
  const std::string target = (dir_ / "t").string();
  fs::create_directories(target);
  EXPECT_EQ(TempDirectory::Create(target).status().message(), target + ": exists");
  fs::remove(target);
  auto d = TempDirectory::Create(target);
  ASSERT_TRUE(d.ok());
  fs::create_directories(target);  // appeared meanwhile (empty: a plain rename would replace it)
  const Status st = (*d)->Commit();
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), target + ": File exists");
  (*d)->Abandon();
  EXPECT_EQ(Entries(), std::vector<std::string>{"t"});
}

}  // namespace
}  // namespace quiver::io
