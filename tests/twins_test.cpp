// Puzzles shipped twice, as a sticker file (.toml) and as pieces (.tws): each .tws file
// is what `statespace convert` writes for its .toml, and both forms give the same
// distribution.csv, farthest.csv and summary.csv byte for byte, through the binary
// the way a user runs it. The CSV files write the per-set notation, which `--from`
// of the sticker file reads back; .tws files written by format_tws read back as the
// definitions they came from.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "core/errors.hpp"
#include "puzzles/puzzle_file.hpp"
#include "puzzles/sticker_pieces.hpp"
#include "puzzles/tws_file.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

using testing::fresh_dir;
using testing::read_file;
using testing::run_statespace;

const std::vector<std::string> kTwins = {"beads", "cube2", "pyraminx-tipless", "skewb", "skewb-free", "cube3-RU"};

std::string example(const std::string& name, const std::string& extension) {
  return std::string(STATESPACE_EXAMPLES) + "/" + name + extension;
}

TEST(Twins, ShippedTwsFilesAreTheConvertersOutput) {
  for (const auto& name : kTwins) {
    const auto r = run_statespace("convert " + example(name, ".toml"));
    ASSERT_EQ(r.exit_code, 0) << name << ": " << r.std_err;
    EXPECT_EQ(r.std_out, read_file(example(name, ".tws")))
        << name << ": regenerate with statespace convert examples/puzzles/" << name << ".toml --out examples/puzzles/"
        << name << ".tws";
  }
  // --out writes the same bytes.
  const auto dir = fresh_dir("twins-convert");
  const auto r = run_statespace("convert " + example("cube2", ".toml") + " --out " + (dir / "cube2.tws").string());
  ASSERT_EQ(r.exit_code, 0) << r.std_err;
  EXPECT_EQ(r.std_out, "");
  EXPECT_EQ(read_file(dir / "cube2.tws"), read_file(example("cube2", ".tws")));
}

// Both forms, analysed by the binary into folders of their own, write the same CSV
// files; `extra` options go to both.
void expect_same_csv(const std::string& name, const std::string& extra = "") {
  const auto dir = fresh_dir("twins-" + name);
  for (const std::string form : {"toml", "tws"}) {
    const auto r = run_statespace("analyze " + example(name, "." + form) + " --quiet " + extra + " --out " +
                                  (dir / form).string());
    ASSERT_EQ(r.exit_code, 0) << name << "." << form << ": " << r.std_err;
  }
  for (const char* file : {"distribution.csv", "farthest.csv"}) {
    const std::string toml = read_file(dir / "toml" / name / file), tws = read_file(dir / "tws" / name / file);
    EXPECT_FALSE(toml.empty()) << name << " " << file;
    EXPECT_EQ(toml, tws) << name << " " << file;
  }
  EXPECT_EQ(read_file(dir / "toml/summary.csv"), read_file(dir / "tws/summary.csv")) << name;
}

TEST(Twins, SmallPairsWriteTheSameCsvBytes) {
  for (const char* name : {"beads", "cube2", "pyraminx-tipless", "skewb"}) expect_same_csv(name);
  // The numbers behind the bytes: the 2x2x2 cube's 2,644 antipodes, in rank order.
  const auto dir = fresh_dir("twins-cube2-numbers");
  ASSERT_EQ(run_statespace("analyze " + example("cube2", ".toml") + " --quiet --out " + dir.string()).exit_code, 0);
  const std::string farthest = read_file(dir / "cube2/farthest.csv");
  EXPECT_EQ(std::count(farthest.begin(), farthest.end(), '\n'), 2645);
  EXPECT_TRUE(farthest.starts_with("distance,position\n11,CORNERS ")) << farthest.substr(0, 80);
  EXPECT_NE(read_file(dir / "cube2/distribution.csv").find("\n11,2644,3674160\n"), std::string::npos);
}

