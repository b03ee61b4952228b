// A folder another user can write to: every temporary and lock file a run creates
// has a guessable name (NAME.tmpPID, .lock), so a symbolic link planted there must
// be refused, one line naming it, and nothing outside --out or --checkpoint ever
// created or written. Each attack runs the binary through `bash -c '...; exec'`,
// so that the shell's $$ is the process id the run will have.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "test_util.hpp"

namespace statespace {
namespace {

namespace fs = std::filesystem;
using testing::fresh_dir;
using testing::read_file;
using testing::run_command;
using testing::write_file;

// `plant` (shell, $$ the run's id) then statespace with `args`, all under `dir`.
testing::CommandResult attack(const fs::path& dir, const std::string& plant, const std::string& args) {
  return run_command("cd " + dir.string() + " && bash -c '" + plant + "; exec " + STATESPACE_BINARY + " " + args + "'");
}

void expect_refused_naming(const testing::CommandResult& r, const std::string& link) {
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.std_err.find("refusing to write through '" + link), std::string::npos) << r.std_err;
  EXPECT_NE(r.std_err.find("': it is a symbolic link (expected no file there"), std::string::npos) << r.std_err;
  EXPECT_EQ(std::count(r.std_err.begin(), r.std_err.end(), '\n'), 1) << r.std_err;
}

// The attack: links at the probe's and the summary rewrite's temporary
// names. Before, v1 was overwritten, v2 got the summary and W/summary.csv became a
// link to it.
TEST(HostileFolder, LinksAtTemporaryNamesAreRefused) {
  const auto dir = fresh_dir("hostile-tmp");
  write_file(dir / "v1", "precious\n");
  write_file(dir / "v2", "precious\n");
  fs::create_directories(dir / "W");
  auto r = attack(dir, "ln -s \"$PWD/v1\" W/.statespace-probe.tmp$$", "analyze hex6 --out W -q");
  expect_refused_naming(r, "W/.statespace-probe.tmp");
  EXPECT_EQ(read_file(dir / "v1"), "precious\n");
  EXPECT_FALSE(fs::exists(dir / "W/hex6"));

  fs::remove_all(dir / "W");
  fs::create_directories(dir / "W");
  r = attack(dir, "ln -s \"$PWD/v2\" W/summary.csv.tmp$$", "analyze hex6 --out W -q");
  expect_refused_naming(r, "W/summary.csv.tmp");
  EXPECT_EQ(read_file(dir / "v2"), "precious\n");
  EXPECT_FALSE(fs::is_symlink(dir / "W/summary.csv"));
  EXPECT_FALSE(fs::exists(dir / "W/summary.csv"));

  // A bundle file's temporary inside the staging folder cannot be planted (the
  // folder is made fresh by mkdir), but a link at the staging folder's own name,
  // pointing to a folder outside, is removed, never written through.
  fs::remove_all(dir / "W");
  fs::create_directories(dir / "W");
  fs::create_directories(dir / "elsewhere");
  r = attack(dir, "ln -s \"$PWD/elsewhere\" W/.hex6.staging-$$", "analyze hex6 --out W -q");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(fs::is_empty(dir / "elsewhere"));
  EXPECT_TRUE(fs::is_directory(fs::symlink_status(dir / "W/hex6")));
  EXPECT_NE(read_file(dir / "W/hex6/summary.json").find("hex6"), std::string::npos);
}

// `W/.lock -> ../x` created x outside W.
TEST(HostileFolder, ALinkAtTheLockFileIsRefused) {
  const auto dir = fresh_dir("hostile-lock");
  fs::create_directories(dir / "W");
  fs::create_symlink("../x", dir / "W/.lock");
  const auto r = attack(dir, "true", "analyze hex6 --out W -q");
  expect_refused_naming(r, "W/.lock");
  EXPECT_FALSE(fs::exists(fs::symlink_status(dir / "x")));
  EXPECT_FALSE(fs::exists(dir / "W/hex6"));
}

// The checkpoint's temporary under --checkpoint: the link is refused and its
// target keeps its bytes.
TEST(HostileFolder, ALinkAtTheCheckpointTemporaryIsRefused) {
  const auto dir = fresh_dir("hostile-ckpt");
  write_file(dir / "v3", "precious\n");
  fs::create_directories(dir / "ck");
  const auto r = attack(dir, "ln -s \"$PWD/v3\" ck/implicit-bfs.ckpt.tmp$$",
                        "analyze tiles:2x3 --engine implicit --checkpoint ck --out W -q");
  expect_refused_naming(r, "ck/implicit-bfs.ckpt.tmp");
  EXPECT_EQ(read_file(dir / "v3"), "precious\n");
  EXPECT_FALSE(fs::exists(dir / "ck/implicit-bfs.ckpt"));
}

// A dead process's id: a child that has exited and been reaped.
long dead_pid() {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return pid;
}

// What a killed run left in the checkpoint folder (a temporary of up to the whole
// table) is removed by the next run writing there, as the bundle's temporaries
// are; a live process's temporary and a link of the same shape stay.
TEST(HostileFolder, StaleCheckpointTemporariesAreRemoved) {
  const auto dir = fresh_dir("hostile-stale");
  fs::create_directories(dir / "ck");
  const auto stale = dir / "ck" / ("implicit-bfs.ckpt.tmp" + std::to_string(dead_pid()));
  const auto live = dir / "ck" / ("implicit-bfs.ckpt.tmp" + std::to_string(::getppid()));
  const auto link = dir / "ck" / ("implicit-bfs.ckpt.tmp" + std::to_string(dead_pid()));
  write_file(stale, std::string(1 << 16, 'x'));
  write_file(live, "live");
  if (link != stale) fs::create_symlink(dir / "v", link);
  const auto r = testing::run_statespace("analyze tiles:2x3 --engine implicit --checkpoint " + (dir / "ck").string() +
                                         " --out " + (dir / "W").string() + " -q");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(live));
  if (link != stale) {
    EXPECT_TRUE(fs::is_symlink(link));
  }
  EXPECT_TRUE(fs::exists(dir / "ck/implicit-bfs.ckpt"));
}

}  // namespace
}  // namespace statespace
