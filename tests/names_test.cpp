// The names files give: a puzzle's name or a manifest's label, table or figure name
// becomes a folder or file name under --out, so anything but letters, digits, - _ .
// (not first) and at most 64 characters is refused at the value (FILE:LINE:COLUMN,
// one line, exit 2) before any work, and nothing is written anywhere.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "test_util.hpp"

namespace statespace {
namespace {

namespace fs = std::filesystem;
using testing::fresh_dir;
using testing::run_statespace;
using testing::write_file;

struct BadName {
  std::string value;    // as written in the TOML file, quotes included
  std::string problem;  // what the message must say
};

// The escaping names aim at a name no other program uses, so that a file of that
// name already there (from anything else) cannot fail the checks below.
const std::string kOutside = "statespace-names-test-outside";

const std::vector<BadName> kBadNames = {
    {"\"../../" + kOutside + "\"", "starts with '.'"},
    {"\"/tmp/" + kOutside + "\"", "holds '/'"},
    {"\"a/../../" + kOutside + "\"", "holds '/'"},
    {"\"a\\\\b\"", "holds '\\'"},
    {"\"" + std::string(65, 'n') + "\"", "is 65 characters long"},
    {"\".hidden\"", "starts with '.'"},
    {"\"\"", "is empty"},
    {"\"tiles:3x4\"", "holds ':'"},
};

// Every kind of puzzle file: the bad name refused at the value (line 1, column 8),
// one line, exit 2, no folder anywhere; a good one with dots is taken.
TEST(Names, PuzzleFileNamesAreConfined) {
  const auto dir = fresh_dir("names-puzzles");
  const std::string graph = "kind = \"graph\"\nedges = \"1-2\"\nstart = \"a _\"\n";
  const std::string permutation = "kind = \"permutation\"\nstart = \"a b\"\n[moves]\nX = \"(1,2)\"\n";
  const std::string blocks = "kind = \"blocks\"\nstart = \"A .\"\n";
  for (const std::string& rest : {graph, permutation, blocks}) {
    for (const auto& bad : kBadNames) {
      fs::remove_all(dir / "out");
      fs::remove_all(dir / "outside");
      const auto file = write_file(dir / "bad.toml", "name = " + bad.value + "\n" + rest);
      const auto r = run_statespace("analyze " + file.string() + " --quiet --out " + (dir / "out").string());
      EXPECT_EQ(r.exit_code, 2) << bad.value << r.out;
      EXPECT_NE(r.std_err.find(file.string() + ":1:8: bad name '"), std::string::npos) << r.std_err;
      EXPECT_NE(r.std_err.find("': it " + bad.problem + " (expected 1 to 64 letters"), std::string::npos) << r.std_err;
      EXPECT_EQ(std::count(r.std_err.begin(), r.std_err.end(), '\n'), 1) << r.std_err;
      EXPECT_FALSE(fs::exists(dir / "out")) << bad.value;
    }
    const auto file = write_file(dir / "good.toml", "name = \"my_puzzle-2.v1\"\n" + rest);
    const auto r = run_statespace("analyze " + file.string() + " --quiet --out " + (dir / "out").string());
    EXPECT_EQ(r.exit_code, 0) << r.out;
    EXPECT_TRUE(fs::exists(dir / "out/my_puzzle-2.v1/summary.json"));
    fs::remove_all(dir / "out");
  }
  // Nothing escaped the output folder on the way (out/../../NAME is beside dir).
  EXPECT_FALSE(fs::exists(dir.parent_path() / kOutside));
  EXPECT_FALSE(fs::exists(fs::path("/tmp") / kOutside));
  // The 64-character limit is inclusive.
  const auto file = write_file(dir / "long.toml", "name = \"" + std::string(64, 'n') + "\"\n" + graph);
  EXPECT_EQ(run_statespace("analyze " + file.string() + " --quiet").exit_code, 0);
}

// Without a `name`, the file's stem names the folder and is held to the same rule:
// "bad name.toml" is refused at its first line, "stem.v2.toml" is taken as "stem.v2".
TEST(Names, AFileStemWithoutANameIsConfinedToo) {
  const auto dir = fresh_dir("names-stem");
  const std::string graph = "kind = \"graph\"\nedges = \"1-2\"\nstart = \"a _\"\n";
  const auto bad = write_file(dir / "bad name.toml", graph);
  auto r = run_statespace("analyze '" + bad.string() + "' --quiet --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.std_err.find(bad.string() + ":1:1: no name, and the file name 'bad name' holds ' '"), std::string::npos)
      << r.std_err;
  EXPECT_FALSE(fs::exists(dir / "out"));
  const auto good = write_file(dir / "stem.v2.toml", graph);
  r = run_statespace("analyze " + good.string() + " --quiet --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 0) << r.std_err;
  EXPECT_TRUE(fs::exists(dir / "out/stem.v2/summary.json"));
}

// A manifest's labels and its tables' and figures' names obey the same rule (labels
// may keep a built-in puzzle's ':', which the folder turns into '-').
TEST(Names, ReportManifestNamesAreConfined) {
  const auto dir = fresh_dir("names-manifest");
  const auto manifest = dir / "article.toml";
  const auto out = dir / "article";
  const auto report = [&](const std::string& text) {
    write_file(manifest, text);
    return run_statespace("report " + manifest.string() + " --out " + out.string() + " --quiet");
  };
  for (const auto& bad : kBadNames) {
    if (bad.problem == "holds ':'") continue;  // a label may hold ':'
    for (const auto& [text, at] : std::vector<std::pair<std::string, std::string>>{
             {"[[analysis]]\npuzzle = \"nooff\"\nlabel = " + bad.value + "\n", ":3:9: bad label '"},
             {"[[analysis]]\npuzzle = \"nooff\"\n[[table]]\nname = " + bad.value + "\n", ":4:8: bad table name '"},
             {"[[analysis]]\npuzzle = \"nooff\"\n[[figure]]\nkind = \"distribution\"\nname = " + bad.value + "\n",
              ":5:8: bad figure name '"}}) {
      const auto r = report(text);
      EXPECT_EQ(r.exit_code, 2) << text << r.out;
      EXPECT_NE(r.std_err.find(manifest.string() + at), std::string::npos) << text << r.std_err;
      EXPECT_NE(r.std_err.find("': it " + bad.problem + " ("), std::string::npos) << text << r.std_err;
      EXPECT_EQ(std::count(r.std_err.begin(), r.std_err.end(), '\n'), 1) << r.std_err;
      EXPECT_FALSE(fs::exists(out)) << text;
    }
  }
  const auto r = report(
      "[[analysis]]\npuzzle = \"tiles:2x3\"\n[[analysis]]\npuzzle = \"nooff\"\nlabel = \"no-off.v2\"\n"
      "[[table]]\nname = \"all_of.them\"\n");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(fs::exists(out / "tiles-2x3/summary.json"));
  EXPECT_TRUE(fs::exists(out / "no-off.v2/summary.json"));
  EXPECT_TRUE(fs::exists(out / "tables/all_of.them.md"));
}

}  // namespace
}  // namespace statespace