// The two big pairs without a search: the same rank space, and every sampled rank
// the same position with the same successors.
TEST(Twins, BigPairsRankAlike) {
  for (const char* name : {"skewb-free", "cube3-RU"}) {
    const auto toml = make_file_puzzle(example(name, ".toml"));
    const auto tws = make_file_puzzle(example(name, ".tws"));
    ASSERT_TRUE(std::holds_alternative<GroupedStickers>(*toml)) << name;
    const auto& stickers = std::get<GroupedStickers>(*toml);
    const auto& pieces = std::get<Pieces>(*tws);
    ASSERT_EQ(stickers.rank_space(), pieces.rank_space()) << name;
    EXPECT_EQ(stickers.start(), pieces.start()) << name;
    const std::uint64_t step = pieces.rank_space() / 4999 + 1;
    for (std::uint64_t r = 0; r < pieces.rank_space(); r += step) {
      ASSERT_EQ(stickers.table_format({r}), pieces.format({r})) << name << " rank " << r;
      std::multiset<std::uint64_t> a, b;
      stickers.for_each_successor_rank(r, [&](std::uint64_t t) { a.insert(t); });
      pieces.for_each_successor_rank(r, [&](std::uint64_t t) { b.insert(t); });
      ASSERT_EQ(a, b) << name << " rank " << r;
    }
  }
}

TEST(TwinsLong, BigPairsWriteTheSameCsvBytes) {
  for (const char* name : {"skewb-free", "cube3-RU"}) expect_same_csv(name);
}

// What the CSV files write, --from of the sticker file reads: the farthest positions
// of cube2 in per-set notation start a run whose summary.csv names that start, and
// solve takes the per-set notation as it takes the stickers.
TEST(Twins, FromReadsThePerSetNotation) {
  const auto dir = fresh_dir("twins-from");
  const std::string cube2 = example("cube2", ".toml");
  ASSERT_EQ(run_statespace("analyze " + cube2 + " --quiet --out " + (dir / "a").string()).exit_code, 0);
  const std::string farthest = read_file(dir / "a/cube2/farthest.csv");
  const auto line = farthest.find('\n') + 1;
  const std::string position = farthest.substr(line + 3, farthest.find('\n', line) - line - 3);  // past "11,"
  ASSERT_TRUE(position.starts_with("CORNERS ")) << position;
  auto r = run_statespace("analyze " + cube2 + " --quiet --from \"" + position + "\" --out " + (dir / "b").string());
  ASSERT_EQ(r.exit_code, 0) << r.std_err;
  const std::string summary = read_file(dir / "b/summary.csv");
  EXPECT_NE(summary.find("\ncube2," + position + ",3674160,"), std::string::npos) << summary;
  // The same start as stickers: the same reports.
  const auto grouped = make_file_puzzle(cube2);
  const auto& p = std::get<GroupedStickers>(*grouped);
  const std::string stickers = p.format(p.parse(position));
  EXPECT_NE(stickers, position);
  EXPECT_EQ(p.table_format(p.parse(stickers)), position);
  r = run_statespace("analyze " + cube2 + " --quiet --from \"" + stickers + "\" --out " + (dir / "c").string());
  ASSERT_EQ(r.exit_code, 0) << r.std_err;
  for (const char* file : {"distribution.csv", "farthest.csv", "summary.csv"}) {
    EXPECT_EQ(read_file(dir / "b/cube2" / file), read_file(dir / "c/cube2" / file)) << file;
  }
  // An antipode is 11 moves from the goal in either notation; solve prints stickers.
  r = run_statespace("solve " + cube2 + " \"" + position + "\"");
  ASSERT_EQ(r.exit_code, 0) << r.std_err;
  EXPECT_TRUE(r.std_out.starts_with("cube2: 11 moves from " + stickers)) << r.std_out;
  // A per-set position no move reaches is refused in one line naming the reason.
  std::string twisted = position;
  twisted.back() = twisted.back() == '0' ? '1' : '0';
  r = run_statespace("solve " + cube2 + " \"" + twisted + "\"");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.std_err.find("the twists add up to"), std::string::npos) << r.std_err;
  EXPECT_EQ(std::count(r.std_err.begin(), r.std_err.end(), '\n'), 1) << r.std_err;
}

