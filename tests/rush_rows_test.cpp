// Rush Hour rows in Michael Fogleman's database format: read by content, each row a
// blocks puzzle whose fewest moves and reachable positions must equal the row's
// (rows of the database, and rows made by examples/rushhour/make_rows.py's own
// search); malformed rows refused with their line; convert both ways.
#include "puzzles/rush_rows.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "analysis/analyze.hpp"
#include "analysis/engines/cluster.hpp"
#include "analysis/engines/levels/analyze_levels.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"
#include "puzzles/puzzle_file.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

using testing::fresh_dir;
using testing::read_file;
using testing::run_statespace;
using testing::write_file;

const std::string kExamples = STATESPACE_EXAMPLES;  // examples/puzzles
const std::string kRows = kExamples + "/../rushhour/";

AnalyzeOptions quiet() {
  AnalyzeOptions o;
  o.progress = false;
  return o;
}

// Every row of the examples: the two database rows (Fogleman 2018) and our own.
TEST(RushRows, EveryExampleRowAgreesWithOurEngine) {
  for (const std::string f : {"fogleman.txt", "ours.txt"}) {
    const std::string path = kRows + f;
    const std::string text = read_file(path);
    ASSERT_TRUE(looks_like_rush_rows(text)) << f;
    const auto rows = read_rush_rows(path, text);
    ASSERT_GE(rows.size(), 2u);
    for (const auto& row : rows) {
      ASSERT_TRUE(row.error.empty()) << row.error;
      const Blocks b = load_rush_row(path, text, std::to_string(row.number));
      const AnalysisResult r = analyze_levels(b, quiet(), b.goal(), *b.packing(b.goal()));
      ASSERT_TRUE(r.goal) << row.board;
      EXPECT_EQ(r.goal->shortest, std::optional<unsigned>(unsigned(row.moves))) << row.board;
      EXPECT_EQ(r.states, row.cluster) << row.board;
      // The one-thread search `analyze --check` runs, on words and on states.
      const Cluster c = cluster_of(b, b.goal());
      EXPECT_EQ(c.shortest, r.goal->shortest) << row.board;
      EXPECT_EQ(c.positions, row.cluster) << row.board;
    }
  }
}

TEST(RushRows, TheHardestRowIsTheShippedBlocksFile) {
  const auto dir = fresh_dir("rush-convert");
  const std::string rows = kRows + "fogleman.txt";
  const auto toml = run_statespace("convert " + rows + ":1 --out " + (dir / "row.toml").string());
  ASSERT_EQ(toml.exit_code, 0) << toml.std_err;
  const auto back = run_statespace("convert " + (dir / "row.toml").string());
  EXPECT_EQ(back.exit_code, 0) << back.std_err;
  EXPECT_EQ(back.std_out, "60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 2332\n");
  const auto shipped = run_statespace("convert " + kExamples + "/rushhour-hardest.toml");
  EXPECT_EQ(shipped.std_out, back.std_out) << shipped.std_err;
}

TEST(RushRows, MalformedRowsAreRefusedWithTheirLineAndTheOthersRun) {
  const std::string text =
      "# rows\n"
      "60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 2332\n"
      "60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHH 2332\n"
      "6x IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 2332\n"
      "60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM\n"
      "60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHH? 2332\n"
      "60 IBBxooIooLDDJooLooJoKEEMFFKooMGGHHHM 2332\n"
      "60 IBBxooIooLDDJAAAooJoKEEMFFKooMGGHHHM 2332\n"
      "60 IBBxooIooLDDJAAoooJoKEEMFFKooMGGHHHM 2332\n"
      "60 IBBxooIoALDDJoALooJoKEEMFFKooMGGHHHM 2332\n"
      "58 BBoKMxDDDKMoIAALooIoJLEEooJFFNoGGoxN 9192\n";
  const auto rows = read_rush_rows("rush.txt", text);
  ASSERT_EQ(rows.size(), 10u);
  const std::vector<std::string> expected = {
      "",
      "rush.txt:3:4: row 2: a board of 35 characters",
      "rush.txt:4:1: row 3: bad moves '6x'",
      "rush.txt:5:40: row 4: 2 fields",
      "rush.txt:6:39: row 5: unexpected '?'",
      "rush.txt:7:4: row 6: no red car A",
      "rush.txt:8:17: row 7: the red car A is not two cells across the third row",
      "rush.txt:9:13: row 8: piece 'L' is not a car: 1 cells",
      "rush.txt:10:12: row 9: the red car A is not two cells across the third row",
      "",
  };
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (expected[i].empty()) {
      EXPECT_TRUE(rows[i].error.empty()) << rows[i].error;
    } else {
      EXPECT_EQ(rows[i].error.rfind(expected[i], 0), 0u) << rows[i].error << "\nexpected " << expected[i];
    }
  }
  const auto dir = fresh_dir("rush-bad");
  const auto path = write_file(dir / "rush.txt", text);
  const auto r = run_statespace("analyze " + path.string() + " --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.std_err.find("statespace: " + path.string() + ":3:4: row 2: a board of 35 characters"), std::string::npos)
      << r.std_err;
  EXPECT_NE(r.std_out.find("2 of 2 rows agree"), std::string::npos) << r.std_out;
  const auto one = run_statespace("solve " + path.string() + ":10 --format csv");
  EXPECT_EQ(one.exit_code, 0) << one.std_err;
  EXPECT_EQ(std::count(one.std_out.begin(), one.std_out.end(), '\n'), 1 + 58 + 1);
}

