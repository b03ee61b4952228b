// Twisty puzzles counted up to the rotations of the whole puzzle their file gives
// (analyze --symmetry rotations): a position p and r^-1 p r are one class. The
// files are tests/data/twisty's, written from the geometry by make_twisty.py: the
// 2x2x2 and the Skewb with their DBL corner held still, each with the rotations
// about that corner (the group of order 3 that maps their moves onto themselves).
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis/analyze.hpp"
#include "analysis/engines/explicit/analyze_explicit.hpp"
#include "analysis/engines/levels/analyze_levels.hpp"
#include "core/errors.hpp"
#include "puzzles/tws_file.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

using pieces_detail::identity_transform;
using pieces_detail::then_transform;

std::filesystem::path sample(const std::string& name) {
  return std::filesystem::path(STATESPACE_SOURCE_DIR) / "tests/data/twisty" / (name + ".tws");
}

AnalyzeOptions quiet() {
  AnalyzeOptions o;
  o.progress = false;
  return o;
}

Pieces with_rotations(const std::string& name) {
  Pieces p = load_tws(sample(name));
  p.use_rotations();
  return p;
}

std::uint64_t sum(const std::vector<std::uint64_t>& v) {
  std::uint64_t n = 0;
  for (const auto x : v) n += x;
  return n;
}

struct Published {
  std::string file;
  int group;
  std::vector<std::uint64_t> positions;  // by depth, half-turn metric (every power a move)
  std::vector<std::uint64_t> classes;    // by depth, up to the group
};

// Positions by depth: the 2x2x2's half-turn distribution (OEIS A079761) and the
// Skewb's (OEIS A079745; Schoenert on Cube-Lovers, 1995). Classes by depth: twsearch 0a8bfb07
// (github.com/cubing/twsearch), `twsearch -F -g` on these very files, its "cnt" column, run with its reduction by
// inverses turned off (readksolve.cpp: caninvert = 0), since twsearch counts up to
// rotations and inversion together where every piece differs (its unmodified counts:
// 613,058 and 525,176 classes). Nothing published counts these puzzles up to their
// rotations alone; the checks below recompute the classes independently.
const std::vector<Published> kPublished = {
    {"cube2-fixed-rotations",
     3,
     {1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644},
     {1, 3, 18, 107, 617, 3332, 16712, 75846, 290036, 629280, 207988, 888}},
    {"skewb-fixed-rotations",
     3,
     {1, 8, 48, 288, 1728, 10248, 59304, 315198, 1225483, 1455856, 81028, 90},
     {1, 4, 16, 96, 576, 3416, 19768, 105066, 408509, 485340, 27092, 38}},
};

TEST(TwistySymmetry, ClassesAndPositionsByDepthMatchTwsearchAndThePublishedCounts) {
  for (const auto& want : kPublished) {
    const Pieces p = with_rotations(want.file);
    EXPECT_EQ(p.rotations(), want.group) << want.file;
    EXPECT_EQ(p.symmetries(), want.group) << want.file;
    EXPECT_EQ(p.symmetry_group(), "the 3 rotations the file's rotations generate (the start is symmetric)");
    const AnalysisResult r = analyze_levels(p, quiet());
    EXPECT_EQ(r.layers, want.classes) << want.file;
    EXPECT_EQ(r.layer_positions, want.positions) << want.file;
    EXPECT_EQ(r.states, sum(want.classes)) << want.file;
    EXPECT_EQ(r.positions(), sum(want.positions)) << want.file;
    EXPECT_EQ(r.symmetry, p.symmetry_group());
    // The classes times their sizes are the positions of the run without symmetry,
    // depth by depth (on the file's twin without rotations).
    const std::string twin = want.file.substr(0, want.file.size() - std::string("-rotations").size());
    EXPECT_EQ(analyze_levels(load_tws(sample(twin)), quiet()).layers, r.layer_positions) << want.file;
  }
}

