// Sticker files grouped into pieces (puzzles/sticker_pieces.hpp): the pieces found on
// the shipped files, and the grouping as a bijection. A breadth-first search written
// here straight from PieceDefinition's semantics must give the sticker model's layers
// (and, on small spaces, the same positions through stickers()), and the conversions
// must round-trip and commute with every move.
#include "puzzles/sticker_pieces.hpp"

#include <absl/container/flat_hash_set.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <numeric>
#include <set>

#include "analysis/analyze.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"
#include "puzzles/puzzle_file.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

using testing::fresh_dir;
using testing::run_statespace;

std::filesystem::path example_file(const std::string& name) {
  return std::filesystem::path(STATESPACE_EXAMPLES) / (name + ".toml");
}
CellPermutation example(const std::string& name) { return CellPermutation(TomlInput(example_file(name))); }

CellPermutation written(const std::string& name, const std::string& text) {
  return CellPermutation(TomlInput(testing::write_file(fresh_dir("sticker-pieces-" + name) / (name + ".toml"), text)));
}

StickerPieces grouped(const CellPermutation& p) {
  const auto g = StickerPieces::group(p);
  EXPECT_TRUE(g) << p.name();
  return *g;
}

// Move m applied to position s, by the definition: place i receives the piece at place
// m.perm[i], its orientation raised by m.twist[i].
PieceTransform apply(const PieceDefinition& d, const PieceTransform& s, const PieceTransform& m) {
  PieceTransform t = s;
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    for (std::size_t i = 0; i < s.perm[k].size(); ++i) {
      const auto from = std::size_t(m.perm[k][i]);
      t.perm[k][i] = s.perm[k][from];
      t.twist[k][i] = (s.twist[k][from] + m.twist[k][i]) % d.sets[k].orientations;
    }
  }
  return t;
}

// The positions of a definition as 64-bit words: every place's piece number and
// orientation in fields of fixed width, for a search over millions of positions.
class PackedPieces {
 public:
  explicit PackedPieces(const PieceDefinition& d) : def_(d) {
    for (std::size_t k = 0; k < d.sets.size(); ++k) {
      const auto& solved = d.solved.perm[k];
      const int pieces = *std::max_element(solved.begin(), solved.end()) + 1;
      const int piece_bits = std::bit_width(unsigned(pieces - 1));
      const int twist_bits = std::bit_width(unsigned(d.sets[k].orientations - 1));
      for (int i = 0; i < d.sets[k].size; ++i) {
        width_.push_back(piece_bits + twist_bits);
        twist_bits_.push_back(twist_bits);
      }
    }
  }
  [[nodiscard]] int bits() const { return std::accumulate(width_.begin(), width_.end(), 0); }
  [[nodiscard]] std::uint64_t pack(const PieceTransform& t) const {
    std::uint64_t w = 0;
    std::size_t g = 0;
    for (std::size_t k = 0; k < t.perm.size(); ++k) {
      for (std::size_t i = 0; i < t.perm[k].size(); ++i, ++g) {
        w = (w << width_[g]) | (std::uint64_t(t.perm[k][i]) << twist_bits_[g]) | std::uint64_t(t.twist[k][i]);
      }
    }
    return w;
  }
  [[nodiscard]] PieceTransform unpack(std::uint64_t w) const {
    PieceTransform t = def_.solved;
    std::size_t g = width_.size();
    for (std::size_t k = t.perm.size(); k-- > 0;) {
      for (std::size_t i = t.perm[k].size(); i-- > 0;) {
        --g;
        const std::uint64_t field = w & ((std::uint64_t{1} << width_[g]) - 1);
        w >>= width_[g];
        t.twist[k][i] = int(field & ((std::uint64_t{1} << twist_bits_[g]) - 1));
        t.perm[k][i] = int(field >> twist_bits_[g]);
      }
    }
    return t;
  }

 private:
  const PieceDefinition& def_;
  std::vector<int> width_, twist_bits_;
};

