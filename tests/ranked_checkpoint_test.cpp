// Checkpoints of the ranked engine: a run of the 2x2x2 cube (.tws, 7 corners) stopped
// right after a checkpoint resumes to reports byte-identical to an uninterrupted
// run's, at another thread count; the header holds the published layers so far; a
// checkpoint of another puzzle, other moves, another metric or another engine, or a
// damaged one, is refused with one line before any work, nothing written.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/pipeline/analyze_puzzle.hpp"
#include "analysis/runtime/checkpoint.hpp"
#include "puzzles/registry.hpp"
#include "report_compare.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

namespace fs = std::filesystem;
using testing::expect_same_reports;
using testing::fresh_dir;
using testing::run_statespace;

const std::string kCube = std::string(STATESPACE_EXAMPLES) + "/cube2.tws";
// The 2x2x2 cube, half-turn metric: positions at each distance (God's number 11).
const std::vector<std::uint64_t> kCubeLayers = {1,     9,      54,     321,     1847,   9992,
                                                50136, 227536, 870072, 1887748, 623800, 2644};

struct Stopped : std::runtime_error {
  Stopped() : std::runtime_error("stopped") {}
};

AnalysisResult analyze_cube(const AnalyzeOptions& o) {
  const AnyPuzzle p = make_puzzle(kCube);
  return analyze_puzzle(p, o, plan_puzzle(p, o)).result;
}

AnalyzeOptions quiet() {
  AnalyzeOptions o;
  o.progress = false;
  return o;
}

// Flips one bit of `file` at `offset`.
void damage(const fs::path& file, std::uintmax_t offset) {
  std::string bytes = testing::read_file(file);
  bytes.at(offset) = char(bytes.at(offset) ^ 0x10);
  testing::write_file(file, bytes);
}

TEST(RankedCheckpoint, StoppedAfterALevelResumesToTheUninterruptedReports) {
  const fs::path root = fresh_dir("ranked-checkpoint");
  const fs::path ckpt = root / "ckpt";
  AnalyzeOptions o = quiet();
  o.checkpoint = ckpt.string();
  o.on_checkpoint = [](std::uint32_t level) {
    if (level == 5) throw Stopped();
  };
  EXPECT_THROW((void)analyze_cube(o), Stopped);
  const CheckpointState state = read_checkpoint_header(ckpt);
  EXPECT_EQ(state.engine, "ranked");
  EXPECT_EQ(state.puzzle, "cube2");
  EXPECT_EQ(state.level, 5u);
  EXPECT_EQ(state.layers, std::vector<std::uint64_t>(kCubeLayers.begin(), kCubeLayers.begin() + 6));
  // Every move from the start goes onward; the 18 moves of level 1 back to the start
  // are not onward, and 9 positions times 9 moves = 81 made.
  ASSERT_EQ(state.edges_to_next.size(), 5u);
  EXPECT_EQ(state.edges_to_next[0], 9u);
  EXPECT_EQ(state.level_counts.at(2), 81u);
  EXPECT_EQ(state.table_entries, (std::vector<std::uint64_t>{3674160, 3674160}));

  // In process: the resumed result equals the uninterrupted one field by field, and
  // the resumed run kept checkpointing into the folder it resumed.
  const fs::path copy = root / "copy";
  fs::copy(ckpt, copy);
  AnalyzeOptions resume = quiet();
  resume.resume = ckpt.string();
  const AnalysisResult resumed = analyze_cube(resume);
  const AnalysisResult whole = analyze_cube(quiet());
  EXPECT_EQ(resumed.layers, kCubeLayers);
  EXPECT_EQ(resumed.layers, whole.layers);
  EXPECT_EQ(resumed.layer_edges, whole.layer_edges);
  EXPECT_EQ(resumed.edges, whole.edges);
  EXPECT_EQ(resumed.farthest, whole.farthest);
  EXPECT_EQ(resumed.engine, "ranked");
  EXPECT_EQ(read_checkpoint_header(ckpt).level, 11u);

  // The command: the same checkpoint resumed on one thread gives the bytes of an
  // uninterrupted run on two.
  const auto a = run_statespace("analyze " + kCube + " --quiet --threads 1 --resume " + copy.string() + " --out " +
                                (root / "resumed").string());
  ASSERT_EQ(a.exit_code, 0) << a.out;
  const auto b = run_statespace("analyze " + kCube + " --quiet --threads 2 --out " + (root / "whole").string());
  ASSERT_EQ(b.exit_code, 0) << b.out;
  expect_same_reports(root / "resumed" / "cube2", root / "whole" / "cube2");
}