// Only the lines of the table, without the seconds column (the last field).
std::string without_seconds(const std::string& out) {
  std::string kept;
  for (std::size_t at = 0; at < out.size();) {
    const std::size_t end = std::min(out.find('\n', at), out.size());
    std::string line = out.substr(at, end - at);
    at = end + 1;
    if (line.find(" rows agree ") != std::string::npos) {
      line = line.substr(0, line.find(" ("));
    } else if (const std::size_t last = line.find_last_of(' '); last != std::string::npos) {
      line = line.substr(0, last);
    }
    kept += line + "\n";
  }
  return kept;
}

TEST(RushRows, CheckFindsTheRowsThatDisagreeAndWritesNothing) {
  const std::string good =
      "60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 2332\n"
      "58 BBoKMxDDDKMoIAALooIoJLEEooJFFNoGGoxN 9192\n"
      "8 MEDDNNMEIIBBJAAooLJoFFFLJHOGCCoHOGKK 319\n";
  const auto dir = fresh_dir("rush-check");
  const auto rows = write_file(dir / "rows.txt", good);
  const auto one = run_statespace("--threads 1 analyze " + rows.string() + " --check");
  const auto two = run_statespace("--threads 2 analyze " + rows.string() + " --check");
  EXPECT_EQ(one.exit_code, 0) << one.std_err;
  EXPECT_EQ(two.exit_code, 0) << two.std_err;
  EXPECT_EQ(std::count(one.std_out.begin(), one.std_out.end(), '\n'), 1 + 3 + 1) << one.std_out;
  EXPECT_NE(one.std_out.find("3 of 3 rows agree in moves and cluster size ("), std::string::npos) << one.std_out;
  EXPECT_NE(
      one.std_out.find("     2  BBoKMxDDDKMoIAALooIoJLEEooJFFNoGGoxN       58     9,192      58     9,192    yes"),
      std::string::npos)
      << one.std_out;
  EXPECT_EQ(without_seconds(one.std_out), without_seconds(two.std_out));
  // No report folder: nothing beside the rows.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()), 1);

  // One more move, one position fewer, and a refused row.
  const auto bad = write_file(dir / "bad.txt", good +
                                                   "61 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 2332\n"
                                                   "58 BBoKMxDDDKMoIAALooIoJLEEooJFFNoGGoxN 9191\n");
  const auto r = run_statespace("analyze " + bad.string() + " --check");
  EXPECT_EQ(r.exit_code, 1) << r.std_err;
  EXPECT_NE(r.std_out.find("     4  IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM       61     2,332      60     2,332     NO"),
            std::string::npos)
      << r.std_out;
  EXPECT_NE(r.std_out.find("     5  BBoKMxDDDKMoIAALooIoJLEEooJFFNoGGoxN       58     9,191      58     9,192     NO"),
            std::string::npos)
      << r.std_out;
  EXPECT_NE(r.std_out.find("\n3 of 5 rows agree in moves and cluster size ("), std::string::npos) << r.std_out;
  const auto quiet = run_statespace("analyze " + bad.string() + " --check -q");
  EXPECT_EQ(quiet.exit_code, 1);
  EXPECT_EQ(quiet.std_out.rfind("3 of 5 rows agree in moves and cluster size (", 0), 0u) << quiet.std_out;
  EXPECT_EQ(std::count(quiet.std_out.begin(), quiet.std_out.end(), '\n'), 1);

  const auto refused = write_file(dir / "refused.txt", good + "60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHH 2332\n");
  const auto with_refused = run_statespace("analyze " + refused.string() + " --check");
  EXPECT_EQ(with_refused.exit_code, 2);
  EXPECT_NE(with_refused.std_err.find(":4:4: row 4: a board of 35 characters"), std::string::npos)
      << with_refused.std_err;
  EXPECT_NE(with_refused.std_out.find("\n3 of 3 rows agree"), std::string::npos) << with_refused.std_out;

  // Options that write or analyse do not go with --check; nor does a file of something else.
  const auto out = run_statespace("analyze " + rows.string() + " --check --out " + (dir / "out").string());
  EXPECT_EQ(out.exit_code, 2);
  EXPECT_EQ(out.std_err,
            "statespace: analyze: --check writes no report and runs no analysis option; --out does not go with it\n");
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
  const auto toml = run_statespace("analyze " + kExamples + "/klotski.toml --check");
  EXPECT_EQ(toml.exit_code, 2);
  EXPECT_NE(toml.std_err.find("is not a file of Rush Hour rows (expected lines MOVES BOARD CLUSTER"), std::string::npos)
      << toml.std_err;
}

}  // namespace
}  // namespace statespace