// Positions by distance from the solved position, breadth first over the definition.
std::vector<std::uint64_t> piece_layers(const PieceDefinition& d, std::vector<PieceTransform>* all = nullptr) {
  const PackedPieces packed(d);
  EXPECT_LE(packed.bits(), 64);
  absl::flat_hash_set<std::uint64_t> seen{packed.pack(d.solved)};
  std::vector<std::uint64_t> frontier{packed.pack(d.solved)};
  std::vector<std::uint64_t> layers;
  while (!frontier.empty()) {
    layers.push_back(frontier.size());
    std::vector<std::uint64_t> next;
    for (const std::uint64_t w : frontier) {
      const PieceTransform s = packed.unpack(w);
      if (all) all->push_back(s);
      for (const PieceMove& m : d.moves) {
        const std::uint64_t t = packed.pack(apply(d, s, m.transform));
        if (seen.insert(t).second) next.push_back(t);
      }
    }
    frontier = std::move(next);
  }
  return layers;
}

// The same over the stickers, from the file's goal.
std::vector<std::uint64_t> sticker_layers(const CellPermutation& p,
                                          absl::flat_hash_set<CellPermutation::State>* all = nullptr) {
  absl::flat_hash_set<CellPermutation::State> seen{p.goal()};
  std::vector<CellPermutation::State> frontier{p.goal()};
  std::vector<std::uint64_t> layers;
  while (!frontier.empty()) {
    layers.push_back(frontier.size());
    std::vector<CellPermutation::State> next;
    for (const auto& s : frontier) {
      p.for_each_successor(s, [&](const auto& t) {
        if (seen.insert(t).second) next.push_back(t);
      });
    }
    frontier = std::move(next);
  }
  if (all) *all = std::move(seen);
  return layers;
}

// The grouping of p is a bijection onto the sticker positions reachable from the goal:
// equal layers, every piece position's stickers reachable and converted back to it.
void expect_bijection(const CellPermutation& p) {
  const auto g = grouped(p);
  std::vector<PieceTransform> positions;
  absl::flat_hash_set<CellPermutation::State> stickers;
  EXPECT_EQ(piece_layers(g.definition(), &positions), sticker_layers(p, &stickers)) << p.name();
  absl::flat_hash_set<CellPermutation::State> images;
  for (const auto& s : positions) {
    const auto image = g.stickers(s);
    EXPECT_TRUE(stickers.contains(image)) << p.name();
    EXPECT_EQ(g.pieces(image), s) << p.name();
    images.insert(image);
  }
  EXPECT_EQ(images.size(), stickers.size()) << p.name();
}

// Breadth first over the stickers for `count` positions: each converts to pieces and
// back, and every move on pieces is the move on stickers.
void expect_moves_commute(const CellPermutation& p, std::size_t count) {
  const auto g = grouped(p);
  absl::flat_hash_set<CellPermutation::State> seen{p.start()};
  std::vector<CellPermutation::State> queue{p.start()};
  EXPECT_EQ(g.pieces(p.start()), g.start());
  EXPECT_EQ(g.pieces(p.goal()), g.goal());
  for (std::size_t i = 0; i < queue.size() && i < count; ++i) {
    const auto s = queue[i];
    const auto pieces = g.pieces(s);
    ASSERT_TRUE(pieces) << p.name() << ": " << p.format(s);
    EXPECT_EQ(g.stickers(*pieces), s);
    for (std::size_t m = 0; m < p.moves().size(); ++m) {
      const auto t = p.apply(s, p.moves()[m]);
      EXPECT_EQ(g.pieces(t), apply(g.definition(), *pieces, g.definition().moves[m].transform)) << p.name();
      if (seen.insert(t).second) queue.push_back(t);
    }
  }
}

// The cells of every place of every set, 1-based as in the file.
std::vector<std::set<int>> places_of(const StickerPieces& g) {
  std::vector<std::set<int>> out;
  for (std::size_t k = 0; k < g.definition().sets.size(); ++k) {
    for (const auto& cells : g.places(int(k))) {
      std::set<int> one;
      for (const int c : cells) one.insert(c + 1);
      out.push_back(one);
    }
  }
  return out;
}