// The classes, counted apart from any search by Burnside's lemma over every rank with
// the conjugation written out on transforms (then_transform), not the model's
// tables: (1 / |G|) * sum over g of the positions g fixes.
TEST(TwistySymmetry, BurnsideCountsTheClasses) {
  for (const auto& want : kPublished) {
    const Pieces p = with_rotations(want.file);

    const PieceDefinition& d = p.definition();
    std::vector<PieceTransform> group = {identity_transform(d)};
    for (std::size_t at = 0; at < group.size(); ++at) {
      for (const auto& r : d.rotations) {
        const PieceTransform next = then_transform(d, group[at], r.transform);
        if (std::find(group.begin(), group.end(), next) == group.end()) group.push_back(next);
      }
    }
    ASSERT_EQ(int(group.size()), want.group);
    // Every piece differs and the solved state is the identity, so a position is the
    // transform that makes it from the solved state.
    std::uint64_t fixed = p.rank_space();
    for (std::uint64_t rank = 0; rank < p.rank_space(); ++rank) {
      const Pieces::Position pos = p.position(rank);
      const PieceTransform s{pos.perm, pos.twist};
      // g fixes s when r^-1 s r = s, that is s r = r s; the identity fixes all.
      for (std::size_t i = 1; i < group.size(); ++i) {
        if (then_transform(d, s, group[i]) == then_transform(d, group[i], s)) ++fixed;
      }
    }
    EXPECT_EQ(p.rank_space(), sum(want.positions)) << want.file;
    EXPECT_EQ(fixed % group.size(), 0u);
    EXPECT_EQ(fixed / group.size(), sum(want.classes)) << want.file;
  }
}

// A small space on the explicit engine, with the group its rotations generate (the
// pyramorphix's three half turns about its move axes, as twsearch finds it: "Rotation
// group size is 4"): the same positions by depth as the twin without rotations.
TEST(TwistySymmetry, ExplicitEngineCountsClasses) {
  for (const auto& [twin, order] : {std::pair<std::string, int>{"pyramorphix", 4}}) {
    const Pieces plain = load_tws(sample(twin));
    const Pieces p = with_rotations(twin + "-rotations");
    const AnalysisResult whole = analyze_explicit(plain, quiet()).result;
    const AnalysisResult up_to = analyze_explicit(p, quiet()).result;
    EXPECT_EQ(p.rotations(), order) << twin;
    EXPECT_EQ(up_to.layer_positions, whole.layers) << twin;
    EXPECT_LT(up_to.states, whole.states) << twin;
    const AnalysisResult levels = analyze_levels(p, quiet());
    EXPECT_EQ(levels.layers, up_to.layers) << twin;
    EXPECT_EQ(levels.layer_positions, up_to.layer_positions) << twin;
  }
}

// From another start the group is that start's stabiliser; a start no rotation but
// the identity fixes is counted one by one.
TEST(TwistySymmetry, FromAnotherStartTakesItsStabiliser) {
  Pieces p = with_rotations("cube2-fixed-rotations");
  // The rotation about DBL turns U into F: only the identity fixes the position after U.
  std::vector<std::uint64_t> next;
  p.for_each_successor_rank(p.start().rank, [&](std::uint64_t r) { next.push_back(r); });
  ASSERT_EQ(p.moves().front().name, "U");
  p.start_at(p.format(Pieces::State{next.front()}));
  EXPECT_EQ(p.symmetries(), 1);
  EXPECT_EQ(p.symmetry_group(),
            "none of the 3 rotations the file's rotations generate but the identity fixes the start");
  Pieces q = with_rotations("cube2-fixed-rotations");
  q.start_at(q.format(q.start()));
  EXPECT_EQ(q.symmetries(), 3);
}

