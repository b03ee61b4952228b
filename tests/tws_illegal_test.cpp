// twsearch's Illegal lines and wildcard ('?') orientations in .tws files: read as
// twsearch reads them (readksolve.cpp, puzdef::legalstate), and searched as its
// sorting search does (god.cpp's doarraygod: a move whose result is illegal is not
// made). The counts below are twsearch's, at commit 0a8bfb07, each with its command:
// `-F` (arrays and sorting) where the file has Illegal lines, since twsearch's
// two-bit search ignores them and its canonical sequences skip positions reached
// only through a forbidden order of commuting moves.
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "analysis/engines/explicit/analyze_explicit.hpp"
#include "analysis/engines/levels/analyze_levels.hpp"
#include "analysis/engines/ranked/analyze_ranked.hpp"
#include "core/errors.hpp"
#include "puzzles/tws_file.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

std::filesystem::path sample(const std::string& name) {
  return std::filesystem::path(STATESPACE_SOURCE_DIR) / "tests/data/twisty" / (name + ".tws");
}

// The explicit, sorted-levels and ranked engines agree, field for field, at 1 and 2
// threads; returns the distribution.
std::vector<std::uint64_t> every_engine(const Pieces& p) {
  AnalyzeOptions o;
  o.progress = false;
  const AnalysisResult reference = analyze_explicit(p, o).result;
  const AnalysisResult levels = analyze_levels(p, o);
  EXPECT_EQ(levels.layers, reference.layers);
  EXPECT_EQ(levels.edges, reference.edges);
  EXPECT_EQ(levels.layer_edges, reference.layer_edges);
  for (const int threads : {1, 2}) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
    o.threads = threads;
    const AnalysisResult r = analyze_ranked(p, o);
    EXPECT_EQ(r.layers, reference.layers) << threads;
    EXPECT_EQ(r.edges, reference.edges) << threads;
    EXPECT_EQ(r.layer_edges, reference.layer_edges) << threads;
    EXPECT_EQ(r.farthest, reference.farthest) << threads;
  }
  return reference.layers;
}

std::vector<std::uint64_t> first_levels(const TwsModel& model, unsigned depth) {
  AnalyzeOptions o;
  o.progress = false;
  o.max_depth = depth;
  return std::visit([&](const auto& p) { return analyze_levels(p, o).layers; }, model);
}

// twsearch's samples/main/squareone.tws: 24 slots of 30 degrees, a corner two slots
// (its second half piece 17), the slice barred while a corner straddles it.
const std::string kSquareOne = R"(Name Square1
Set SLICE 24 1
Set CENTER 1 2
Solved
SLICE
17 1 9 17 2 10 17 3 11 17 4 12 17 5 13 17 6 14 17 7 15 17 8 16
CENTER
1
End
Move U
SLICE
12 1 2 3 4 5 6 7 8 9 10 11 13 14 15 16 17 18 19 20 21 22 23 24
End
Move D
SLICE
1 2 3 4 5 6 7 8 9 10 11 12 24 13 14 15 16 17 18 19 20 21 22 23
End
Move S
SLICE
1 2 3 15 16 17 18 19 20 10 11 12 13 14 4 5 6 7 8 9 21 22 23 24
CENTER
1
1
End
Illegal SLICE 3 17
Illegal SLICE 9 17
Illegal SLICE 14 17
Illegal SLICE 20 17
)";

// twsearch's samples/symm/tezze.tws without its rotation Fv (a symmetry, no move).
const std::string kTezze = R"(Name Tezze
Set EDGES 11 1
Set CORNERS 10 3
Solved
End
Move R
EDGES
6 1 2 3 4 5 7 8 9 10 11
CORNERS
6 1 2 3 4 5 7 8 9 10
1 1 1 1 1 1 0 0 0 0
End
Move L
EDGES
7 2 3 4 5 6 8 9 10 11 1
CORNERS
2 7 3 4 5 6 8 9 10 1
1 1 0 0 0 0 1 1 1 1
End
Illegal EDGES 1 3
Illegal EDGES 1 10
Illegal EDGES 7 11 4
Illegal EDGES 2 11 4
Illegal EDGES 6 2 9
Illegal EDGES 11 2 9
)";