// The 2x2x2 cube's 21 moving stickers are 7 corners of three stickers on three faces,
// each with one U or D sticker; the D-L-B corner (cells 13, 20, 23) is dropped.
TEST(StickerPieces, Cube2IsSevenCornersWithThreeTwists) {
  for (const char* name : {"cube2", "cube2-quarter"}) {
    const auto g = grouped(example(name));
    const auto& d = g.definition();
    ASSERT_EQ(d.sets.size(), 1u);
    EXPECT_EQ(d.sets[0].size, 7);
    EXPECT_EQ(d.sets[0].orientations, 3);
    EXPECT_TRUE(g.groups_cells());
    EXPECT_EQ(d.solved.perm[0], (std::vector<int>{0, 1, 2, 3, 4, 5, 6}));  // seven distinct corners
    EXPECT_EQ(d.solved.twist[0], std::vector<int>(7, 0));
    std::set<int> covered;
    for (const auto& corner : places_of(g)) {
      ASSERT_EQ(corner.size(), 3u);
      std::set<int> faces;
      int up_down = 0;
      for (const int c : corner) {
        faces.insert((c - 1) / 4);
        up_down += (c - 1) / 4 == 0 || (c - 1) / 4 == 3;
        covered.insert(c);
      }
      EXPECT_EQ(faces.size(), 3u);
      EXPECT_EQ(up_down, 1);
    }
    EXPECT_EQ(covered.size(), 21u);
    for (const int fixed : {13, 20, 23}) EXPECT_FALSE(covered.count(fixed));
    // A quarter turn moves four corners and twists them by 0 mod 3 in all.
    const auto& r = d.moves[std::string(name) == "cube2" ? 3 : 2];
    ASSERT_EQ(r.name, "R");
    int moved = 0, twist = 0;
    for (int i = 0; i < 7; ++i) {
      moved += r.transform.perm[0][std::size_t(i)] != i;
      twist += r.transform.twist[0][std::size_t(i)];
    }
    EXPECT_EQ(moved, 4);
    EXPECT_EQ(twist % 3, 0);
  }
}

// The whole half-turn space over the definition: the published distribution.
TEST(StickerPieces, Cube2PiecesHaveThePublishedDistribution) {
  const auto g = grouped(example("cube2"));
  EXPECT_EQ(piece_layers(g.definition()),
            (std::vector<std::uint64_t>{1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644}));
}

// Files where no move carries two cells together keep one piece a cell, one set an
// orbit, orientation 1; equal labels become identical pieces.
TEST(StickerPieces, NoGroupingWhereNoneExists) {
  for (const char* name : {"pancake8", "topspin8"}) {
    const auto g = grouped(example(name));
    ASSERT_EQ(g.definition().sets.size(), 1u);
    EXPECT_EQ(g.definition().sets[0].size, 8);
    EXPECT_EQ(g.definition().sets[0].orientations, 1);
    EXPECT_FALSE(g.groups_cells());
  }
  const auto labels = grouped(written("labels",
                                      "name = \"labels\"\nkind = \"permutation\"\nstart = \"a a b b c d\"\n"
                                      "[moves]\nX = \"(1,2,3,4,5,6)\"\nY = \"(1,2)\"\n"));
  EXPECT_EQ(labels.definition().solved.perm[0], (std::vector<int>{0, 0, 1, 1, 2, 3}));
}

// The tipless Pyraminx: 6 edges that flip, and 4 axial pieces that only twist, each
// its own set; 933,120 positions, God's number 11.
TEST(StickerPieces, PyraminxTiplessEdgesAndAxialPieces) {
  const auto p = example("pyraminx-tipless");
  const auto g = grouped(p);
  std::vector<std::pair<int, int>> shape;  // size, orientations of each set
  for (const auto& s : g.definition().sets) shape.emplace_back(s.size, s.orientations);
  std::sort(shape.begin(), shape.end());
  EXPECT_EQ(shape, (std::vector<std::pair<int, int>>{{1, 3}, {1, 3}, {1, 3}, {1, 3}, {6, 2}}));
  const auto layers = piece_layers(g.definition());
  EXPECT_EQ(std::accumulate(layers.begin(), layers.end(), std::uint64_t{0}), 933120u);
  EXPECT_EQ(layers.size(), 12u);
  EXPECT_EQ(layers, sticker_layers(p));
}

