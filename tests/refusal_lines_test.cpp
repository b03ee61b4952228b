// Refusals that must say what is wrong, where, in a line that can be used: a
// duplicated rule named as such, a long file path kept whole before its
// :LINE:COLUMN, names that would collide with the files beside the bundles refused
// before the search, and no character cut in two.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>

#include "bad_file.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

namespace fs = std::filesystem;
using testing::fresh_dir;
using testing::run_statespace;
using testing::write_file;

// Before: "this rule can never match: it fits nowhere on the board".
TEST(RefusalLines, ADuplicatedRuleIsNamedAsSuch) {
  const auto dir = fresh_dir("refusal-duplicate-rule");
  const std::string rule = "[[rule]]\nfrom = \"O O .\"\nto = \". . O\"\n";
  testing::expect_refused(
      dir, {{"name = \"x\"\nkind = \"rules\"\nstart = \"O O . .\"\n" + rule + rule,
             "bad.toml:8:8: this rule repeats 'rule 1': every placement it makes, that rule makes (expected each "
             "rule once)"},
            {"name = \"x\"\nkind = \"rules\"\nstart = \"O O . .\"\n[[rule]]\nname = \"jump\"\nfrom = \"O O .\"\nto = "
             "\". . O\"\n" +
                 rule,
             "bad.toml:9:8: this rule repeats 'jump'"}});
}

// Before, a path over 60 characters was cut to a prefix inside FILE:LINE:COLUMN.
TEST(RefusalLines, ALongPathIsKeptWholeBeforeItsPosition) {
  const auto dir = fresh_dir("refusal-long-path-" + std::string(60, 'p'));
  const auto file = write_file(dir / "bad.toml", "name = \"x\"\nkind = \"graph\"\nedges = \"1-2\"\nstart = 3\n");
  ASSERT_GT(file.string().size(), 60u);
  const auto r = run_statespace("analyze " + file.string() + " --quiet --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_EQ(r.std_err.rfind("statespace: " + file.string() + ":4:9: ", 0), 0u) << r.std_err;
}

// Before, the whole search ran and then the write failed.
TEST(RefusalLines, NamesOfTheFilesBesideTheBundlesAreRefused) {
  const auto dir = fresh_dir("refusal-bundle-names");
  const std::string graph = "kind = \"graph\"\nedges = \"1-2\"\nstart = \"a _\"\n";
  for (const std::string name : {"summary.csv", "summary.md"}) {
    testing::expect_refused(dir, {{"name = \"" + name + "\"\n" + graph,
                                   "bad.toml:1:8: bad name '" + name +
                                       "': it is the name of a file of the output folder (expected 1 to 64"}});
  }
  const auto manifest = write_file(dir / "m.toml", "[[analysis]]\npuzzle = \"hex6\"\nlabel = \"index.md\"\n");
  const auto r = run_statespace("report " + manifest.string() + " --out " + (dir / "article").string());
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.std_err.find(manifest.string() + ":3:9: bad label 'index.md': it is a file of the report itself"),
            std::string::npos)
      << r.std_err;
  EXPECT_FALSE(fs::exists(dir / "article"));
}

// Whether every multi-byte UTF-8 character of `text` is whole.
bool whole_utf8(const std::string& text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const std::size_t n = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
    if (n == 0 || i + n > text.size()) return false;
    for (std::size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return false;
    }
    i += n;
  }
  return true;
}

// A file stem of accented letters, shown cut to 40 bytes: before, the cut and the
// character named as the problem were single bytes of a two-byte character.
TEST(RefusalLines, NoCharacterIsCutInTwo) {
  const auto dir = fresh_dir("refusal-utf8");
  std::string stem = "a";
  for (int i = 0; i < 30; ++i) stem += "\xC3\xA9";  // é
  const auto file = write_file(dir / (stem + ".toml"), "kind = \"graph\"\nedges = \"1-2\"\nstart = \"a _\"\n");
  const auto r = run_statespace("analyze '" + file.string() + "' --quiet --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.std_err.find("holds '\xC3\xA9'"), std::string::npos) << r.std_err;
  EXPECT_TRUE(whole_utf8(r.std_err)) << r.std_err;
}

// Command-line refusals that named the problem but not the form wanted: each is one
// line ending in its "(expected ...)" part.
TEST(RefusalLines, CommandRefusalsNameTheExpectedForm) {
  const auto dir = fresh_dir("refusal-expected");
  const auto empty = write_file(dir / "empty.txt", "# no positions\n\n");
  const auto manifest = write_file(dir / "m.toml", "[[analysis]]\npuzzle = \"hex6\"\n");
  const auto not_a_folder = write_file(dir / "plain-file", "x");
  const std::pair<std::string, std::string> cases[] = {
      {"solve tiles:3x3 --batch " + empty.string(),
       "statespace: solve: --batch file '" + empty.string() +
           "' holds no position (expected one position a line, in the puzzle's notation)\n"},
      {"solve tiles:3x3 --batch " + (dir / "missing.txt").string(), "statespace: solve: cannot read --batch file '" +
                                                                        (dir / "missing.txt").string() +
                                                                        "' (expected a readable file of positions)\n"},
      {"generate tiles:2x3 --min 5 --max 3",
       "statespace: generate: --min 5 exceeds --max 3 (expected --min A --max B with A at most B)\n"},
      {"report " + manifest.string() + " --out " + not_a_folder.string(),
       "statespace: report: --out " + not_a_folder.string() +
           " exists and is not a folder (expected a folder, new or written by statespace report)\n"},
  };
  for (const auto& [args, line] : cases) {
    const auto r = run_statespace(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.out;
    EXPECT_EQ(r.std_err, line) << args;
  }
}

}  // namespace
}  // namespace statespace
