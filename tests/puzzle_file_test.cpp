// Puzzle files: errors common to every kind point at FILE:LINE:COLUMN, exit with
// code 2 and write nothing.
#include <gtest/gtest.h>

#include <fstream>

#include "bad_file.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

using testing::BadFile;
using testing::expect_refused;
using testing::fresh_dir;
using testing::run_statespace;

TEST(PuzzleFile, BrokenFilesAreOneLineWithTheirPosition) {
  const auto dir = fresh_dir("puzzle-file-errors");
  const std::vector<BadFile> cases = {
      {"name = \"x\"\nkind = \"blocks\nstart = 1\n", "bad.toml:2:"},  // unterminated string
      {"name = \"x\"\n", "bad.toml:1:1: missing key 'kind'"},
      {"name = \"x\"\nkind = 3\n", "bad.toml:2:8: 'kind' must be a string"},
      {"name = \"x\"\nkind = \"spaceship\"\n", "bad.toml:2:8: unknown kind 'spaceship'"},
  };
  expect_refused(dir, cases);
  const auto r = run_statespace("analyze " + (dir / "missing.toml").string() + " --quiet");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.std_err.find("missing.toml: cannot read the file"), std::string::npos) << r.std_err;
}

// Every kind of file names its start, and its goal (the start when it gives none), so
// `solve FILE` needs no position; a built-in model still asks for one.
TEST(PuzzleFile, SolveStartsFromTheFilesStartForEveryKind) {
  const std::string examples = std::string(STATESPACE_EXAMPLES) + "/";
  struct Case {
    std::string args;
    std::string first_line;
  };
  const std::vector<Case> cases = {
      // blocks: Storer's 59 moves for Dad's Puzzle (its header cites them).
      {"dads.toml", "dads: 59 moves from "},
      {"nooff.toml", "nooff-file: 0 moves from "},
      // graph: the 8-puzzle's farthest position, 31 moves from the goal.
      {"grid3x3.toml --goal \"8 6 7 2 5 4 3 _ 1\"", "grid3x3: 31 moves from "},
      {"theta0.toml", "theta0: 0 moves from "},
      // permutation: one flip of the whole stack reverses it.
      {"pancake8.toml --goal \"8 7 6 5 4 3 2 1\"", "pancake8: 1 move from "},
      {"cube2.toml", "cube2: 0 moves from "},
  };
  for (const auto& c : cases) {
    const auto r = run_statespace("solve " + examples + c.args);
    ASSERT_EQ(r.exit_code, 0) << c.args << ": " << r.out;
    EXPECT_TRUE(r.std_out.starts_with(c.first_line)) << c.args << ": " << r.std_out;
  }
  const auto flip = run_statespace("solve " + examples + "pancake8.toml --goal \"8 7 6 5 4 3 2 1\"");
  EXPECT_NE(flip.std_out.find("\nmoves: P8\n"), std::string::npos) << flip.std_out;
  const auto builtin = run_statespace("solve hex6");
  EXPECT_EQ(builtin.exit_code, 2);
  EXPECT_NE(builtin.std_err.find("missing POSITION"), std::string::npos) << builtin.std_err;
}

}  // namespace
}  // namespace statespace