TEST(TwsIllegal, LinesAreReadAsTwsearchReadsThem) {
  const PieceDefinition d = parse_tws("tezze.tws", kTezze);
  ASSERT_EQ(d.illegal.size(), 10u);
  EXPECT_EQ(d.illegal[0], (PieceIllegal{0, 0, 2}));
  EXPECT_EQ(d.illegal[2], (PieceIllegal{0, 6, 10}));
  EXPECT_EQ(d.illegal[3], (PieceIllegal{0, 6, 3}));
  EXPECT_EQ(d.source.illegal_at, (std::pair{20, 1}));
  // convert's writer gives the same list back.
  EXPECT_EQ(parse_tws("again.tws", format_tws(d, {})).illegal, d.illegal);
  // A StartState numbers its pieces from 0, the Illegal line from 1, as twsearch does.
  const PieceDefinition s =
      parse_tws("t.tws", "Set C 3 1\nStartState\nC\n0 1 2\nEnd\nMove X\nC\n2 3 1\nEnd\nIllegal C 1 2\n");
  EXPECT_EQ(s.illegal, (std::vector<PieceIllegal>{{0, 0, 1}}));
}

// The tipless pyraminx's edges and axial U, where edge 2 may not stand at place 1,
// nor 5 or 6 at 3: twsearch -F -g -M 500 -t 1
// tests/data/twisty/pyraminx-tipless-illegal.tws gives 19,584 positions (without -F,
// its two-bit search gives the 34,560 of the file without its Illegal lines).
TEST(TwsIllegal, EveryEngineGivesTwsearchsDistribution) {
  const auto layers = every_engine(load_tws(sample("pyraminx-tipless-illegal")));
  EXPECT_EQ(layers, (std::vector<std::uint64_t>{1, 5, 21, 89, 355, 1357, 4212, 7937, 5250, 357}));
}

// Wildcards: edges 1 and 3 flip unseen, axial R turns unseen (a set all wild: one
// orientation). twsearch -g -M 500 -t 1 tests/data/twisty/pyraminx-tipless-wild.tws
// (and with -F) gives 17,280 positions.
TEST(TwsIllegal, WildcardsGiveTwsearchsDistribution) {
  const Pieces p = load_tws(sample("pyraminx-tipless-wild"));
  EXPECT_EQ(p.definition().sets[1].orientations, 1);
  const auto layers = every_engine(p);
  EXPECT_EQ(layers, (std::vector<std::uint64_t>{1, 8, 48, 286, 1598, 6334, 8129, 872, 4}));
  // A wild twist reads as 0; the 128-bit words give the same levels.
  EXPECT_EQ(p.parse("EDGES 1 2 3 4 5 6 / 1 0 1 0 0 0 / AXIAL_R 1 / AXIAL_U 1 / 0"), p.start());
  const WidePieces wide(read_tws(sample("pyraminx-tipless-wild")), PieceMetric::all_powers);
  AnalyzeOptions o;
  o.progress = false;
  EXPECT_EQ(analyze_levels(wide, o).layers, layers);
  EXPECT_EQ(wide.parse("EDGES 1 2 3 4 5 6 / 1 0 1 0 0 0 / AXIAL_R 1 / 2 / AXIAL_U 1 / 0"), wide.start());
  const WidePieces illegal(read_tws(sample("pyraminx-tipless-illegal")), PieceMetric::all_powers);
  EXPECT_EQ(analyze_levels(illegal, o).layers,
            (std::vector<std::uint64_t>{1, 5, 21, 89, 355, 1357, 4212, 7937, 5250, 357}));
}

