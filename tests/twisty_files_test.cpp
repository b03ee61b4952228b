// Twisty puzzles in twsearch's file format (tests/data/twisty, written from their
// geometry by make_twisty.py): the rotations of the whole puzzle a -rotations file
// adds are symmetries, not moves, so each gives its twin's distribution, the one
// twsearch prints for its own samples of these puzzles; the first levels of a space
// too large to finish (the 3x3x3 on 128-bit words, against cube20.org's counts), and
// --max-depth against the full run of the 2x2x2.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>

#include "analysis/analyze.hpp"
#include "analysis/engines/levels/analyze_levels.hpp"
#include "analysis/engines/levels/sorted_levels.hpp"
#include "analysis/pipeline/analyze_records.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"
#include "core/errors.hpp"
#include "puzzles/tws_file.hpp"
#include "reports/summary_json.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

std::filesystem::path sample(const std::string& name) {
  return std::filesystem::path(STATESPACE_SOURCE_DIR) / "tests/data/twisty" / (name + ".tws");
}

std::vector<std::uint64_t> distribution(const std::string& name) {
  AnalyzeOptions o;
  o.progress = false;
  return analyze_levels(load_tws(sample(name)), o).layers;
}

// Positions at distances 0 to `depth`, by a plain breadth-first search over ranks.
std::vector<std::uint64_t> first_levels(const Pieces& p, int depth) {
  std::set<std::uint64_t> seen{p.start().rank};
  std::vector<std::uint64_t> frontier{p.start().rank}, layers{1};
  for (int d = 0; d < depth; ++d) {
    std::vector<std::uint64_t> next;
    for (const auto r : frontier) {
      p.for_each_successor_rank(r, [&](std::uint64_t s) {
        if (seen.insert(s).second) next.push_back(s);
      });
    }
    layers.push_back(next.size());
    frontier = std::move(next);
  }
  return layers;
}

TEST(TwistyFiles, RotationNamesFollowTwsearch) {
  for (const char* name : {"x", "y", "z", "x2", "y'", "z2", "Fv", "DFRv", "BLv", "_v", "U_Dv", "FVv"}) {
    EXPECT_TRUE(is_rotation_name(name)) << name;
  }
  for (const char* name : {"", "X", "w", "x3", "x2'", "xv", "v", "F", "R'", "Fv2", "Fv'", "fv", "Rw", "2Fv", "Fvv"}) {
    EXPECT_FALSE(is_rotation_name(name)) << name;
  }
}

TEST(TwistyFiles, RotationsAreReadApartFromMoves) {
  const PieceDefinition d = read_tws(sample("cube2-rotations"));
  std::vector<std::string> moves, rotations;
  for (const auto& m : d.moves) moves.push_back(m.name);
  for (const auto& r : d.rotations) rotations.push_back(r.name);
  EXPECT_EQ(moves, (std::vector<std::string>{"U", "D", "F", "B", "R", "L"}));
  EXPECT_EQ(rotations, (std::vector<std::string>{"Uv", "Dv", "Fv", "Bv", "Rv", "Lv"}));
  // convert's .tws text writes the rotations back as rotations.
  const PieceDefinition again = parse_tws("again.tws", format_tws(d, {}));
  ASSERT_EQ(again.rotations.size(), d.rotations.size());
  for (std::size_t i = 0; i < d.rotations.size(); ++i) {
    EXPECT_EQ(again.rotations[i].name, d.rotations[i].name);
    EXPECT_EQ(again.rotations[i].transform, d.rotations[i].transform);
  }
  EXPECT_EQ(again.moves.size(), 6u);
  // A rotation is no move to choose.
  try {
    (void)Pieces(d, PieceMetric::all_powers, {"F", "Fv"});
    ADD_FAILURE() << "a rotation chosen as a move";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("'Fv' turns the whole puzzle: a symmetry, not a move"), std::string::npos)
        << e.what();
  }
  // A file of rotations alone has no moves.
  const std::string only = "Set C 2 1\nSolved\nC\n1 2\nEnd\nMove x\nC\n2 1\nEnd\n";
  EXPECT_THROW((void)parse_tws("t.tws", only), ParseError);
}

