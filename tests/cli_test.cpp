// The statespace binary end to end: report files and their contents, identical
// bytes for any --threads, solve output, and one line + exit 2 for bad input.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "test_util.hpp"

namespace statespace {
namespace {

using testing::fresh_dir;
using testing::read_file;
using testing::run_statespace;

TEST(Cli, AnalyzeNoOffWritesEveryReport) {
  const auto dir = fresh_dir("nooff");
  const auto r = run_statespace("analyze nooff --quiet --dot-limit 600 --out " + dir.string());
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
  // One puzzle still gets the summary tables, so they never disagree with summary.json.
  EXPECT_EQ(read_file(dir / "summary.csv"),
            "puzzle,start,states,edges,eccentricity,farthest,diameter,components,start_component\n"
            "nooff,L L N O / O F F _,540,570,56,3,,,\n");
  for (const auto& e : std::filesystem::directory_iterator(folder)) {
    EXPECT_EQ(e.path().string().find(".tmp"), std::string::npos) << e.path();
  }
}

// graph.dot as Graphviz lays it out (`dot -Tplain`): every depth on its own row, the
// start on top and each depth below the one before.
TEST(Cli, GraphDotIsRankedByDepthTopToBottom) {
  const auto dir = fresh_dir("dot-rank");
  const auto r = run_statespace("analyze nooff tiles:2x3 --dot-limit 600 --quiet --out " + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  for (const char* puzzle : {"nooff", "tiles-2x3"}) {
    const auto path = dir / puzzle / "graph.dot";
    const std::string dot = read_file(path);
    std::map<std::string, unsigned> depth;  // node id -> depth, from the node lines
    std::istringstream lines(dot);
    for (std::string line; std::getline(lines, line);) {
      const auto at = line.find("\", depth=");
      if (at != std::string::npos) depth[line.substr(0, line.find('['))] = unsigned(std::stoul(line.substr(at + 9)));
    }
    FILE* pipe = popen(("dot -Tplain " + path.string()).c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string plain;
    std::array<char, 4096> buf{};
    for (std::size_t n; (n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0;) plain.append(buf.data(), n);
    ASSERT_EQ(pclose(pipe), 0) << "dot -Tplain failed (apt-get install graphviz)";
    std::map<unsigned, std::set<double>> rows;  // depth -> the y of its nodes (y grows upwards)
    std::istringstream layout(plain);
    for (std::string kind, id; layout >> kind;) {
      if (kind == "node") {
        double x = 0, y = 0;
        layout >> id >> x >> y;
        ASSERT_TRUE(depth.count(id)) << id;
        rows[depth[id]].insert(y);
      }
      layout.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
    }
    ASSERT_EQ(rows.size(), std::string(puzzle) == "nooff" ? 57u : 22u) << puzzle;
    for (const auto& [d, ys] : rows) {
      EXPECT_EQ(ys.size(), 1u) << puzzle << " depth " << d << " spans several rows";
      if (d > 0) {
        EXPECT_LT(*ys.begin(), *rows[d - 1].begin()) << puzzle << " depth " << d << " not below " << d - 1;
      }
    }
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
            "puzzle,start,states,edges,eccentricity,farthest,diameter,components,start_component\n"
            "nooff,L L N O / O F F _,540,570,56,3,,,\n"
            "hex6,1 2 / 3 4 5 / 6 _,5040,8640,15,24,,,\n");
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
  EXPECT_EQ(tj["components"]["start"], 360);
  EXPECT_NE(read_file(dir / "summary.csv").find(",360 360,360\n"), std::string::npos);
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
  EXPECT_NE(ranked.out.find("ranked visited set needs 5,230,697,472,000 bytes"), std::string::npos) << ranked.out;
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
  expect_rejected("solve hex6", "missing POSITION");
  expect_rejected("solve nooff \"L L N O / O F F _\" --format xml", "--format 'xml'");
}

// Every refusal the first minutes of use can hit: exit code 2, one line naming the
// problem, and nothing written, neither reports nor checkpoints. OUT and CK stand for
// fresh paths that must not exist afterwards; FILE for an existing regular file.
TEST(Cli, RefusedBeforeAnyWorkWithNothingWritten) {
  const auto root = fresh_dir("refused");
  const auto file = root / "a-file";
  std::ofstream(file) << "x";
  std::filesystem::create_directories(root / "batch");
  std::ofstream(root / "batch" / "hex6") << "x";  // a multi-puzzle run's second destination
  const std::string long_name(100'000, 'x');
  const std::string far_3x4 = "\"_ 3 2 1 / 8 7 6 5 / 4 11 10 9\"";  // 53 moves, farthest from the goal
  struct Case {
    std::string args;
    std::string word;
  };
  const std::vector<Case> cases = {
      {"analyze nooff --out /proc/statespace-out", "--out '/proc/statespace-"},
      {"analyze nooff --out /dev/full", "cannot write to --out '/dev/full'"},
      {"analyze nooff --out @FILE", "cannot write to --out"},
      {"analyze nooff --out \"\"", "empty --out"},
      {"analyze nooff hex6 --out @BATCH", "hex6"},
      {"analyze tiles:2x3 --out @OUT --checkpoint @FILE", "--checkpoint"},
      {"analyze tiles:2x3 --out @OUT --checkpoint /proc/statespace-ck", "--checkpoint"},
      {"analyze tiles:2x3 --out @OUT --checkpoint \"\"", "empty --checkpoint"},
      {"analyze tiles:2x3 --out @OUT --resume \"\"", "empty --resume"},
      {"analyze tiles:2x3 --out @OUT --resume @CK", "checkpoint"},
      {"analyze tiles:2x3 --out @OUT --checkpoint-every 5", "--checkpoint-every needs --checkpoint"},
      {"analyze tiles:2x3 --out @OUT --checkpoint @CK --checkpoint-every -5", "bad --checkpoint-every '-5'"},
      {"analyze tiles:2x3 --out @OUT --checkpoint @CK --checkpoint-every nan", "bad --checkpoint-every 'nan'"},
      {"analyze nooff --out @OUT --dot-limit -1", "bad --dot-limit '-1'"},
      {"analyze nooff --out @OUT --dot-limit 1.5", "bad --dot-limit '1.5'"},
      {"analyze nooff --out @OUT --all-pairs-limit -1", "bad --all-pairs-limit '-1'"},
      {"analyze nooff nooff --out @OUT", "'nooff' is named twice"},
      {"analyze --all nooff --out @OUT", "--all includes"},
      {"analyze hex6 --out @OUT --from \"1 5 / 2 6 3 / 4 _\" --goal \"1 2 / 3 4 5 / 6 _\"", "--from and --goal"},
      {"analyze hex6 --out @OUT --from \"\"", "empty --from"},
      {"analyze nooff --out @OUT --engine fast", "unknown --engine 'fast'"},
      {"analyze hex6 --out @OUT --engine implicit", "tiles:RxC puzzles only"},
      {"analyze tiles:3x4 --out @OUT --memory 40M", "implicit BFS needs 44,906,400 bytes"},
      {"analyze tiles:2x3 --out @OUT --lookup linear --comparisons-limit 10", "--comparisons-limit"},
      {"--threads", "--threads needs a value"},
      {"--threads 0 list", "bad --threads '0'"},
      {"solve", "missing PUZZLE"},
      {"solve hex6", "missing POSITION"},
      {"solve tiles:3x4 " + far_3x4 + " --lookup linear", "--comparisons-limit"},
      {"solve tiles:3x4 " + far_3x4 + " --memory 100M", "not known in advance"},
      {"analyze \"$(printf '\\033[31mred')\" --out @OUT", "'\\x1b[31mred'"},
      {"analyze " + long_name + " --out @OUT", "(100,000 characters)"},
  };
  for (const auto& c : cases) {
    const auto out = root / "out", checkpoint = root / "ck";
    std::string args = c.args;
    for (const auto& [token, path] : {std::pair<std::string, std::filesystem::path>{"@OUT", out},
                                      {"@CK", checkpoint},
                                      {"@FILE", file},
                                      {"@BATCH", root / "batch"}}) {
      for (auto at = args.find(token); at != std::string::npos; at = args.find(token)) {
        args.replace(at, token.size(), path.string());
      }
    }
    const auto r = run_statespace(args);
    const std::string shown = c.args.substr(0, 120);
    EXPECT_EQ(r.exit_code, 2) << shown << "\n" << r.out;
    EXPECT_EQ(r.std_out, "") << shown;
    const std::string error =
        r.std_err.substr(r.std_err.rfind("statespace: ") == std::string::npos ? 0 : r.std_err.rfind("statespace: "));
    EXPECT_EQ(std::count(error.begin(), error.end(), '\n'), 1) << shown << "\n" << r.out.substr(0, 600);
    EXPECT_LT(error.size(), 700u) << shown;
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << shown;
    EXPECT_NE(r.out.find(c.word), std::string::npos) << shown << "\n" << r.out.substr(0, 600);
    EXPECT_FALSE(std::filesystem::exists(out)) << shown;
    EXPECT_FALSE(std::filesystem::exists(checkpoint)) << shown;
    EXPECT_FALSE(std::filesystem::exists(root / "batch" / "nooff")) << shown;
    EXPECT_FALSE(std::filesystem::exists("/proc/statespace-out"));
    std::filesystem::remove_all(out);  // so that one failure does not repeat in every later case
    std::filesystem::remove_all(checkpoint);
  }
  EXPECT_EQ(read_file(file), "x");
}

// Checkpoints say when they are written and resumed, one line each, even in short runs.
TEST(Cli, CheckpointWrittenAndResumedLines) {
  const auto dir = fresh_dir("checkpoint-lines");
  const auto ck = (dir / "ck").string();
  const auto first = run_statespace("analyze tiles:2x3 --checkpoint " + ck + " --out " + (dir / "a").string());
  ASSERT_EQ(first.exit_code, 0) << first.out;
  EXPECT_NE(first.std_err.find("tiles:2x3 implicit bfs: checkpoint written: level 1 in " + ck), std::string::npos)
      << first.std_err;
  EXPECT_NE(first.std_err.find("checkpoint written: level 21 in " + ck), std::string::npos) << first.std_err;
  const auto resumed = run_statespace("analyze tiles:2x3 --resume " + ck + " --out " + (dir / "b").string());
  ASSERT_EQ(resumed.exit_code, 0) << resumed.out;
  EXPECT_NE(resumed.std_err.find("tiles:2x3 implicit bfs: resumed at level 21 from " + ck), std::string::npos)
      << resumed.std_err;
}

// A refusal for memory names a budget that is enough: the run it suggests succeeds.
TEST(Cli, MemorySuggestionIsEnough) {
  const auto dir = fresh_dir("memory");
  const auto refused = run_statespace("analyze tiles:3x3 --engine explicit --quiet --memory 1M --out " + dir.string());
  ASSERT_EQ(refused.exit_code, 2) << refused.out;
  const auto at = refused.out.find("e.g. --memory ");
  ASSERT_NE(at, std::string::npos) << refused.out;
  const std::string flag = refused.out.substr(at + 5, refused.out.find_first_of(",)", at) - at - 5);
  const auto accepted =
      run_statespace("analyze tiles:3x3 --engine explicit --quiet " + flag + " --out " + dir.string());
  EXPECT_EQ(accepted.exit_code, 0) << flag << "\n" << accepted.out;
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
