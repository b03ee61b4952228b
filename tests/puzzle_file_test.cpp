// Puzzle files: errors common to every kind point at FILE:LINE:COLUMN, exit with
// code 2 and write nothing.
#include <gtest/gtest.h>

#include <fstream>

#include "test_util.hpp"

namespace statespace {
namespace {

using testing::fresh_dir;
using testing::run_statespace;

struct BadFile {
  std::string text;
  std::string message;  // what the one line must contain
};

TEST(PuzzleFile, BrokenFilesAreOneLineWithTheirPosition) {
  const auto dir = fresh_dir("puzzle-file-errors");
  const std::vector<BadFile> cases = {
      {"name = \"x\"\nkind = \"blocks\nstart = 1\n", "bad.toml:2:"},  // unterminated string
      {"name = \"x\"\n", "bad.toml:1:1: missing key 'kind'"},
      {"name = \"x\"\nkind = 3\n", "bad.toml:2:8: 'kind' must be a string"},
      {"name = \"x\"\nkind = \"spaceship\"\n", "bad.toml:2:8: unknown kind 'spaceship'"},
  };
  for (const auto& c : cases) {
    const auto file = dir / "bad.toml";
    std::ofstream(file) << c.text;
    const auto out = dir / "out";
    const auto r = run_statespace("analyze " + file.string() + " --quiet --out " + out.string());
    EXPECT_EQ(r.exit_code, 2) << c.text << r.out;
    EXPECT_NE(r.std_err.find(c.message), std::string::npos) << c.text << r.std_err;
    EXPECT_EQ(std::count(r.std_err.begin(), r.std_err.end(), '\n'), 1) << r.std_err;
    EXPECT_FALSE(std::filesystem::exists(out)) << c.text;
  }
  const auto r = run_statespace("analyze " + (dir / "missing.toml").string() + " --quiet");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.std_err.find("missing.toml: cannot read the file"), std::string::npos) << r.std_err;
}

}  // namespace
}  // namespace statespace