// twsearch's counts for its samples of the same puzzles: 18 positions at distance 1
// of the 2x2x2 with its 8 corners, 96 positions of the pyramorphix, the skewb
// diamond's and the Jing pyraminx's levels; each -rotations file equals its twin.
TEST(TwistyFiles, SymmFilesGiveTheirTwinsDistributions) {
  const auto cube = first_levels(load_tws(sample("cube2-rotations")), 3);
  EXPECT_EQ(cube[1], 18u);
  EXPECT_EQ(cube, first_levels(load_tws(sample("cube2")), 3));

  const auto pyramorphix = distribution("pyramorphix-rotations");
  EXPECT_EQ(std::accumulate(pyramorphix.begin(), pyramorphix.end(), std::uint64_t{0}), 96u);
  EXPECT_EQ(pyramorphix, distribution("pyramorphix"));
  const auto skewb = distribution("skewb-diamond-rotations");
  EXPECT_EQ(skewb, distribution("skewb-diamond"));
  EXPECT_EQ(skewb, (std::vector<std::uint64_t>{1, 16, 208, 2280, 18795, 104856, 433752, 897588, 198564, 2640, 180}));
  // The Jing pyraminx's 44,789,760 positions take a minute: its first levels here.
  const auto jing = first_levels(load_tws(sample("jing-pyraminx-rotations")), 5);
  EXPECT_EQ(jing, first_levels(load_tws(sample("jing-pyraminx")), 5));
  EXPECT_EQ(jing, (std::vector<std::uint64_t>{1, 16, 208, 2280, 19683, 123840}));
}

// MoveSequence: a move made of moves, rotations and other sequences, with powers, in
// any order of definition; a rotation turning a face move gives a face move again.
// MoveAlias names no move. A sequence naming nothing is refused with its position.
TEST(TwistyFiles, MoveSequencesAndAliases) {
  const std::string cube = testing::read_file(sample("cube2-rotations"));
  const PieceDefinition d = parse_tws("t.tws", cube +
                                                   "MoveSequence P Q2 Q2\nMoveSequence Q Fv' L Fv\nMoveAlias Left L\n"
                                                   "MoveSequence x Uv2 Uv'\n");
  ASSERT_EQ(d.moves.size(), 8u);
  EXPECT_EQ(d.moves[6].name, "P");
  EXPECT_EQ(d.moves[7].name, "Q");
  EXPECT_EQ(d.moves[6].transform, pieces_detail::identity_transform(d));
  const Pieces all(d, PieceMetric::all_powers);
  int equal = 0;
  for (const auto& m : all.moves()) equal += m.transform == d.moves[7].transform;
  EXPECT_EQ(equal, 1);  // Q is a quarter turn of some face
  ASSERT_EQ(d.rotations.size(), 7u);
  EXPECT_EQ(d.rotations.back().name, "x");
  EXPECT_EQ(d.rotations.back().transform, d.rotations.front().transform);  // Uv2 Uv' = Uv

  // The line after the file's last.
  const std::string at = "t.tws:" + std::to_string(std::count(cube.begin(), cube.end(), '\n') + 1) + ":";
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"MoveSequence Q F Z2\n", at + "18: 'Z2' in Q is no move, rotation or sequence of the file"},
      {"MoveSequence Q P\nMoveSequence P Q\n", at + "16: 'P' in Q is no move"},
      {"MoveSequence F B\n", at + "14: move F defined twice"},
      {"MoveAlias A\n", at + "1: 'MoveAlias' takes 2 words"},
  };
  for (const auto& [text, message] : bad) {
    try {
      (void)parse_tws("t.tws", cube + text);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const ParseError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << text << "\n" << e.what();
    }
  }
}

