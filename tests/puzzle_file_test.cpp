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

}  // namespace
}  // namespace statespace