// The big twins: only the structure (their spaces are searched by the engines).
TEST(StickerPieces, SkewbAndCubeRuGroupings) {
  const auto shape = [](const StickerPieces& g) {
    std::vector<std::pair<int, int>> out;  // places, orientations of each set
    for (const auto& s : g.definition().sets) out.emplace_back(s.size, s.orientations);
    return out;
  };
  // Two tetrads of corners that never mix, and the six centres; with DLB held still,
  // the other three corners of its tetrad only twist among themselves.
  EXPECT_EQ(shape(grouped(example("skewb-free"))), (std::vector<std::pair<int, int>>{{4, 3}, {4, 3}, {6, 1}}));
  EXPECT_EQ(shape(grouped(example("skewb"))), (std::vector<std::pair<int, int>>{{4, 3}, {3, 3}, {6, 1}}));
  const auto ru = grouped(example("cube3-RU"));
  // Six corners that twist; seven edges whose two stickers lie in two orbits of cells
  // (R and U never flip an edge) but move together.
  EXPECT_EQ(shape(ru), (std::vector<std::pair<int, int>>{{6, 3}, {7, 1}}));
  for (const auto& cells : ru.places(1)) EXPECT_EQ(cells.size(), 2u);
  EXPECT_EQ(ru.definition().solved.perm[1], (std::vector<int>{0, 1, 2, 3, 4, 5, 6}));
  for (const char* name : {"cube2-quarter", "pyraminx-tipless", "skewb", "skewb-free", "cube3-RU"}) {
    expect_moves_commute(example(name), 3000);
  }
}

// The beads' twin: identical beads, nothing to group; 1,680 arrangements.
TEST(StickerPieces, BeadsStayCells) {
  const auto beads = example("beads");
  const auto g = grouped(beads);
  EXPECT_FALSE(g.groups_cells());
  EXPECT_EQ(g.definition().solved.perm[0], (std::vector<int>{0, 0, 0, 1, 1, 1, 2, 2, 2}));
  const auto layers = piece_layers(g.definition());
  EXPECT_EQ(std::accumulate(layers.begin(), layers.end(), std::uint64_t{0}), 1680u);
  EXPECT_EQ(layers, sticker_layers(beads));
}

// The 2x2x2 cube turned by R and U only (29,160 positions), recoloured: identical
// corners, a corner whose orientation cannot be seen, a goal other than the start.
const std::string kCubeRu = R"toml(kind = "permutation"
metric = "all-powers"
[moves]
R = "(2,24,16,10)(4,22,14,12)(5,6,8,7)"
U = "(1,2,4,3)(5,9,18,22)(6,10,17,21)"
)toml";

TEST(StickerPieces, SameLayersAsTheStickers) {
  for (const char* name : {"pancake8", "topspin8"}) expect_bijection(example(name));
  // Opposite faces one colour: each corner reads U R F clockwise or anticlockwise,
  // two kinds of identical corners.
  const auto twins =
      written("twins", "name = \"twins\"\nstart = \"U U U U R R R R F F F F U U U U R R R R F F F F\"\n" + kCubeRu);
  const auto g = grouped(twins);
  ASSERT_EQ(g.definition().sets.size(), 1u);
  EXPECT_EQ(g.definition().sets[0].orientations, 3);
  const auto& solved = g.definition().solved.perm[0];
  EXPECT_EQ(std::set<int>(solved.begin(), solved.end()), (std::set<int>{0, 1}));
  expect_bijection(twins);
  // One corner all X: its twist is invisible, so the corners stay stickers.
  const auto plain =
      written("plain", "name = \"plain\"\nstart = \"U U U X X R R R F X F F D D D D L L L L B B B B\"\n" + kCubeRu);
  EXPECT_FALSE(grouped(plain).groups_cells());
  expect_bijection(plain);
  // The goal two turns away from the start.
  const std::string start = "start = \"U U U U R R R R F F F F D D D D L L L L B B B B\"\n";
  const auto cube = written("cube", "name = \"cube\"\n" + start + kCubeRu);
  const auto goal = cube.apply(cube.apply(cube.start(), cube.moves()[0]), cube.moves()[3]);
  const auto turned =
      written("turned", "name = \"turned\"\n" + start + "goal = \"" + cube.format(goal) + "\"\n" + kCubeRu);
  EXPECT_NE(grouped(turned).start(), grouped(turned).goal());
  expect_bijection(turned);
  expect_moves_commute(turned, 2000);
}

// A goal that is no arrangement of the start's pieces: no grouping.
TEST(StickerPieces, GoalOutsideThePiecesIsNotGrouped) {
  const auto p = written("apart",
                         "name = \"apart\"\nkind = \"permutation\"\nstart = \"a b c d\"\n"
                         "goal = \"c b a d\"\n[moves]\nX = \"(1,2)\"\nY = \"(3,4)\"\n");
  EXPECT_FALSE(StickerPieces::group(p));
  const auto g = grouped(example("cube2"));
  auto s = example("cube2").start();
  std::swap(s.cell[12], s.cell[0]);  // a fixed sticker changed
  EXPECT_FALSE(g.pieces(s));
}