// The half-turn metric's first levels (cube20.org), on the 128-bit words of a
// definition that does not rank below 2^64.
TEST(TwistyFiles, CubeFirstLevelsOnWideWords) {
  const auto model = load_tws_model(sample("cube3"));
  ASSERT_TRUE(std::holds_alternative<WidePieces>(model));
  const auto& cube = std::get<WidePieces>(model);
  EXPECT_EQ(cube.max_moves(), 18);
  // 12 edges of 5 bits from the top of the high half, 8 corners of 5 in the low.
  EXPECT_EQ(cube.wide_packing(cube.start())->word_bits(), 128);
  AnalyzeOptions o;
  o.progress = false;
  o.max_depth = 5;
  const AnalysisResult r = analyze_levels(cube, o);
  EXPECT_EQ(r.layers, (std::vector<std::uint64_t>{1, 18, 243, 3240, 43239, 574908}));
  EXPECT_FALSE(r.complete);
  EXPECT_FALSE(r.gives(kViewEdges));
  ASSERT_EQ(r.farthest.size(), 574908u);
  EXPECT_TRUE(std::is_sorted(r.farthest.begin(), r.farthest.end(),
                             [&](const auto& a, const auto& b) { return cube.parse(a) < cube.parse(b); }));
  // Positions read back to themselves, and a move of a position at depth 5 lies
  // within one of it.
  const auto far = cube.parse(r.farthest.front());
  EXPECT_EQ(cube.format(far), r.farthest.front());
  int moves = 0;
  cube.for_each_successor(far, [&](const WidePieceState& s) {
    EXPECT_EQ(cube.move_name(far, s), cube.moves()[std::size_t(moves)].name);
    ++moves;
  });
  EXPECT_EQ(moves, 18);
  // Each move undone by its inverse: the 18 moves closed under inverses.
  EXPECT_FALSE(cube.directed());
  // A depth past which the search stops of itself: the pyramorphix's 96 whole.
  o.max_depth = 50;
  const auto whole = analyze_levels(WidePieces(read_tws(sample("pyramorphix")), PieceMetric::all_powers), o);
  EXPECT_TRUE(whole.complete);
  EXPECT_EQ(whole.layers, distribution("pyramorphix"));
}

// A level made in passes, each the words of one range of top bits, is the level
// made at once: the 3x3x3 to depth 5 and the 4x4x4 to depth 3 in up to 64 passes
// (passes of at most 1,000 words) against one, word for word; and each pass's
// successors (successors_within) are the whole successors' in its range.
TEST(TwistyFiles, WideLevelsInPassesEqualOnePass) {
  const auto in_passes = [](const auto& cube, unsigned depth, std::uint64_t pass_words) {
    const auto packing = cube.wide_packing(cube.start());
    SortedLevelsMode mode;
    mode.max_depth = depth;
    mode.pass_words = pass_words;
    return sorted_levels_bfs(
        *packing, {packing->pack(cube.start())}, cube.name(), MemoryBudget(), nullptr, [](std::size_t, const auto&) {},
        mode);
  };
  const auto cube3 = std::get<WidePieces>(load_tws_model(sample("cube3")));
  const auto whole3 = in_passes(cube3, 5, std::uint64_t{1} << 40);
  const auto passes3 = in_passes(cube3, 5, 1000);
  EXPECT_EQ(whole3.layers, (std::vector<std::uint64_t>{1, 18, 243, 3240, 43239, 574908}));
  EXPECT_EQ(passes3.layers, whole3.layers);
  EXPECT_EQ(passes3.successors, whole3.successors);
  EXPECT_TRUE(passes3.farthest == whole3.farthest);
  EXPECT_TRUE(std::is_sorted(whole3.farthest.begin(), whole3.farthest.end()));
  const auto cube4 = std::get<WidePieces256>(load_tws_model(sample("4x4x4obtm")));
  const auto whole4 = in_passes(cube4, 3, std::uint64_t{1} << 40);
  const auto passes4 = in_passes(cube4, 3, 1000);
  EXPECT_EQ(whole4.layers, (std::vector<std::uint64_t>{1, 36, 1026, 28146}));
  EXPECT_EQ(passes4.layers, whole4.layers);
  EXPECT_TRUE(passes4.farthest == whole4.farthest);

  const auto words = *cube3.wide_packing(cube3.start());
  std::vector<unsigned __int128> all(18), within(18);
  for (std::size_t i = 0; i < whole3.farthest.size(); i += 997) {
    const unsigned __int128 w = whole3.farthest[i];
    const int k = words.successors(w, all.data());
    for (int bits = 1; bits <= 6; ++bits) {
      std::multiset<unsigned __int128> seen;
      for (std::uint64_t high = 0; high < (std::uint64_t{1} << bits); ++high) {
        const int in = words.successors_within(w, within.data(), bits, high);
        for (int m = 0; m < in; ++m) {
          EXPECT_EQ(std::uint64_t(within[std::size_t(m)] >> (128 - bits)), high);
          seen.insert(within[std::size_t(m)]);
        }
      }
      EXPECT_TRUE(seen == std::multiset<unsigned __int128>(all.begin(), all.begin() + k)) << bits;
    }
  }
}

