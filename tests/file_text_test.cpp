// One rule for text from files: a control character (below 0x20, DEL) or a Unicode
// bidirectional override in any name, label, move, rule or picture of any kind of
// puzzle file, a manifest or a .tws file is refused at load time, one line
// FILE:LINE:COLUMN naming the character by its code point, exit 2, before any work;
// so no writer (CSV, Markdown, DOT, SVG, the terminal) ever meets one. Multi-line
// pictures keep their line breaks and tabs, and .tws files their blanks.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "test_util.hpp"

namespace statespace {
namespace {

namespace fs = std::filesystem;
using testing::fresh_dir;
using testing::run_statespace;
using testing::write_file;

struct Case {
  std::string file;      // the file's name (its extension picks the reader)
  std::string text;      // what it holds
  std::string location;  // ":LINE:COLUMN: " of the refusal
  std::string problem;   // what the line says after it
};

// ESC starts a terminal colour; U+202E reverses what follows; a newline splits a
// line of `solve`'s moves.
const std::vector<Case> kCases = {
    {"graph.toml", "kind = \"graph\"\nedges = \"1-2\"\nstart = \"\\u001b[31m _\"\n",
     ":3:9: ", "control character U+001B in a string (expected printable text"},
    {"graph-bidi.toml", "kind = \"graph\"\nedges = \"1-2\"\nstart = \"a\xE2\x80\xAE _\"\n",
     ":3:9: ", "bidirectional control U+202E in a string"},
    {"blocks.toml", "kind = \"blocks\"\nstart = \"\"\"\nA\\u0007 .\n\"\"\"\n",
     ":2:9: ", "control character U+0007 in a string"},
    {"permutation.toml", "kind = \"permutation\"\nstart = \"a b\"\n[moves]\n\"X\\u0000\" = \"(1,2)\"\n",
     ":4:1: ", "control character U+0000 in a key"},
    {"rules.toml",
     "name = \"r\"\nkind = \"rules\"\nstart = \"F .\"\n[[rule]]\nname = \"frog\\nsteps\"\nfrom = \"F .\"\nto = \". "
     "F\"\n",
     ":5:8: ", "control character U+000A in a rule's name"},
    {"rules-title.toml",
     "kind = \"rules\"\ntitle = \"a\\u007fb\"\nstart = \"F .\"\n[[rule]]\nfrom = \"F .\"\nto = \". F\"\n",
     ":2:9: ", "control character U+007F in a string"},
    {"nul.tws", "Set A 3 1\nSolved\nA\n1 2 3\nEnd\nMove M\nA\n2", ":8:2: ",
     "control character U+0000 in the file; expected words separated by spaces, tabs and line breaks, no "
     "control characters or bidirectional overrides"},
    {"bel.tws", "Set A 3 1\nSolved\nA\n1 2\a 3\nEnd\n", ":4:4: ", "control character U+0007 in the file"},
    {"esc.tws", "Name \x1b[31m\n", ":1:6: ", "control character U+001B in the file"},
    {"bidi.tws", "Set A 3 1\nSolved\nA\n1 2 3\nEnd\nMove R\xE2\x81\xA6\n",
     ":6:7: ", "bidirectional control U+2066 in the file"},
};

TEST(FileText, ControlCharactersAreRefusedInEveryKind) {
  const auto dir = fresh_dir("file-text");
  for (const auto& c : kCases) {
    std::string text = c.text;
    if (c.file == "nul.tws")
      text += std::string(
          "\0"
          "3 1\nEnd\n",
          8);
    const auto file = write_file(dir / c.file, text);
    const auto out = dir / "out";
    const auto r = run_statespace("analyze " + file.string() + " --quiet --out " + out.string());
    EXPECT_EQ(r.exit_code, 2) << c.file << r.out;
    EXPECT_NE(r.std_err.find(file.string() + c.location + c.problem), std::string::npos) << c.file << r.std_err;
    EXPECT_EQ(std::count(r.std_err.begin(), r.std_err.end(), '\n'), 1) << r.std_err;
    EXPECT_EQ(r.std_err.find('\x1b'), std::string::npos);
    EXPECT_FALSE(fs::exists(out)) << c.file;
  }
}

// A manifest's labels become table cells and the index: held to the same rule.
TEST(FileText, ManifestTextIsHeldToTheSameRule) {
  const auto dir = fresh_dir("file-text-manifest");
  const auto file = write_file(dir / "m.toml", "title = \"T\\u001b[2J\"\n");
  const auto r = run_statespace("report " + file.string() + " --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.std_err.find(file.string() + ":1:9: control character U+001B in a string"), std::string::npos)
      << r.std_err;
  EXPECT_FALSE(fs::exists(dir / "out"));
}

// What the rule leaves alone: a picture's line breaks and tabs, text in any script,
// a .tws file with CRLF line ends, tabs and a byte order mark (read as nothing).
TEST(FileText, BlanksAndPrintableTextStillLoad) {
  const auto dir = fresh_dir("file-text-good");
  const auto blocks =
      write_file(dir / "blocks.toml",
                 "name = \"b\"\nkind = \"blocks\"\ntitle = \"Ünïcode — ok\"\nstart = \"\"\"\r\nA\t.\r\n\"\"\"\n");
  auto r = run_statespace("analyze " + blocks.string() + " --quiet --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(testing::read_file(dir / "out/b/summary.json").find("\"states\": 2,"), std::string::npos);
  const auto tws = write_file(
      dir / "bom.tws", "\xEF\xBB\xBFSet A 3 1\r\nSolved\r\nA\r\n1\t2 3\r\nEnd\r\nMove M\r\nA\r\n2 3 1\r\nEnd\r\n");
  r = run_statespace("analyze " + tws.string() + " --quiet --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(testing::read_file(dir / "out/bom/summary.json").find("\"states\": 3,"), std::string::npos);
}

}  // namespace
}  // namespace statespace
