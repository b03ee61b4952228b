// The statespace binary end to end: report files and their contents, identical
// bytes for any --threads, solve output, and one line + exit 2 for bad input.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_util.hpp"

namespace statespace {
namespace {

using testing::fresh_dir;
using testing::read_file;
using testing::run_statespace;

TEST(Cli, AnalyzeNoOffWritesEveryReport) {
  const auto dir = fresh_dir("nooff");
  const auto r = run_statespace("analyze nooff --quiet --out " + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out, "");
  const auto folder = dir / "nooff";
  EXPECT_EQ(read_file(folder / "farthest.csv"),
            "distance,position\n56,N O L L / F O F _\n56,O F L L / N O F _\n56,F N L L / O O F _\n");
  const auto dist = read_file(folder / "distribution.csv");
  EXPECT_TRUE(dist.starts_with("depth,count,cumulative\n0,1,1\n1,2,3\n2,3,6\n")) << dist;
  EXPECT_TRUE(dist.ends_with("56,3,540\n")) << dist;
  const auto json = nlohmann::json::parse(read_file(folder / "summary.json"));
  EXPECT_EQ(json["puzzle"], "nooff");
  EXPECT_EQ(json["start"], "L L N O / O F F _");
  EXPECT_EQ(json["states"], 540);
  EXPECT_EQ(json["eccentricity"], 56);
  EXPECT_EQ(json["farthest_count"], 3);
  EXPECT_EQ(json["engine"], "explicit");
  EXPECT_TRUE(json["run"].contains("seconds"));
  EXPECT_TRUE(json["run"].contains("peak_bytes"));
  EXPECT_TRUE(json.contains("statespace_version"));
  const auto dot = read_file(folder / "graph.dot");
  EXPECT_TRUE(dot.starts_with("digraph G {\n")) << dot.substr(0, 100);
  EXPECT_NE(dot.find("[label=\"L L N O\\nO F F _\", depth=0]"), std::string::npos);
  EXPECT_NE(dot.find("{rank=same;"), std::string::npos);
  EXPECT_EQ(std::count(dot.begin(), dot.end(), '>'), 570);  // each move drawn once
  const auto layers = read_file(folder / "layers.dot");
  EXPECT_NE(layers.find("d56 [label=\"depth 56\\n3 positions\"];"), std::string::npos) << layers;
  EXPECT_FALSE(std::filesystem::exists(dir / "summary.csv"));  // one puzzle: no batch tables
  for (const auto& e : std::filesystem::directory_iterator(folder)) {
    EXPECT_EQ(e.path().string().find(".tmp"), std::string::npos) << e.path();
  }
}

TEST(Cli, ReportsAreIdenticalForAnyThreadCount) {
  std::vector<std::string> runs;
  for (const char* threads : {"1", "2"}) {
    const auto dir = fresh_dir(std::string("threads") + threads);
    const auto r = run_statespace("analyze nooff hex6 oshidori tiles:3x3 tiles:2x3 --all-pairs --quiet --threads " +
                                  std::string(threads) + " --out " + dir.string());
    ASSERT_EQ(r.exit_code, 0) << r.out;
    std::string all;
    for (const char* puzzle : {"nooff", "hex6", "oshidori", "tiles-3x3", "tiles-2x3"}) {
      for (const char* file : {"distribution.csv", "farthest.csv", "layers.dot", "graph.dot"}) {
        if (std::filesystem::exists(dir / puzzle / file)) all += read_file(dir / puzzle / file);
      }
      auto json = nlohmann::json::parse(read_file(dir / puzzle / "summary.json"));
      EXPECT_EQ(json["run"]["threads"], std::stoi(threads));
      json.erase("run");  // seconds, memory and thread count are about the run, not the puzzle
      all += json.dump();
    }
    all += read_file(dir / "summary.csv") + read_file(dir / "summary.md");
    runs.push_back(all);
  }
  EXPECT_EQ(runs[0], runs[1]);
}

TEST(Cli, SeveralPuzzlesWriteSummaryTables) {
  const auto dir = fresh_dir("batch");
  const auto r = run_statespace("analyze nooff hex6 --out " + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("nooff"), std::string::npos);
  EXPECT_EQ(read_file(dir / "summary.csv"),
            "puzzle,start,states,edges,eccentricity,farthest,diameter,components\n"
            "nooff,L L N O / O F F _,540,570,56,3,,\n"
            "hex6,1 2 / 3 4 5 / 6 _,5040,8640,15,24,,\n");
  EXPECT_NE(read_file(dir / "summary.md").find("| hex6 | `1 2 / 3 4 5 / 6 _` | 5,040 | 8,640 | 15 | 24 |"),
            std::string::npos);
}

TEST(Cli, AnalyzeFromAnyStartWithDiameterAndComponents) {
  const auto dir = fresh_dir("from");
  const auto r = run_statespace("analyze hex6 --from \"1 5 / 2 6 3 / 4 _\" --components --quiet --out " + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto json = nlohmann::json::parse(read_file(dir / "hex6" / "summary.json"));
  EXPECT_EQ(json["start"], "1 5 / 2 6 3 / 4 _");
  EXPECT_EQ(json["states"], 5040);
  EXPECT_EQ(json["components"]["sizes"], nlohmann::json::array({5040}));
  const auto tiles = run_statespace("analyze tiles:2x3 --all-pairs --components --quiet --out " + dir.string());
  ASSERT_EQ(tiles.exit_code, 0) << tiles.out;
  const auto tj = nlohmann::json::parse(read_file(dir / "tiles-2x3" / "summary.json"));
  EXPECT_EQ(tj["components"]["sizes"], nlohmann::json::array({360, 360}));
  EXPECT_EQ(tj["diameter"]["length"], 21);
  EXPECT_EQ(tj["diameter"]["method"], "blank-symmetry");
}

TEST(Cli, SolvePrintsBoardsAndCsv) {
  const auto r = run_statespace("solve nooff \"N O L L / F O F _\"");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(r.out.starts_with("nooff: 56 moves from N O L L / F O F _ to L L N O / O F F _")) << r.out;
  EXPECT_NE(r.out.find("step 0\nN O L L\nF O F _\n"), std::string::npos);
  EXPECT_NE(r.out.find("step 56\nL L N O\nO F F _\n"), std::string::npos);
  const auto csv = run_statespace("solve hex6 \"1 5 / 2 6 3 / 4 _\" --format csv");
  ASSERT_EQ(csv.exit_code, 0) << csv.out;
  EXPECT_TRUE(csv.out.starts_with("step,position\n0,1 5 / 2 6 3 / 4 _\n")) << csv.out;
  EXPECT_TRUE(csv.out.ends_with("11,1 2 / 3 4 5 / 6 _\n")) << csv.out;
  const auto other_goal = run_statespace("solve oshidori \"B W B W B W _ _\" --goal \"W W W B B B _ _\" --format csv");
  EXPECT_EQ(std::count(other_goal.out.begin(), other_goal.out.end(), '\n'), 6) << other_goal.out;  // header + 5 boards
}

TEST(Cli, SolveFifteenPuzzleFallsBackToHashedUnlessRankedIsAsked) {
  // The 15-puzzle's ranked set (16! bits and their prefix counts: 5.2 TB) fits no budget: by default --method
  // bfs uses the hash set, which holds only the states the search stores.
  const auto r =
      run_statespace("solve tiles:4x4 \"5 1 2 3 / 9 6 7 4 / 13 10 11 8 / _ 14 15 12\" --memory 1G --method bfs");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(
      r.out.starts_with("tiles:4x4: 9 moves from 5 1 2 3 / 9 6 7 4 / 13 10 11 8 / _ 14 15 12 to 1 2 3 4 / "
                        "5 6 7 8 / 9 10 11 12 / 13 14 15 _ (864 states stored)"))
      << r.out;
  const auto ranked =
      run_statespace("solve tiles:4x4 \"5 1 2 3 / 9 6 7 4 / 13 10 11 8 / _ 14 15 12\" --lookup ranked --method bfs");
  EXPECT_EQ(ranked.exit_code, 2) << ranked.out;
  EXPECT_NE(ranked.out.find("ranked visited set needs 5230697472000 bytes"), std::string::npos) << ranked.out;
}

// One line on stderr naming the problem, exit code 2, no report folder.
void expect_rejected(const std::string& args, const std::string& needle) {
  const auto dir = fresh_dir("bad");
  std::filesystem::remove_all(dir);
  const bool writes = args.starts_with("analyze");
  const auto r = run_statespace(args + (writes ? " --out " + dir.string() : ""));
  EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_NE(r.out.find(needle), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(dir)) << args;
}

TEST(Cli, BadInputIsOneLineAndExitCodeTwo) {
  expect_rejected("analyze chess", "unknown puzzle 'chess'");
  expect_rejected("analyze nooff hex6 tiles:9x9", "tiles:9x9");
  expect_rejected("analyze hex6 --from \"1 2 / 3 4 5 / 6 6\"", "appears twice");
  expect_rejected("analyze hex6 --from \"1 2 3 / 4 5 / 6 _\"", "row 1 has 3 cells, expected 2");
  expect_rejected("analyze nooff --from \"L L N O / O F F\"", "7 cells, expected 8");
  expect_rejected("analyze nooff hex6 --from \"1 2 / 3 4 5 / 6 _\"", "exactly one puzzle");
  expect_rejected("analyze nooff --frobnicate", "frobnicate");
  expect_rejected("analyze nooff --threads 0", "--threads");
  expect_rejected("analyze nooff --memory lots", "bad byte count 'lots'");
  expect_rejected("analyze tiles:3x4 --memory 1M", "--memory");
  expect_rejected("analyze", "at least one puzzle");
  expect_rejected("frobnicate", "unknown command 'frobnicate'");
  expect_rejected("solve tiles:3x3 \"2 1 3 / 4 5 6 / 7 8 _\"", "other parity class");
  expect_rejected("solve hex6", "position");
  expect_rejected("solve nooff \"L L N O / O F F _\" --format xml", "--format 'xml'");
}

TEST(Cli, HelpForEveryCommand) {
  for (const char* cmd : {"--help", "list --help", "analyze --help", "solve --help"}) {
    const auto r = run_statespace(cmd);
    EXPECT_EQ(r.exit_code, 0) << cmd;
    EXPECT_NE(r.out.find("Usage: statespace"), std::string::npos) << r.out;
  }
  const auto list = run_statespace("list");
  EXPECT_NE(list.out.find("nooff       001                   540  L L N O / O F F _"), std::string::npos) << list.out;
}

}  // namespace
}  // namespace statespace