// Past 128 bits: the narrowest word of limbs that holds the places, and the first
// levels twsearch 0a8bfb07 prints for its own samples (tests/data/twisty/):
//   twsearch -t 1 -M 3000 -g 4x4x4obtm.tws   Dist 0-5: 1 36 1026 28146 754156 19740588
//   twsearch -t 1 -M 3000 -g megaminx.tws    Dist 0-4: 1 48 1536 43520 1180800
TEST(TwistyFiles, FirstLevelsPast128BitsMatchTwsearch) {
  AnalyzeOptions o;
  o.progress = false;
  const auto cube4 = load_tws_model(sample("4x4x4obtm"));
  ASSERT_TRUE(std::holds_alternative<WidePieces256>(cube4));
  const auto& cube = std::get<WidePieces256>(cube4);
  // 24 centres of 6 kinds (3 bits), 24 edges (5 bits) and 8 corners of 3 twists (5).
  EXPECT_EQ(cube.wide_packing(cube.start())->word_bits(), 256);
  o.max_depth = 3;
  const AnalysisResult r = analyze_levels(cube, o);
  EXPECT_EQ(r.layers, (std::vector<std::uint64_t>{1, 36, 1026, 28146}));
  EXPECT_FALSE(r.complete);
  ASSERT_EQ(r.farthest.size(), 28146u);
  EXPECT_TRUE(std::is_sorted(r.farthest.begin(), r.farthest.end(),
                             [&](const auto& a, const auto& b) { return cube.parse(a) < cube.parse(b); }));
  EXPECT_EQ(cube.format(cube.parse(r.farthest.back())), r.farthest.back());
  // Each move of a position at depth 3 leads within one of it, and back again.
  const auto far = cube.parse(r.farthest.front());
  int moves = 0;
  cube.for_each_successor(far, [&](const WidePieceState256& s) {
    EXPECT_NE(s, far);
    EXPECT_EQ(cube.move_name(far, s), cube.moves()[std::size_t(moves)].name);
    ++moves;
  });
  EXPECT_EQ(moves, 36);

  const auto mega = load_tws_model(sample("megaminx"));
  ASSERT_TRUE(std::holds_alternative<WidePieces512>(mega));
  // 30 edges of 2 twists and 20 corners of 3, 6 bits each: 10 fields a limb, 5 limbs.
  o.max_depth = 3;
  const AnalysisResult m = analyze_levels(std::get<WidePieces512>(mega), o);
  EXPECT_EQ(m.layers, (std::vector<std::uint64_t>{1, 48, 1536, 43520}));
  EXPECT_FALSE(m.complete);
}