// format_tws writes what parse_tws reads back as the same definition: twists of a
// Move are listed by the place a piece leaves.
TEST(Twins, FormatTwsReadsBack) {
  for (const auto& name : kTwins) {
    const PieceDefinition d = read_tws(example(name, ".tws"));
    EXPECT_EQ(parse_tws("t.tws", format_tws(d, {"a comment", ""})).moves.size(), d.moves.size());
    const PieceDefinition back = parse_tws("t.tws", format_tws(d, {}));
    EXPECT_EQ(back.name, d.name);
    ASSERT_EQ(back.sets.size(), d.sets.size());
    for (std::size_t k = 0; k < d.sets.size(); ++k) {
      EXPECT_EQ(back.sets[k].name, d.sets[k].name);
      EXPECT_EQ(back.sets[k].size, d.sets[k].size);
      EXPECT_EQ(back.sets[k].orientations, d.sets[k].orientations);
    }
    EXPECT_EQ(back.solved, d.solved) << name;
    ASSERT_EQ(back.moves.size(), d.moves.size());
    for (std::size_t m = 0; m < d.moves.size(); ++m) {
      EXPECT_EQ(back.moves[m].name, d.moves[m].name);
      EXPECT_EQ(back.moves[m].transform, d.moves[m].transform) << name << " " << d.moves[m].name;
    }
  }
  // A twist that travels: the piece at place 1 goes to place 2 turned by 1.
  const PieceDefinition d{"t", {{"C", 2, 3}}, {{{0, 1}}, {{0, 0}}}, {{"X", {{{1, 0}}, {{0, 1}}}}}, {}, {}, {}, {}};
  const std::string text = format_tws(d, {});
  EXPECT_NE(text.find("Move X\nC\n2 1\n1 0\nEnd\n"), std::string::npos) << text;
  EXPECT_EQ(parse_tws("t.tws", text).moves[0].transform, d.moves[0].transform);
}

// The sets key names the grouping's sets; a file that names its sets runs on pieces
// even when each piece is one cell.
TEST(Twins, SetsKeyNamesThePieces) {
  const auto dir = fresh_dir("twins-sets");
  const std::string body =
      "kind = \"permutation\"\nstart = \"a b c d\"\nmetric = \"all-powers\"\n[moves]\nX = "
      "\"(1,2,3,4)\"\nY = \"(1,2)\"\n";
  const auto plain = testing::write_file(dir / "plain.toml", "name = \"plain\"\n" + body);
  EXPECT_TRUE(std::holds_alternative<CellPermutation>(*make_file_puzzle(plain.string())));
  const auto named = testing::write_file(dir / "named.toml", "name = \"named\"\nsets = [\"CARDS\"]\n" + body);
  const auto loaded = make_file_puzzle(named.string());
  ASSERT_TRUE(std::holds_alternative<GroupedStickers>(*loaded));
  const auto& p = std::get<GroupedStickers>(*loaded);
  EXPECT_EQ(p.rank_space(), 24u);
  EXPECT_EQ(p.table_format(p.goal()), "CARDS 1 2 3 4");
  EXPECT_EQ(p.format(p.goal()), "a b c d");
  EXPECT_EQ(p.parse("CARDS 2 1 3 4"), p.parse("b a c d"));
  // Unnamed sets: PIECES, or PIECES1, PIECES2, ... when there are several.
  const auto r = run_statespace("convert " + plain.string());
  ASSERT_EQ(r.exit_code, 0) << r.std_err;
  EXPECT_NE(r.std_out.find("\nName plain\n\nSet PIECES 4 1\n\nSolved\nPIECES\n1 2 3 4\nEnd\n\nMove X\nPIECES\n4 1 2 "
                           "3\nEnd\n\nMove Y\nPIECES\n2 1 3 4\nEnd\n"),
            std::string::npos)
      << r.std_out;
}

// A file in the quarter metric converts to its generators, which --metric quarter
// expands again into the file's moves: the same CSV bytes.
TEST(Twins, QuarterMetricFileConvertsToItsGenerators) {
  const auto dir = fresh_dir("twins-quarter");
  const std::string toml = example("cube2-quarter", ".toml"), tws = (dir / "cube2-quarter.tws").string();
  auto r = run_statespace("convert " + toml + " --out " + tws);
  ASSERT_EQ(r.exit_code, 0) << r.std_err;
  const std::string text = read_file(tws);
  EXPECT_NE(text.find("analyze this file with --metric quarter"), std::string::npos) << text;
  EXPECT_NE(text.find("\nSet CORNERS 7 3\n"), std::string::npos) << text;
  std::string moves;
  for (auto at = text.find("\nMove "); at != std::string::npos; at = text.find("\nMove ", at + 1)) {
    moves += text.substr(at + 6, text.find('\n', at + 1) - at - 6) + " ";
  }
  EXPECT_EQ(moves, "F R U ");
  ASSERT_EQ(run_statespace("analyze " + toml + " --quiet --out " + (dir / "toml").string()).exit_code, 0);
  r = run_statespace("analyze " + tws + " --metric quarter --quiet --out " + (dir / "tws").string());
  ASSERT_EQ(r.exit_code, 0) << r.std_err;
  for (const char* file : {"distribution.csv", "farthest.csv"}) {
    EXPECT_EQ(read_file(dir / "toml/cube2-quarter" / file), read_file(dir / "tws/cube2-quarter" / file)) << file;
  }
  EXPECT_NE(read_file(dir / "tws/cube2-quarter/distribution.csv").find("\n14,276,3674160\n"), std::string::npos);
}