// The samples too large to finish, against twsearch's first levels:
//   twsearch -F -g -M 1500 -t 1 squareone.tws (samples/main), depths 0-13 in 60 s;
//   twsearch -F -g -M 1500 -t 1 tezze.tws (samples/symm, Fv left out), depths 0-15.
// (Without -F, its canonical sequences print the same levels for these two.)
TEST(TwsIllegal, SamplesFirstLevels) {
  const auto square = load_tws_model("squareone.tws", kSquareOne);
  ASSERT_TRUE(std::holds_alternative<WidePieces>(square));
  EXPECT_EQ(first_levels(square, 7), (std::vector<std::uint64_t>{1, 15, 69, 212, 1141, 3933, 14029, 44188}));
  const auto tezze = load_tws_model("tezze.tws", kTezze);
  ASSERT_TRUE(std::holds_alternative<Pieces>(tezze));
  EXPECT_EQ(first_levels(tezze, 9), (std::vector<std::uint64_t>{1, 8, 28, 100, 326, 1046, 3214, 9350, 26824, 75158}));
}

// The Nautilus (twsearch's samples/main/nautilus.tws), written here from its shape: a
// ring of 72 slots, U turning slots 1-36 by one, D slots 37-72, S swapping slots 1-18
// with 55-72 (and flipping the centre). Pieces 1-14 stand at the first slot each
// takes, the other 58 slots hold piece 15 (the rest of a piece), which may not stand
// at slots 1, 19, 37 and 55: S turns only between whole pieces. Its fields take 289
// bits, and U's 36-cycle could leave a row of fillers in place, which the words once
// refused.
std::string nautilus() {
  const std::vector<int> heads = {1, 10, 12, 15, 19, 24, 30, 37, 44, 50, 55, 59, 62, 64};
  std::string solved, u, d, s;
  for (int i = 1; i <= 72; ++i) {
    const auto head = std::find(heads.begin(), heads.end(), i);
    solved += (head == heads.end() ? "15" : std::to_string(head - heads.begin() + 1)) + " ";
    u += std::to_string(i == 1 ? 36 : i <= 36 ? i - 1 : i) + " ";
    d += std::to_string(i == 37 ? 72 : i > 37 ? i - 1 : i) + " ";
    s += std::to_string(i <= 18 ? i + 54 : i >= 55 ? i - 54 : i) + " ";
  }
  return "Name Nautilus\nSet SLICE 72 1\nSet CENTER 1 2\nSolved\nSLICE\n" + solved + "\nCENTER\n1\nEnd\n" +
         "Move U\nSLICE\n" + u + "\nEnd\nMove D\nSLICE\n" + d + "\nEnd\nMove S\nSLICE\n" + s +
         "\nCENTER\n1\n1\nEnd\nIllegal SLICE 1 15\nIllegal SLICE 19 15\nIllegal SLICE 37 15\nIllegal SLICE 55 15\n";
}

// twsearch -F -g -t 1 nautilus.tws (samples/main): 4,032 positions in 28 moves; with
// --max-depth 7 its first levels.
TEST(TwsIllegal, NautilusGivesTwsearchsDistribution) {
  const auto model = load_tws_model("nautilus.tws", nautilus());
  ASSERT_TRUE(std::holds_alternative<WidePieces512>(model));
  EXPECT_EQ(first_levels(model, 7), (std::vector<std::uint64_t>{1, 7, 17, 44, 117, 229, 367, 354}));
  AnalyzeOptions o;
  o.progress = false;
  const WidePieces512& p = std::get<WidePieces512>(model);
  const AnalysisResult whole = analyze_levels(p, o);
  EXPECT_EQ(whole.layers,
            (std::vector<std::uint64_t>{1,   7,   17, 44, 117, 229, 367, 354, 356, 356, 280, 280, 254, 206,
                                        240, 156, 88, 72, 60,  52,  48,  48,  76,  100, 96,  64,  56,  8}));
  EXPECT_TRUE(whole.complete);
  // The explicit engine finds the same edges.
  const AnalysisResult reference = analyze_explicit(p, o).result;
  EXPECT_EQ(whole.layers, reference.layers);
  EXPECT_EQ(whole.edges, reference.edges);
  EXPECT_EQ(whole.layer_edges, reference.layer_edges);
}