// A rotation that does not map the moves in use onto themselves is refused at its
// line: the 8-corner 2x2x2 with only U and R (its rotations turn U into D, F, ...),
// and a file without rotations has nothing to count up to.
TEST(TwistySymmetry, RotationsThatDoNotPermuteTheMovesAreRefusedAtTheirLine) {
  const Pieces whole = load_tws(sample("cube2-rotations"));
  Pieces some(whole.definition(), PieceMetric::all_powers, {"U", "R"});
  try {
    some.use_rotations();
    FAIL() << "no refusal";
  } catch (const ParseError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("cube2-rotations.tws:49:6: rotation Uv does not map the puzzle onto itself: it turns move"),
              std::string::npos)
        << what;
  }
  Pieces plain = load_tws(sample("cube2-fixed"));
  EXPECT_THROW(plain.use_rotations(), ParseError);
  EXPECT_EQ(plain.symmetries(), 1);
}

std::string file_text(const std::string& name) {
  std::ifstream in(sample(name));
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// Classes up to the group used (1 and 2 threads alike), the positions they stand for
// (equal, level by level, to the run of the same file without symmetry).
std::vector<std::uint64_t> classes_of(const Pieces& with, const Pieces& without, unsigned depth) {
  AnalyzeOptions o = quiet();
  if (depth > 0) o.max_depth = depth;
  const std::vector<std::uint64_t> positions = analyze_levels(without, o).layers;
  std::vector<std::uint64_t> classes;
  for (const int threads : {1, 2}) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
    o.threads = threads;
    const AnalysisResult r = analyze_levels(with, o);
    EXPECT_EQ(r.layer_positions, positions) << threads;
    EXPECT_EQ(r.symmetry, with.symmetry_group());
    if (classes.empty()) classes = r.layers;
    EXPECT_EQ(r.layers, classes) << threads;
  }
  return classes;
}

// With wildcards and Illegal lines the group used is the subgroup of rotations that
// map the wild pieces onto wild ones and the Illegal places onto themselves. The
// 7-corner 2x2x2 with corner 1's twist wild and piece 1 barred from places 2, 3 and 6:
// the rotations about DBL keep corner 1 where it is and turn 2, 3 and 6 into each
// other, so all three are kept (116,640 positions in all). The 8-corner 2x2x2 with the
// twists of the U layer wild: of its 24 rotations, the 4 about the U axis keep them.
// Classes and positions by depth: twsearch -F -g -t 1 on the same files (--maxdepth 5
// for the second), its "cnt" and "scnt" columns (it does not reduce by inversion
// where twists are wild), with a rotation group of the same order.
TEST(TwistySymmetry, WildcardsAndIllegalPlacesKeepTheRotationsThatFixThem) {
  const std::string fixed = replaced(file_text("cube2-fixed-rotations"), "0 0 0 0 0 0 0", "? 0 0 0 0 0 0") +
                            "Illegal CORNER 2 1\nIllegal CORNER 3 1\nIllegal CORNER 6 1\n";
  Pieces p = load_tws("c.tws", fixed);
  EXPECT_EQ(p.use_rotations(), 3);
  EXPECT_EQ(p.symmetry_group(), "the 3 rotations the file's rotations generate (the start is symmetric)");
  EXPECT_EQ(classes_of(p, load_tws("c.tws", fixed), 0),
            (std::vector<std::uint64_t>{1, 1, 6, 23, 71, 232, 696, 1956, 4936, 10050, 13286, 7023, 623, 12}));
  EXPECT_EQ(analyze_levels(p, quiet()).layer_positions,
            (std::vector<std::uint64_t>{1, 3, 18, 69, 209, 696, 2088, 5868, 14808, 30142, 39842, 21035, 1841, 20}));

  const std::string whole = replaced(file_text("cube2-rotations"), "0 0 0 0 0 0 0 0", "? ? ? ? 0 0 0 0");
  Pieces q = load_tws("c.tws", whole);
  EXPECT_EQ(q.use_rotations(), 4);
  EXPECT_EQ(q.symmetry_group(),
            "the 4 of the 24 rotations the file's rotations generate that map its wildcard ('?') twists onto "
            "themselves (the identity, Uv, Dv, Uv2) (the start is symmetric)");
  EXPECT_EQ(classes_of(q, load_tws("c.tws", whole), 5), (std::vector<std::uint64_t>{1, 9, 69, 737, 6998, 47352}));
  AnalyzeOptions o = quiet();
  o.max_depth = 5;
  EXPECT_EQ(analyze_levels(q, o).layer_positions, (std::vector<std::uint64_t>{1, 18, 243, 2858, 27456, 188576}));

  // A piece barred from place 1 that the rotations turn into others not barred: only
  // the identity is left, refused at the Illegal line.
  const std::string lone = file_text("cube2-fixed-rotations") + "Illegal CORNER 1 2\n";
  const auto line = std::count(lone.begin(), lone.end(), '\n');
  Pieces r = load_tws("c.tws", lone);
  try {
    (void)r.use_rotations();
    ADD_FAILURE() << "counted up to rotations";
  } catch (const ParseError& e) {
    EXPECT_EQ(std::string(e.what()), "c.tws:" + std::to_string(line) +
                                         ":1: none of the 3 rotations the file's rotations generate but the identity "
                                         "maps its Illegal places onto themselves, so there is nothing to count up to "
                                         "(expected the positions counted one by one: --symmetry none)");
  }
}