// Past 512 bits: records of as many limbs as the places take (the 6x6x6's 96 centres
// of 6 kinds, 48 edges and 8 corners: 10 limbs), and the first levels twsearch
// 0a8bfb07 prints for its samples/main/6x6x6.tws (tests/data/twisty/):
//   twsearch -t 1 -M 2000 -g 6x6x6.tws   Dist 0-4: 1 54 2349 100668 4300416
TEST(TwistyFiles, FirstLevelsPast512BitsMatchTwsearch) {
  const auto cube = load_huge_tws(sample("6x6x6"));
  ASSERT_TRUE(cube.has_value());
  EXPECT_EQ(cube->limbs(), 10);
  AnalyzeOptions o;
  o.progress = false;
  o.max_depth = 3;
  const AnalysisResult r = analyze_huge_pieces(*cube, o);
  EXPECT_EQ(r.layers, (std::vector<std::uint64_t>{1, 54, 2349, 100668}));
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(r.engine, "levels");
  ASSERT_EQ(r.farthest.size(), 100668u);
  // In the order of the records, each read back as written.
  for (std::size_t i = 1; i < 2000; ++i) {
    EXPECT_LT(cube->parse(r.farthest[i - 1]), cube->parse(r.farthest[i]));
    EXPECT_EQ(cube->format(cube->parse(r.farthest[i]).data()), r.farthest[i]);
  }
  // The same levels and positions as the words of 256 and 512 bits give where
  // those hold the places: the 4x4x4 and the megaminx, their moves out of each level
  // too.
  const auto same_as_words = [&](const char* name, const auto& by_words) {
    const HugePieces records(read_tws(sample(name)), PieceMetric::all_powers);
    const AnalysisResult by_records = analyze_huge_pieces(records, o);
    EXPECT_EQ(by_records.layers, by_words.layers) << name;
    EXPECT_EQ(by_records.layer_edges, by_words.layer_edges) << name;
    EXPECT_EQ(by_records.farthest, by_words.farthest) << name;
    EXPECT_EQ(by_records.start, by_words.start) << name;
  };
  same_as_words("4x4x4obtm", analyze_levels(std::get<WidePieces256>(load_tws_model(sample("4x4x4obtm"))), o));
  same_as_words("megaminx", analyze_levels(std::get<WidePieces512>(load_tws_model(sample("megaminx"))), o));
  // Other commands refuse the file in one line saying what runs it.
  try {
    (void)load_tws_model(sample("6x6x6"));
    ADD_FAILURE() << "accepted";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find(":24:1: its positions do not rank below 2^64, and its places take 591 bits, "
                                         "past the 512 that solve, query and distance tables take: only `statespace "
                                         "analyze "),
              std::string::npos)
        << e.what();
  }
}

