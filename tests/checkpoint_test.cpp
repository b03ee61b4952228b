// Checkpoints of the implicit engine: the file round-trips and refuses damage, and a
// run killed with SIGKILL mid-way (the statespace binary as a child process) resumes
// to reports byte-identical to an uninterrupted run's and to the explicit engine's.
#include "analysis/runtime/checkpoint.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "analysis/engines/implicit/implicit_bfs.hpp"
#include "core/errors.hpp"
#include "report_compare.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

namespace fs = std::filesystem;
using testing::expect_same_reports;
using testing::fresh_dir;

ImplicitResult run(const Tiles& p, const fs::path& checkpoint, const fs::path& resume = {}) {
  ImplicitOptions o;
  o.progress = false;
  o.checkpoint = checkpoint;
  o.resume = resume;
  return implicit_bfs(p, p.goal(), o);
}

// Expects UsageError whose message contains `part`.
template <class F>
void expect_refusal(F&& f, const std::string& part) {
  try {
    f();
    ADD_FAILURE() << "expected a UsageError containing '" << part << "'";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

void flip_byte(const fs::path& file, std::uintmax_t offset) {
  std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(std::streamoff(offset));
  char c = 0;
  f.read(&c, 1);
  c = char(c ^ 0x10);
  f.seekp(std::streamoff(offset));
  f.write(&c, 1);
}

TEST(Checkpoint, HeaderRecordsTheLastLevelAndResumingFinishesTheSameRun) {
  const Tiles p(3, 3);
  const fs::path dir = fresh_dir("checkpoint-roundtrip");
  const ImplicitResult full = run(p, dir);
  const CheckpointState state = read_checkpoint_header(dir);
  EXPECT_EQ(state.puzzle, "tiles:3x3");
  EXPECT_EQ(state.start, "1 2 3 / 4 5 6 / 7 8 _");
  EXPECT_EQ(state.level, 31u);  // written after the level that found depth 31
  EXPECT_EQ(state.layers, full.layers);
  ASSERT_EQ(state.edges_to_next.size(), 31u);
  EXPECT_EQ(state.edges_to_next[0], 2u);  // the goal's two moves
  // The last layer of each blank colour, both bitsets sized for the larger colour.
  EXPECT_EQ(state.table_entries, (std::vector<std::uint64_t>{20160 * 5, 20160 * 5}));
  EXPECT_EQ(fs::file_size(checkpoint_path(dir)) % 8, 0u);

  const ImplicitResult resumed = run(p, {}, dir);
  EXPECT_EQ(resumed.layers, full.layers);
  EXPECT_EQ(resumed.layer_edges, full.layer_edges);
  EXPECT_EQ(resumed.farthest, full.farthest);
  for (const auto& entry : fs::directory_iterator(dir)) EXPECT_EQ(entry.path(), checkpoint_path(dir));  // no temp left
}

TEST(Checkpoint, RefusesDamagedMissingAndForeignCheckpoints) {
  const Tiles p(2, 4);
  const fs::path dir = fresh_dir("checkpoint-damage");
  (void)run(p, dir);
  const fs::path file = checkpoint_path(dir);
  const auto size = fs::file_size(file);
  const fs::path copy = dir / "good";
  fs::copy_file(file, copy);

  expect_refusal([&] { (void)run(Tiles(3, 3), {}, dir); }, "is for tiles:2x4");
  flip_byte(file, size - 3);  // in the tables
  expect_refusal([&] { (void)run(p, {}, dir); }, "data checksum mismatch");
  fs::copy_file(copy, file, fs::copy_options::overwrite_existing);
  flip_byte(file, 20);  // in the engine name
  expect_refusal([&] { (void)run(p, {}, dir); }, "header checksum mismatch");
  fs::copy_file(copy, file, fs::copy_options::overwrite_existing);
  {
    // A checkpoint of the two-bit engine (format version 1) is named, not misread.
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(8);
    f.put(1);
  }
  expect_refusal([&] { (void)run(p, {}, dir); }, "version 1, this build reads version 3");
  fs::copy_file(copy, file, fs::copy_options::overwrite_existing);
  fs::resize_file(file, size - 8);
  expect_refusal([&] { (void)run(p, {}, dir); }, "truncated");
  fs::remove(file);
  expect_refusal([&] { (void)run(p, {}, dir); }, "cannot open");
  expect_refusal([&] { (void)run(p, {}, copy); }, "cannot open");  // a file, not a folder
}

TEST(Checkpoint, ZeroBlocksBecomeHolesAndReadBackAsZeros) {
  const fs::path dir = fresh_dir("checkpoint-sparse");
  std::vector<BitTable> tables;
  tables.emplace_back(128'000'000);  // 16 MB
  tables.emplace_back(2'000'001);
  for (std::uint64_t e : {0ull, 24'691'356ull, 127'999'999ull}) tables[0].set(e, 1);
  tables[1].set(2'000'000, 1);
  CheckpointState state;
  state.puzzle = "tiles:3x4";
  state.start = "1 2 3 4 / 5 6 7 8 / 9 10 11 _";
  state.layers = {1};
  state.table_entries = {tables[0].entries(), tables[1].entries()};
  write_checkpoint(dir, state, tables);
  const fs::path file = checkpoint_path(dir);
  struct stat st {};
  ASSERT_EQ(::stat(file.c_str(), &st), 0);
  EXPECT_EQ(std::uint64_t(st.st_size) % 8, 0u);
  EXPECT_GE(std::uint64_t(st.st_size), 16'000'000u + 250'000u);
  EXPECT_LT(std::uint64_t(st.st_blocks) * 512, 5'000'000u);  // four touched 1 MiB blocks at most

  std::vector<BitTable> back;
  back.emplace_back(128'000'000);
  back.emplace_back(2'000'001);
  read_checkpoint_tables(dir, back);
  EXPECT_EQ(table_checksum(back), table_checksum(tables));
  for (std::size_t t = 0; t < 2; ++t) {
    EXPECT_TRUE(std::equal(back[t].words(), back[t].words() + back[t].word_count(), tables[t].words())) << t;
  }
}

TEST(Checkpoint, EveryLimitsHowOftenCheckpointsAreWritten) {
  const Tiles p(2, 4);
  const fs::path dir = fresh_dir("checkpoint-every");
  ImplicitOptions o;
  o.progress = false;
  o.checkpoint = dir;
  o.checkpoint_every = 1e9;
  (void)implicit_bfs(p, p.goal(), o);
  EXPECT_FALSE(fs::exists(checkpoint_path(dir)));
}

// Starts `statespace args...` with stdout and stderr discarded; env adds NAME=VALUE.
pid_t spawn(const std::vector<std::string>& args, const char* binary = STATESPACE_BINARY) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    std::vector<char*> argv{const_cast<char*>(binary)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(binary, argv.data());
    _exit(127);
  }
  return pid;
}

int wait_exit(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::vector<std::string> analyze(const std::string& puzzle, const fs::path& out, std::vector<std::string> extra) {
  std::vector<std::string> args = {"analyze", puzzle, "--out", out.string(), "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

TEST(Checkpoint, SigkilledRunResumesToByteIdenticalReports) {
  const fs::path root = fresh_dir("checkpoint-kill");
  const fs::path ckpt = root / "ckpt", resumed = root / "resumed";
  // The child kills itself (SIGKILL) right after checkpoint 20 (of 55) is on disk.
  const pid_t pid = spawn({"2x5", ckpt.string(), "20"}, CHECKPOINT_CRASH_BINARY);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "status " << status;
  EXPECT_EQ(read_checkpoint_header(ckpt).level, 20u);

  ASSERT_EQ(wait_exit(spawn(analyze("tiles:2x5", resumed, {"--engine", "implicit", "--resume", ckpt.string()}))), 0);
  EXPECT_EQ(read_checkpoint_header(ckpt).level, 55u);  // the resumed run kept checkpointing
  const fs::path whole = root / "whole", explicit_out = root / "explicit";
  ASSERT_EQ(wait_exit(spawn(analyze("tiles:2x5", whole, {"--engine", "implicit"}))), 0);
  ASSERT_EQ(wait_exit(spawn(analyze("tiles:2x5", explicit_out, {"--engine", "explicit"}))), 0);
  expect_same_reports(resumed / "tiles-2x5", whole / "tiles-2x5");
  expect_same_reports(resumed / "tiles-2x5", explicit_out / "tiles-2x5");
}

TEST(Checkpoint, KillAtAnArbitraryMomentLeavesAResumableCheckpoint) {
  const fs::path root = fresh_dir("checkpoint-async-kill");
  const fs::path ckpt = root / "ckpt", resumed = root / "resumed", whole = root / "whole";
  const std::string from = "5 1 2 3 4 / _ 6 7 8 9";
  const pid_t pid = spawn(
      analyze("tiles:2x5", root / "killed", {"--engine", "implicit", "--checkpoint", ckpt.string(), "--from", from}));
  // Kill as soon as the first checkpoint exists: wherever the child is then (computing,
  // or halfway through writing the next checkpoint), the last complete one must load.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!fs::exists(checkpoint_path(ckpt)) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  kill(pid, SIGKILL);
  (void)wait_exit(pid);
  ASSERT_TRUE(fs::exists(checkpoint_path(ckpt)));
  ASSERT_EQ(wait_exit(spawn(
                analyze("tiles:2x5", resumed, {"--engine", "implicit", "--resume", ckpt.string(), "--from", from}))),
            0);
  ASSERT_EQ(wait_exit(spawn(analyze("tiles:2x5", whole, {"--engine", "explicit", "--from", from}))), 0);
  expect_same_reports(resumed / "tiles-2x5", whole / "tiles-2x5");
}

TEST(Checkpoint, CliRefusesCheckpointsWithoutABitsetEngine) {
  // Klotski's pieces pack into a word but have no dense rank: the levels engine, which keeps no checkpoints.
  const auto r = testing::run_statespace("analyze " + std::string(STATESPACE_EXAMPLES) +
                                         "/klotski.toml --checkpoint /tmp/x --quiet");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("--checkpoint and --resume need the implicit engine (tiles:RxC) or the ranked one"),
            std::string::npos)
      << r.out;
  const auto resume = testing::run_statespace("analyze tiles:2x3 --engine implicit --resume /nonexistent/dir --quiet");
  EXPECT_EQ(resume.exit_code, 2);
  EXPECT_NE(resume.out.find("cannot open"), std::string::npos) << resume.out;
}

}  // namespace
}  // namespace statespace