// The ranked engine walks positions, never classes: auto leaves it, and asking for
// it is refused before any work.
TEST(TwistySymmetry, RankedEngineIsNotTakenUpToSymmetry) {
  const Pieces p = with_rotations("cube2-fixed-rotations");
  AnalyzeOptions o = quiet();
  EXPECT_EQ(choose_engine(p, o).engine, Engine::levels);
  o.engine = Engine::ranked;
  EXPECT_THROW(choose_engine(p, o), UsageError);
  EXPECT_EQ(choose_engine(load_tws(sample("cube2-fixed")), quiet()).engine, Engine::ranked);
}

// A table of classes holds one entry a class; query --symmetry looks a position up
// by its class but walks the moves as they are, so it prints what the table of every
// position prints: the same moves, names, distances and line (before, the moves were
// classes' least members, named "?").
TEST(TwistySymmetry, QueryWalksATableOfClassesByTheRealMoves) {
  const auto dir = testing::fresh_dir("tws-symmetry-table");
  const std::string classes = sample("cube2-fixed-rotations").string(), plain = sample("cube2-fixed").string();
  for (const auto& [file, out, flag] :
       {std::tuple{classes, "classes", " --symmetry rotations"}, {plain, "plain", ""}}) {
    const auto r = testing::run_statespace("analyze " + file + flag + " --table -q --out " + (dir / out).string());
    ASSERT_EQ(r.exit_code, 0) << r.out;
  }
  const auto table = [&](const char* out) { return (dir / out / "cube2-fixed" / "goal-distances.table").string(); };
  const std::string position = "'CORNER 1 2 3 4 5 7 6 / 0 0 0 0 0 2 1' --line 20";
  const auto by_classes = testing::run_statespace("query " + classes + " " + position +
                                                  " --symmetry rotations --table " + table("classes"));
  const auto by_positions = testing::run_statespace("query " + plain + " " + position + " --table " + table("plain"));
  ASSERT_EQ(by_classes.exit_code, 0) << by_classes.out << by_classes.std_err;
  EXPECT_EQ(by_classes.std_out, by_positions.std_out);
  EXPECT_NE(by_classes.out.find("10 moves to the goal"), std::string::npos) << by_classes.out;
  EXPECT_NE(by_classes.out.find("line of 10 moves:"), std::string::npos);
  EXPECT_EQ(by_classes.out.find('?'), std::string::npos);
  // Without --symmetry the table is another puzzle's.
  EXPECT_EQ(testing::run_statespace("query " + classes + " " + position + " --table " + table("classes")).exit_code, 2);
}

}  // namespace
}  // namespace statespace