// On the words a move may leave a position as it is (here X swaps two identical
// pieces of the solved state): the words take it, and their levels tell its
// self-loops from edges as the explicit engine does, at 1 and 2 threads.
TEST(TwsIllegal, WideWordsCountSelfLoops) {
  const PieceDefinition d = parse_tws("loops.tws",
                                      "Set A 5 2\nSolved\nA\n1 1 2 2 3\nEnd\nMove X\nA\n2 1 3 4 5\nEnd\n"
                                      "Move Y\nA\n1 3 2 4 5\n0 1 1 0 0\nEnd\nMove Z\nA\n1 2 3 5 4\nEnd\n");
  const WidePieces wide(d, PieceMetric::all_powers);
  const Pieces ranked(d, PieceMetric::all_powers);
  AnalyzeOptions o;
  o.progress = false;
  const AnalysisResult reference = analyze_explicit(ranked, o).result;
  for (const int threads : {1, 2}) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
    o.threads = threads;
    const AnalysisResult r = analyze_levels(wide, o);
    EXPECT_EQ(r.layers, reference.layers);
    EXPECT_EQ(r.edges, reference.edges);
    EXPECT_EQ(r.layer_edges, reference.layer_edges);
  }
  // At the solved state X swaps the two pieces 1: a self-loop.
  int loops = 0;
  wide.for_each_successor(wide.start(), [&](const WidePieceState& s) { loops += s == wide.start(); });
  EXPECT_EQ(loops, 1);
}

// Each move's image of a position, the Illegal lines checked on whole positions:
// unrank, move, check, rank, independently of the kernels' tables and flags.
std::vector<std::uint64_t> images_by_positions(const Pieces& p, std::uint64_t r, bool backward) {
  const PieceDefinition& d = p.definition();
  const auto& labels = p.tables().labels;
  const auto allowed = [&](const PiecePosition& x) {
    for (const PieceIllegal& rule : d.illegal) {
      const auto k = std::size_t(rule.set);
      if (labels[k][std::size_t(x.perm[k][std::size_t(rule.place)])] == std::to_string(rule.piece + 1)) return false;
    }
    return true;
  };
  const PiecePosition from = p.position(r);
  if (!allowed(from)) return {};
  std::vector<std::uint64_t> out;
  for (const PieceMove& m : p.moves()) {
    const PieceTransform t = backward ? pieces_detail::inverse_transform(d, m.transform) : m.transform;
    PiecePosition to = from;
    for (std::size_t k = 0; k < d.sets.size(); ++k) {
      for (std::size_t i = 0; i < to.perm[k].size(); ++i) {
        const auto at = std::size_t(t.perm[k][i]);
        to.perm[k][i] = from.perm[k][at];
        to.twist[k][i] = (from.twist[k][at] + t.twist[k][i]) % d.sets[k].orientations;
      }
    }
    if (allowed(to)) out.push_back(p.position_rank(to));
  }
  return out;
}

std::vector<std::uint64_t> successors(const Pieces& p, std::uint64_t r) {
  std::vector<std::uint64_t> out;
  p.for_each_successor_rank(r, [&](std::uint64_t s) { out.push_back(s); });
  return out;
}