TEST(RankedCheckpoint, CommandWritesEveryLevelAndResumesFromTheLast) {
  const fs::path root = fresh_dir("ranked-checkpoint-cli");
  const std::string ck = (root / "ck").string();
  const auto first =
      run_statespace("analyze " + kCube + " --engine ranked --checkpoint " + ck + " --out " + (root / "a").string());
  ASSERT_EQ(first.exit_code, 0) << first.out;
  EXPECT_NE(first.std_err.find("checkpoint written: level 1 in " + ck), std::string::npos) << first.std_err;
  EXPECT_NE(first.std_err.find("checkpoint written: level 11 in " + ck), std::string::npos) << first.std_err;
  const auto again = run_statespace("analyze " + kCube + " --resume " + ck + " --out " + (root / "b").string());
  ASSERT_EQ(again.exit_code, 0) << again.out;
  EXPECT_NE(again.std_err.find("resumed at level 11"), std::string::npos) << again.std_err;
  expect_same_reports(root / "a" / "cube2", root / "b" / "cube2");
}

TEST(RankedCheckpoint, ForeignOrDamagedCheckpointsAreRefusedBeforeAnyWork) {
  const fs::path root = fresh_dir("ranked-checkpoint-refused");
  const fs::path ck = root / "ck", tiles_ck = root / "tiles", implicit_ck = root / "implicit";
  AnalyzeOptions o = quiet();
  o.checkpoint = ck.string();
  o.on_checkpoint = [](std::uint32_t level) {
    if (level == 3) throw Stopped();
  };
  EXPECT_THROW((void)analyze_cube(o), Stopped);
  ASSERT_EQ(run_statespace("analyze tiles:2x3 --quiet --engine ranked --checkpoint " + tiles_ck.string() + " --out " +
                           (root / "t").string())
                .exit_code,
            0);
  ASSERT_EQ(run_statespace("analyze tiles:2x3 --quiet --engine implicit --checkpoint " + implicit_ck.string() +
                           " --out " + (root / "i").string())
                .exit_code,
            0);
  const fs::path file = checkpoint_path(ck);
  const auto size = fs::file_size(file);
  const fs::path good = root / "good.ckpt";
  fs::copy_file(file, good);

  const std::string pyraminx = std::string(STATESPACE_EXAMPLES) + "/pyraminx-tipless.tws";
  const struct {
    std::string args;
    std::string part;
  } cases[] = {
      {pyraminx + " --resume " + ck.string(), "is for cube2"},
      {kCube + " --moves U,F --resume " + ck.string(), "pass the same puzzle file, --moves and --metric"},
      {kCube + " --metric quarter --resume " + ck.string(), "pass the same puzzle file, --moves and --metric"},
      {kCube + " --from \"CORNERS 2 1 3 4 5 6 7 / 0 0 0 0 0 0 0\" --resume " + ck.string(), "is for cube2 from"},
      {kCube + " --engine mpi --checkpoint " + ck.string(), "under --engine mpi need tiles:RxC"},
      {"tiles:2x3 --engine implicit --resume " + tiles_ck.string(), "written by the ranked engine"},
      {"tiles:2x3 --engine ranked --resume " + implicit_ck.string(), "written by the implicit engine"},
  };
  const fs::path out = root / "out";
  for (const auto& c : cases) {
    const auto r = run_statespace("analyze " + c.args + " --quiet --out " + out.string());
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(c.part), std::string::npos) << c.args << "\n" << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
    EXPECT_FALSE(fs::exists(out)) << c.args;
  }

  const auto resume = [&] {
    return run_statespace("analyze " + kCube + " --resume " + ck.string() + " --out " + out.string());
  };
  damage(file, size - 100);  // in the frontier's bits
  auto r = resume();
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("data checksum mismatch"), std::string::npos) << r.out;
  fs::copy_file(good, file, fs::copy_options::overwrite_existing);
  damage(file, 30);  // in the header
  r = resume();
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("header checksum mismatch"), std::string::npos) << r.out;
  fs::copy_file(good, file, fs::copy_options::overwrite_existing);
  fs::resize_file(file, size - 8);
  r = resume();
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("truncated"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
}  // namespace statespace