// The binary: analyze --max-depth writes the first levels of the 6x6x6 and says the
// space was not exhausted, the same bytes at 1 and 2 threads; solve refuses the file
// in one line, exit code 2, as does analyze --table.
TEST(TwistyFiles, PastAllWordsThroughTheCli) {
  const auto dir = testing::fresh_dir("huge-cli");
  const auto r = testing::run_statespace("--threads 1 analyze " + sample("6x6x6").string() +
                                         " --max-depth 2 --quiet --out " + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto two = testing::run_statespace("--threads 2 analyze " + sample("6x6x6").string() +
                                           " --max-depth 2 --quiet --out " + (dir / "two").string());
  ASSERT_EQ(two.exit_code, 0) << two.out;
  const AnalysisResult summary =
      reports::read_summary_json(testing::read_file(dir / "PuzzleGeometryPuzzle" / "summary.json"));
  EXPECT_EQ(summary.layers, (std::vector<std::uint64_t>{1, 54, 2349}));
  EXPECT_FALSE(summary.complete);
  const std::string farthest = testing::read_file(dir / "PuzzleGeometryPuzzle" / "farthest.csv");
  EXPECT_EQ(std::count(farthest.begin(), farthest.end(), '\n'), 2350) << farthest.substr(0, 200);
  EXPECT_EQ(farthest.find("PuzzleGeometryPuzzle"), std::string::npos);
  EXPECT_NE(farthest.find("CENTER "), std::string::npos);
  EXPECT_EQ(testing::read_file(dir / "two" / "PuzzleGeometryPuzzle" / "farthest.csv"), farthest);

  const auto solve = testing::run_statespace("solve " + sample("6x6x6").string() + " \"CENTER 1\"");
  EXPECT_EQ(solve.exit_code, 2);
  EXPECT_EQ(std::count(solve.out.begin(), solve.out.end(), '\n'), 1) << solve.out;
  EXPECT_NE(solve.out.find("only `statespace analyze"), std::string::npos) << solve.out;
  const auto table = testing::run_statespace("analyze " + sample("6x6x6").string() + " --max-depth 1 --table --out " +
                                             (dir / "t").string());
  EXPECT_EQ(table.exit_code, 2);
  EXPECT_EQ(std::count(table.out.begin(), table.out.end(), '\n'), 1) << table.out;
  EXPECT_NE(table.out.find("--table does not go with positions of 640 bits"), std::string::npos) << table.out;
  EXPECT_FALSE(std::filesystem::exists(dir / "t"));
}

// Files past both models (no ranks below 2^64, places past 512 bits: 60 fields of 13
// bits, four a limb, 15 limbs) are refused at their first Set line by every command
// but analyze, which runs them on records (load_huge_tws).
TEST(TwistyFiles, PastBothModelsIsOneLine) {
  std::string solved_places, moved_places = "2 1";
  for (int i = 1; i <= 60; ++i) solved_places += (i > 1 ? " " : "") + std::to_string(i);
  for (int i = 3; i <= 60; ++i) moved_places += " " + std::to_string(i);
  const std::string text =
      "Name t\nSet C 60 127\nSolved\nC\n" + solved_places + "\nEnd\nMove X\nC\n" + moved_places + "\nEnd\n";
  try {
    (void)load_tws_model("t.tws", text);
    ADD_FAILURE() << "accepted";
  } catch (const ParseError& e) {
    EXPECT_EQ(std::string(e.what()),
              "t.tws:2:1: its positions do not rank below 2^64, and its places take 948 bits, past the 512 that solve, "
              "query and distance tables take: only `statespace analyze t.tws --max-depth D` (or --partial) counts "
              "its first levels; expected a puzzle whose positions rank below 2^64 or whose places fit 512 bits");
  }
  // analyze runs it on records of 15 limbs: X swaps two pieces, and the space is
  // exhausted at depth 1, its one edge counted.
  AnalyzeOptions o;
  o.progress = false;
  const AnalysisResult swapped = analyze_huge_pieces(HugePieces(parse_tws("t.tws", text), PieceMetric::all_powers), o);
  EXPECT_TRUE(swapped.complete);
  EXPECT_EQ(swapped.layers, (std::vector<std::uint64_t>{1, 1}));
  EXPECT_EQ(swapped.edges, 1u);
  ASSERT_EQ(swapped.farthest.size(), 1u);
  EXPECT_TRUE(swapped.farthest[0].starts_with("C 2 1 3 4")) << swapped.farthest[0];
  // Seventeen sets are no reason to refuse a puzzle that ranks.
  std::string sets, solved, move;
  for (int k = 0; k < 17; ++k) {
    sets += "Set S" + std::to_string(k) + " 2 1\n";
    solved += "S" + std::to_string(k) + "\n1 2\n";
    move += "S" + std::to_string(k) + "\n2 1\n";
  }
  const auto model =
      load_tws_model("t.tws", "Name t\n" + sets + "Solved\n" + solved + "End\nMove X\n" + move + "End\n");
  ASSERT_TRUE(std::holds_alternative<Pieces>(model));
  EXPECT_EQ(first_levels(std::get<Pieces>(model), 2), (std::vector<std::uint64_t>{1, 1, 0}));
}

// --max-depth D gives the first D + 1 levels of the full run, the moves out of the
// levels before D, and the positions at D; --partial stops where the budget ends.
TEST(TwistyFiles, MaxDepthEqualsTheFirstLevelsOfTheFullRun) {
  const Pieces cube = load_tws(std::filesystem::path(STATESPACE_EXAMPLES) / "cube2.tws");
  AnalyzeOptions o;
  o.progress = false;
  const AnalysisResult full = analyze_levels(cube, o);
  ASSERT_EQ(full.layers.size(), 12u);
  o.max_depth = 6;
  const AnalysisResult first = analyze_levels(cube, o);
  EXPECT_FALSE(first.complete);
  EXPECT_EQ(first.layers, std::vector<std::uint64_t>(full.layers.begin(), full.layers.begin() + 7));
  std::vector<LayerEdges> before;
  for (const auto& e : full.layer_edges) {
    if (e.from < 6) before.push_back(e);
  }
  EXPECT_EQ(first.layer_edges, before);
  EXPECT_EQ(first.farthest.size(), full.layers[6]);
  EXPECT_EQ(first.farthest_count(), full.layers[6]);

  o.max_depth.reset();
  o.partial = true;
  o.memory = MemoryBudget(std::uint64_t{4} << 20);
  const AnalysisResult cut = analyze_levels(cube, o);
  EXPECT_FALSE(cut.complete);
  ASSERT_GT(cut.layers.size(), 3u);
  ASSERT_LT(cut.layers.size(), full.layers.size());
  EXPECT_EQ(cut.layers, std::vector<std::uint64_t>(full.layers.begin(), full.layers.begin() + cut.layers.size()));
}

// The command: summary.json says complete: false, the summary says it plainly, and
// engines that cannot stop at a depth are refused before any work.
TEST(TwistyFiles, AnalyzeMaxDepthWritesAnIncompleteReport) {
  const auto dir = testing::fresh_dir("twsearch_max_depth");
  const std::string cube = std::string(STATESPACE_EXAMPLES) + "/cube2.tws";
  const auto r = testing::run_statespace("analyze " + cube + " --max-depth 3 --out " + (dir / "out").string());
  ASSERT_EQ(r.exit_code, 0) << r.std_err;
  EXPECT_NE(r.std_out.find("cube2: NOT EXHAUSTED: the search stopped at depth 3; the counts are exact to there: 1, 9, "
                           "54, 321"),
            std::string::npos)
      << r.std_out;
  const auto summary = reports::read_summary_json(testing::read_file(dir / "out" / "cube2" / "summary.json"));
  EXPECT_FALSE(summary.complete);
  EXPECT_EQ(summary.layers, (std::vector<std::uint64_t>{1, 9, 54, 321}));
  EXPECT_EQ(summary.farthest.size(), 321u);
  EXPECT_EQ(summary.engine, "levels");
  const std::string text = testing::read_file(dir / "out" / "cube2" / "summary.json");
  EXPECT_NE(text.find("\"complete\": false"), std::string::npos);
  EXPECT_EQ(text.find("\"edges\":"), std::string::npos);

  const auto ranked =
      testing::run_statespace("analyze " + cube + " --max-depth 3 --engine ranked --out " + (dir / "other").string());
  EXPECT_EQ(ranked.exit_code, 2);
  EXPECT_NE(ranked.std_err.find("--max-depth and --partial run on the sorted-levels engine, not --engine ranked"),
            std::string::npos)
      << ranked.std_err;
  EXPECT_FALSE(std::filesystem::exists(dir / "other"));
}

}  // namespace
}  // namespace statespace