// Every refusal of convert and of the sets key: one line, exit code 2.
TEST(Twins, RefusalsInOneLine) {
  const auto dir = fresh_dir("twins-bad");
  const std::string moves = "kind = \"permutation\"\nstart = \"a b c d\"\n[moves]\nX = \"(1,2,3,4)\"\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"name = \"t\"\nsets = [\"A\", \"B\"]\n" + moves, "t.toml:2:8: 2 names for the 1 set of pieces"},
      {"name = \"t\"\nsets = \"A\"\n" + moves, "t.toml:2:8: sets must be an array of names"},
      {"name = \"t\"\nsets = [\"1A\"]\n" + moves, "t.toml:2:9: the set name '1A' does not start with a letter"},
      {"name = \"t\"\nsets = [\"End\"]\n" + moves, "t.toml:2:9: the set name 'End' is a keyword of the format"},
      {"name = \"t\"\nsets = [\"A/B\"]\n" + moves, "t.toml:2:9: the set name 'A/B' holds '/'"},
      {"name = \"t\"\nsets = [4]\n" + moves, "t.toml:2:9: a set name must be a string"},
      {"name = \"t\"\nsets = [\"A\"]\ngoal = \"a b c e\"\n" + moves,
       "t.toml:3:8: t: unknown label 'e' in cell 4"},  // the goal is checked first
      {"name = \"t\"\nsets = [\"A\"]\nkind = \"permutation\"\nstart = \"a b c d\"\ngoal = \"c b a d\"\n[moves]\n"
       "X = \"(1,2)\"\nY = \"(3,4)\"\n",
       "t.toml:2:8: sets names pieces, but the goal is no arrangement"},
  };
  for (const auto& [text, message] : cases) {
    const auto file = testing::write_file(dir / "t.toml", text);
    for (const std::string& command :
         {"analyze --quiet --out " + (dir / "out").string() + " ", std::string("convert ")}) {
      const auto r = run_statespace(command + file.string());
      EXPECT_EQ(r.exit_code, 2) << text << r.out;
      EXPECT_NE(r.std_err.find(message), std::string::npos) << text << "\n" << r.std_err;
      EXPECT_EQ(std::count(r.std_err.begin(), r.std_err.end(), '\n'), 1) << r.std_err;
    }
  }
  const auto ok = testing::write_file(dir / "ok.toml", "name = \"ok\"\n" + moves);
  const std::vector<std::pair<std::string, std::string>> commands = {
      {"convert " + example("klotski", ".toml"), "klotski.toml:3:9: kind 'blocks': convert writes the pieces of"},
      {"convert " + example("cube2", ".tws"), "is not a puzzle file (expected a permutation file ending in .toml)"},
      {"convert " + ok.string() + " --out " + (dir / "x.toml").string(), "(expected a file name ending in .tws)"},
      {"convert", "convert: missing FILE.toml"},
      {"convert " + (dir / "missing.toml").string(), "missing.toml"},
  };
  for (const auto& [command, message] : commands) {
    const auto r = run_statespace(command);
    EXPECT_EQ(r.exit_code, 2) << command << r.out;
    EXPECT_NE(r.std_err.find(message), std::string::npos) << command << "\n" << r.std_err;
    EXPECT_EQ(std::count(r.std_err.begin(), r.std_err.end(), '\n'), 1) << r.std_err;
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "x.toml"));
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

}  // namespace
}  // namespace statespace