// In ascending order: moves closed under inverses give them in the moves' order.
std::vector<std::uint64_t> predecessors(const Pieces& p, std::uint64_t r) {
  std::vector<std::uint64_t> out;
  p.for_each_predecessor(PieceState{r}, [&](const PieceState& s) { out.push_back(s.rank); });
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::uint64_t> sorted(std::vector<std::uint64_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// Illegal lines alone are checked inside the move kernels (Tables::guarded), never by
// unranking each successor: on the tipless pyraminx every coordinate keeps its table
// and the inlined path, with the check as a flag bit of the table entries; on tezze
// (11 edges and 10 corners, too many arrangements for tables) where each position's
// arrangements are unranked for the moves anyway. Either way the successors and
// predecessors equal those of whole positions moved and checked one by one: over the
// pyraminx's whole rank space (legal and forbidden ranks), and over 3,000 spread
// ranks and the first levels of tezze.
TEST(TwsIllegal, KernelsCheckIllegalLinesOnTheMovedArrangements) {
  const Pieces pyraminx = load_tws(sample("pyraminx-tipless-illegal"));
  const pieces_detail::Tables& small = pyraminx.tables();
  EXPECT_TRUE(small.guarded);
  EXPECT_EQ(small.tabled, small.coordinates.size());
  std::uint64_t forbidden = 0;
  for (std::uint64_t r = 0; r < pyraminx.rank_space(); ++r) {
    const auto forward = images_by_positions(pyraminx, r, false);
    ASSERT_EQ(successors(pyraminx, r), forward) << "rank " << r;
    ASSERT_EQ(predecessors(pyraminx, r), sorted(images_by_positions(pyraminx, r, true))) << "rank " << r;
    if (forward.empty()) ++forbidden;
  }
  // Edge 2 at place 1 (a sixth of the arrangements) or 5 or 6 at place 3 (a third),
  // 4 of 6 * 5 forbidden pairs overlapping: 1/6 + 1/3 - 1/15 of the ranks.
  EXPECT_EQ(forbidden * 30, pyraminx.rank_space() * 13);

  const Pieces tezze = load_tws("tezze.tws", kTezze);
  const pieces_detail::Tables& big = tezze.tables();
  EXPECT_TRUE(big.guarded);
  EXPECT_EQ(big.tabled, 0u);  // the edges' and corners' arrangements are unranked
  std::vector<std::uint64_t> ranks = {tezze.start().rank};
  for (std::size_t i = 0; i < 200; ++i) {
    for (const std::uint64_t s : successors(tezze, ranks[i])) ranks.push_back(s);
  }
  for (std::uint64_t i = 0; i < 3000; ++i) ranks.push_back(tezze.rank_space() / 3000 * i + i * 7919);
  std::uint64_t checked = 0;
  for (const std::uint64_t r : ranks) {
    const auto forward = images_by_positions(tezze, r, false);
    ASSERT_EQ(successors(tezze, r), forward) << "rank " << r;
    ASSERT_EQ(predecessors(tezze, r), sorted(images_by_positions(tezze, r, true))) << "rank " << r;
    if (!forward.empty()) ++checked;
  }
  EXPECT_GT(checked, 1000u);
}

// A position an Illegal line forbids does not parse; a move into one is no move (the
// moves' names still count every move).
TEST(TwsIllegal, ForbiddenPositionsAreNoPositions) {
  const Pieces p = load_tws(sample("pyraminx-tipless-illegal"));
  try {
    (void)p.parse("EDGES 2 1 3 4 5 6 / 0 0 0 0 0 0 / AXIAL_U 1 / 0");
    ADD_FAILURE() << "parsed";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("set EDGES: piece 2 at place 1, which an Illegal line of the file forbids"),
              std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(p.regular());
  int successors = 0;
  p.for_each_successor(p.start(), [&](const PieceState& s) {
    ++successors;
    EXPECT_NE(p.move_name(p.start(), s), "?");
  });
  EXPECT_EQ(successors, 5);  // of 8 moves
}

// Counting up to rotations keeps the rotations that map the Illegal places onto
// themselves: tezze's Fv turns place 6 into 7 and 2 into 11, pieces 2 and 9 into 11
// and 4, so its Illegal lines stay as they are. The classes are twsearch's
// (twsearch -F -g -t 1 --maxdepth 9 tezze.tws, samples/symm, with its reduction by
// inversion turned off, readksolve.cpp's caninvert = 0: "Rotation group size is 2",
// its "cnt" column),
// the same at 1 and 2 threads, and stand for the positions of the run without
// symmetry (its "scnt"), level by level.
TEST(TwsIllegal, RotationsThatFixTheIllegalPlacesAreKept) {
  const std::string fv = "Move Fv\nEDGES\n1 11 10 9 8 7 6 5 4 3 2\nCORNERS\n2 1 10 9 8 7 6 5 4 3\nEnd\n";
  Pieces p = load_tws("tezze.tws", kTezze + fv);
  EXPECT_EQ(p.use_rotations(), 2);
  EXPECT_EQ(p.symmetry_group(), "the 2 rotations the file's rotations generate (the start is symmetric)");
  AnalyzeOptions o;
  o.progress = false;
  o.max_depth = 9;
  std::vector<std::uint64_t> classes;
  for (const int threads : {1, 2}) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
    o.threads = threads;
    const AnalysisResult r = analyze_levels(p, o);
    EXPECT_EQ(r.layer_positions, (std::vector<std::uint64_t>{1, 8, 28, 100, 326, 1046, 3214, 9350, 26824, 75158}));
    if (classes.empty()) classes = r.layers;
    EXPECT_EQ(r.layers, classes) << threads;
  }
  EXPECT_EQ(classes, (std::vector<std::uint64_t>{1, 4, 14, 50, 163, 523, 1609, 4675, 13412, 37581}));

  // One more line that Fv does not map onto the others (piece 5 at place 3 would be
  // piece 8 at place 10): only the identity is left, refused at the first Illegal line.
  Pieces q = load_tws("tezze.tws", kTezze + "Illegal EDGES 3 5\n" + fv);
  try {
    (void)q.use_rotations();
    ADD_FAILURE() << "counted up to rotations";
  } catch (const ParseError& e) {
    EXPECT_EQ(std::string(e.what()),
              "tezze.tws:20:1: none of the 2 rotations the file's rotations generate but the identity maps its "
              "Illegal places onto themselves, so there is nothing to count up to (expected the positions counted "
              "one by one: --symmetry none)");
  }
}

// Malformed lines and wildcards where they mean nothing: one line each, at the word.
TEST(TwsIllegal, BadLinesAreRefusedAtTheirWord) {
  const std::string head = "Set C 3 2\nSet D 2 1\nSolved\nC\n1 2 2\n";
  const std::string moves = "Move X\nC\n2 3 1\nEnd\n";
  const std::vector<std::pair<std::string, std::string>> bad = {
      {head + "End\n" + moves + "Illegal C 1\n", "t.tws:11:11: 'Illegal' takes a set, a place and at least one piece"},
      {head + "End\n" + moves + "Illegal\n", "t.tws:11:1: 'Illegal' takes a set"},
      {head + "End\n" + moves + "Illegal E 1 2\n", "t.tws:11:9: unknown set 'E'"},
      {head + "End\n" + moves + "Illegal C 4 2\n",
       "t.tws:11:11: '4' is no place of set C; expected a place from 1 to 3"},
      {head + "End\n" + moves + "Illegal C 0 2\n", "t.tws:11:11: '0' is no place of set C"},
      {head + "End\n" + moves + "Illegal C 1 3\n", "t.tws:11:13: '3' is no piece of set C's solved state"},
      {head + "End\n" + moves + "Illegal C 1 x\n", "t.tws:11:13: 'x' is no piece of set C's solved state"},
      {head + "End\n" + moves + "Illegal C 2 1 2\n",
       "t.tws:11:15: the solved state holds piece 2 at place 2 of C, which this line forbids"},
      {"Set C 3 2\nIllegal C 1 2\n", "t.tws:2:1: 'Illegal' before the solved state"},
      {"Set C 3 2\nSolved\nC\n? 2 3\nEnd\n" + moves, "t.tws:4:1: a wildcard ('?') where it means nothing"},
      {head + "0 ? 0\nEnd\n" + moves,
       "t.tws:6:5: piece 2 of set C has a wildcard orientation at one place and '0' at another; expected '?' at every "
       "place of identical pieces or at none"},
      {"Set C 3 2\nSet D 2 1\nSolved\nD\n1 2\n? 0\nEnd\n" + moves,
       "t.tws:6:1: a wildcard ('?') where it means nothing"},
      {head + "End\nMove X\nC\n2 3 1\n? 0 0\nEnd\n", "t.tws:10:1: a wildcard ('?') where it means nothing"},
  };
  for (const auto& [text, message] : bad) {
    try {
      (void)load_tws("t.tws", text);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const ParseError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << text << "\n" << e.what();
    }
  }
  // A set with identical pieces all wild and others not: accepted, and written back.
  const PieceDefinition d = parse_tws("t.tws", "Set C 3 2\nSolved\nC\n1 2 2\n0 ? ?\nEnd\n" + moves);
  EXPECT_EQ(d.wild, (std::vector<std::vector<bool>>{{false, true, true}}));
  EXPECT_EQ(parse_tws("again.tws", format_tws(d, {})).wild, d.wild);
}

}  // namespace
}  // namespace statespace