// What `analyze` reports of a model, by the engine it chooses.
template <class P>
AnalysisResult analyzed(const P& p) {
  AnalyzeOptions o;
  o.progress = false;
  return run_analysis(p, o, choose_engine(p, o)).result;
}

// The loader runs cube2.toml on 7 ranked corners (rank space = the 3,674,160 positions)
// and the pyraminx on its pieces; the facts are the sticker model's, positions printed
// as stickers (the farthest in rank order rather than sticker order).
TEST(StickerPieces, FilesThatGroupRunOnRankedPieces) {
  for (const char* name : {"cube2", "pyraminx-tipless"}) {
    const auto loaded = make_file_puzzle(example_file(name).string());
    ASSERT_TRUE(std::holds_alternative<GroupedStickers>(*loaded)) << name;
    const auto& grouped = std::get<GroupedStickers>(*loaded);
    const auto stickers = example(name);
    EXPECT_EQ(grouped.format(grouped.goal()), stickers.format(stickers.goal()));
    EXPECT_EQ(grouped.parse(stickers.format(stickers.goal())), grouped.goal());
    const auto a = analyzed(grouped);
    const auto b = analyzed(stickers);
    EXPECT_EQ(a.engine, "ranked");
    EXPECT_EQ(a.layers, b.layers) << name;
    EXPECT_EQ(a.edges, b.edges) << name;
    auto farthest = a.farthest;
    std::sort(farthest.begin(), farthest.end());
    EXPECT_EQ(farthest, b.farthest) << name;
    for (const auto& f : a.farthest) EXPECT_EQ(grouped.format(grouped.parse(f)), f);
  }
  EXPECT_EQ(std::get<GroupedStickers>(*make_file_puzzle(example_file("cube2").string())).rank_space(), 3674160u);
  for (const char* name : {"pancake8", "topspin8"}) {
    EXPECT_TRUE(std::holds_alternative<CellPermutation>(*make_file_puzzle(example_file(name).string()))) << name;
  }
}

// The Skewb held at DLB on its pieces: the published distribution (3,149,280
// positions, God's number 11 with 90 antipodes), too wide for a word of stickers.
TEST(StickerPieces, SkewbHasThePublishedDistribution) {
  const auto loaded = make_file_puzzle(example_file("skewb").string());
  ASSERT_TRUE(std::holds_alternative<GroupedStickers>(*loaded));
  EXPECT_EQ(analyzed(std::get<GroupedStickers>(*loaded)).layers,
            (std::vector<std::uint64_t>{1, 8, 48, 288, 1728, 10248, 59304, 315198, 1225483, 1455856, 81028, 90}));
}

// solve reads and prints stickers; stickers of a corner turned alone are refused in
// one line with exit code 2.
TEST(StickerPieces, SolveAndRefusalsInStickers) {
  const std::string cube2 = example_file("cube2").string();
  const auto r =
      run_statespace("solve " + cube2 + " --from \"B B D D / F U U R / L R F B / D U L L / F D U L / R R B F\"");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(r.std_out.starts_with("cube2: 11 moves from B B D D / F U U R")) << r.std_out;
  // Cells 4, 5 and 10 are one corner (U, R, F): its stickers turned a third.
  const auto twisted =
      run_statespace("solve " + cube2 + " --from \"U U U R / F R R R / F U F F / D D D D / L L L L / B B B B\"");
  EXPECT_EQ(twisted.exit_code, 2) << twisted.out;
  EXPECT_NE(twisted.std_err.find("no sequence of moves reaches these stickers"), std::string::npos) << twisted.std_err;
  EXPECT_EQ(std::count(twisted.std_err.begin(), twisted.std_err.end(), '\n'), 1) << twisted.std_err;
  const auto apart =
      run_statespace("solve " + cube2 + " --from \"U U U R / U R R R / F F F F / D D D D / L L L L / B B B B\"");
  EXPECT_EQ(apart.exit_code, 2) << apart.out;
  EXPECT_NE(apart.std_err.find("no arrangement of the puzzle's pieces"), std::string::npos) << apart.std_err;
}

}  // namespace
}  // namespace statespace
