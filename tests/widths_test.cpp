// Puzzle files at the edge of a 64-bit word: for each file kind, files whose
// positions take exactly 63, 64 and 65 bits (permutation: moving cells x bits a
// label; blocks: the pieces' fields; graph tokens: the multiset rank, at most 58
// bits, since 20 vertices and 16 labels are the loader's limits). Up to 64 bits the
// sorted-levels engine must give the explicit engine's facts; above, --engine levels
// is refused with one line and exit 2 and auto runs the explicit engine. The files
// are small so that the suite runs them under UBSan too: a shift by 64 is undefined,
// and x86 hid it by shifting by 0.
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <bit>
#include <fstream>

#include "analysis/analyze.hpp"
#include "analysis/engines/levels/analyze_levels.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"
#include "core/errors.hpp"
#include "puzzles/puzzle_file.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

namespace fs = std::filesystem;
using testing::fresh_dir;
using testing::read_file;
using testing::run_statespace;
using testing::write_file;

template <class P>
P load(const fs::path& file) {
  if constexpr (std::is_same_v<P, CellPermutation>) {
    return CellPermutation(TomlInput(file));  // the sticker model, also for files that group into pieces
  } else {
    return std::get<P>(*make_file_puzzle(file.string()));
  }
}

std::string cycles(int first, int last) {  // (first,first+1)(first+2,first+3)... up to last
  std::string out;
  for (int i = first; i + 1 <= last; i += 2) out += "(" + std::to_string(i) + "," + std::to_string(i + 1) + ")";
  return out;
}

std::string labels(int cells, int distinct) {  // A B C ... cycling through `distinct` labels
  std::string out;
  for (int i = 0; i < cells; ++i) out += std::string(i ? " " : "") + char('A' + i % distinct);
  return out;
}

// 16 cells, 16 labels (4 bits each, the whole word) and two involutions: a dihedral
// group of 8 positions. Cell 16's label P (code 15) reaches cell 1, the highest
// field, so words have their top bit set.
constexpr const char* kSixteenLabels = R"toml(name = "sixteen"
kind = "permutation"
start = "A B C D E F G H I J K L M N O P"
metric = "given"
[moves]
F1 = "(1,2)"
F8 = "(1,16)(3,14)(5,12)(7,10)(9,8)(11,6)(13,4)(15,2)"
)toml";

// 21 moving cells of 8 labels (3 bits): 63 bits.
std::string permutation63() {
  return "name = \"perm63\"\nkind = \"permutation\"\nstart = \"" + labels(21, 8) + "\"\nmetric = \"given\"\n" +
         "[moves]\nX = \"" + cycles(1, 20) + "\"\nY = \"" + cycles(2, 21) + "\"\n";
}
// 17 labels (5 bits), 13 of the cells moving: 65 bits.
std::string permutation65() {
  return "name = \"perm65\"\nkind = \"permutation\"\nstart = \"" + labels(17, 17) + "\"\nmetric = \"given\"\n" +
         "[moves]\nX = \"" + cycles(1, 12) + "\"\nY = \"" + cycles(2, 13) + "\"\n";
}

// Pieces held to their rows: A alone in row 0 (8 places, 3 bits; its field, the
// highest, reaches 7, so the top bit is set), rows 1 and 2 full (16 pieces that never
// move, 3 bits each), four pieces in row 3 (3 bits each): 63 bits. A row 4 of 2 or 3
// cells between walls adds a piece of 1 or 2 bits: 64 or 65.
std::string blocks(int last_row_cells) {
  std::string text = "name = \"blocks" + std::to_string(63 + last_row_cells - 1) + "\"\nkind = \"blocks\"\n" +
                     "moves = \"step\"\nstart = \"\"\"\nA . . . . . . .\nB C D E F G H I\nJ K L M N O P Q\n"
                     "R S T U . . . .\n";
  std::string letters = "ABCDEFGHIJKLMNOPQRSTU";
  if (last_row_cells) {
    text += "V";
    for (int c = 1; c < 8; ++c) text += c < last_row_cells ? " ." : " #";
    text += "\n";
    letters += "V";
  }
  text += "\"\"\"\n[axis]\n";
  for (const char c : letters) text += std::string(1, c) + " = \"horizontal\"\n";
  return text;
}

// A path of 20 vertices holding 16 labels ('_' one of them; t1 to t4 twice):
// 20!/2^4 arrangements, about the largest rank space the loader takes (58 bits, as
// it allows 20 vertices and 16 labels). The blank walks the path.
std::string path_graph(int vertices) {
  std::string edges, start;
  for (int v = 1; v < vertices; ++v) edges += (v > 1 ? " " : "") + std::to_string(v) + "-" + std::to_string(v + 1);
  for (int v = 1; v < vertices; ++v) start += "t" + std::to_string(v <= 15 ? v : v - 15) + " ";
  return "name = \"path" + std::to_string(vertices) + "\"\nkind = \"graph\"\nedges = \"" + edges + "\"\nstart = \"" +
         start + "_\"\n";
}

AnalyzeOptions quiet() {
  AnalyzeOptions o;
  o.progress = false;
  return o;
}

// The sorted levels against the explicit graph, at one and two threads: everything
// the reports show.
template <class P>
AnalysisResult expect_engines_agree(const P& p) {
  const AnalysisResult expected = analyze_explicit(p, quiet()).result;
  for (const int threads : {1, 2}) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
    const AnalysisResult levels = analyze_levels(p, quiet());
    EXPECT_EQ(levels.engine, "levels");
    EXPECT_EQ(levels.states, expected.states);
    EXPECT_EQ(levels.edges, expected.edges);
    EXPECT_EQ(levels.layers, expected.layers);
    EXPECT_EQ(levels.farthest, expected.farthest);
    EXPECT_EQ(levels.layer_edges, expected.layer_edges);
  }
  return expected;
}

// Whether some reachable position's word has bit 63 set.
template <class P>
bool top_bit_reached(const P& p) {
  const auto packing = p.packing(p.goal());
  bool top = false;
  sorted_levels_bfs(*packing, {packing->pack(p.goal())}, p.name(), MemoryBudget(), nullptr,
                    [&](std::size_t, std::span<const std::uint64_t> level) {
                      for (const auto w : level) top = top || (w >> 63) != 0;
                    });
  return top;
}

// `analyze FILE --engine levels` above 64 bits: one line, exit 2, nothing written;
// auto runs the explicit engine.
void expect_levels_refused(const fs::path& file, const fs::path& dir) {
  const auto refused =
      run_statespace("analyze " + file.string() + " --engine levels --quiet --out " + (dir / "levels").string());
  EXPECT_EQ(refused.exit_code, 2) << refused.out;
  EXPECT_NE(refused.std_err.find("--engine levels needs positions that pack into"), std::string::npos)
      << refused.std_err;
  EXPECT_EQ(std::count(refused.std_err.begin(), refused.std_err.end(), '\n'), 1) << refused.std_err;
  EXPECT_FALSE(fs::exists(dir / "levels"));
  const auto fallback = run_statespace("analyze " + file.string() + " --quiet --out " + (dir / "auto").string());
  ASSERT_EQ(fallback.exit_code, 0) << fallback.out;
  EXPECT_NE(read_file(dir / "auto" / file.stem() / "summary.json").find("\"engine\": \"explicit\""), std::string::npos);
}

// The file that crashed analyze (exit 139): 64-bit words with the top bit set in
// levels of a few words, bucketed by a shift of 64.
// The words past 128 bits order and shift as the numbers they hold: two limbs as an
// unsigned __int128, four bit by bit.
TEST(Widths, LimbWordsOrderAndShiftAsNumbers) {
  std::uint64_t x = 0x9E3779B97F4A7C15ULL;
  const auto next = [&x] {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    return x;
  };
  const auto number = [](const LimbWord<2>& w) { return (unsigned __int128)(w.limb[0]) << 64 | w.limb[1]; };
  for (int i = 0; i < 1000; ++i) {
    LimbWord<2> a{{next(), next()}}, b{{next(), next()}};
    if (i % 3 == 0) b.limb[0] = a.limb[0];  // the low limb decides
    ASSERT_EQ(a < b, number(a) < number(b));
    ASSERT_EQ(a == b, number(a) == number(b));
    for (int s = 0; s < 128; ++s) ASSERT_EQ(shifted_bits(a, s), std::uint64_t(number(a) >> s)) << s;
  }
  const LimbWord<4> w{{next(), next(), next(), next()}};
  const auto bit = [&](int j) { return j < 256 ? w.limb[std::size_t(3 - j / 64)] >> (j % 64) & 1 : 0; };
  for (int s = 0; s < 256; ++s) {
    std::uint64_t want = 0;
    for (int b = 0; b < 64; ++b) want |= bit(s + b) << b;
    ASSERT_EQ(shifted_bits(w, s), want) << s;
  }
  EXPECT_LT((LimbWord<4>{{1, 0, 0, 0}}), (LimbWord<4>{{1, 0, 0, 1}}));
  EXPECT_LT((LimbWord<4>{{0, ~0ULL, ~0ULL, ~0ULL}}), (LimbWord<4>{{1, 0, 0, 0}}));
}

TEST(Widths, SixteenDistinctLabelsFillTheWordWithoutACrash) {
  const auto dir = fresh_dir("widths-sixteen");
  const auto file = write_file(dir / "sixteen.toml", kSixteenLabels);
  const auto p = load<CellPermutation>(file);
  ASSERT_TRUE(p.packing(p.goal()));
  EXPECT_EQ(p.packing(p.goal())->width(), 64);
  EXPECT_TRUE(top_bit_reached(p));
  const auto r = expect_engines_agree(p);
  EXPECT_EQ(r.layers, (std::vector<std::uint64_t>{1, 2, 2, 2, 1}));
  EXPECT_EQ(r.farthest, std::vector<std::string>{"B A C D E F G H I J K L M N P O"});
  for (const char* engine : {"levels", "explicit"}) {
    const auto run = run_statespace("analyze " + file.string() + " --engine " + engine + " --quiet --out " +
                                    (dir / engine).string());
    ASSERT_EQ(run.exit_code, 0) << run.out;
  }
  EXPECT_NE(read_file(dir / "levels/sixteen/summary.json").find("\"engine\": \"levels\""), std::string::npos);
  for (const char* name : {"distribution.csv", "farthest.csv", "layers.dot"}) {
    EXPECT_EQ(read_file(dir / "levels/sixteen" / name), read_file(dir / "explicit/sixteen" / name)) << name;
  }
  EXPECT_EQ(read_file(dir / "levels/sixteen/distribution.csv"),
            "depth,count,cumulative\n0,1,1\n1,2,3\n2,2,5\n3,2,7\n4,1,8\n");
}

TEST(Widths, PermutationFilesOf63And65Bits) {
  const auto dir = fresh_dir("widths-permutation");
  const auto p63 = load<CellPermutation>(write_file(dir / "perm63.toml", permutation63()));
  EXPECT_EQ(p63.packing(p63.goal())->width(), 63);
  const auto r63 = expect_engines_agree(p63);
  EXPECT_EQ(r63.states, 42u);
  EXPECT_EQ(r63.layers.size(), 22u);

  // Past 64 bits the positions take 128-bit words, on the same engine.
  const auto file65 = write_file(dir / "perm65.toml", permutation65());
  const auto p65 = load<CellPermutation>(file65);
  EXPECT_FALSE(p65.packing(p65.goal()));
  ASSERT_TRUE(p65.wide_packing(p65.goal()));
  EXPECT_EQ(p65.wide_packing(p65.goal())->width(), 65);
  const auto wide = analyze_levels(p65, quiet());
  const auto expected = analyze_explicit(p65, quiet()).result;
  EXPECT_EQ(expected.states, 26u);
  EXPECT_EQ(wide.states, expected.states);
  EXPECT_EQ(wide.layers, expected.layers);
  EXPECT_EQ(wide.farthest, expected.farthest);
  EXPECT_EQ(wide.layer_edges, expected.layer_edges);
  for (const char* engine : {"levels", "explicit"}) {
    const auto run = run_statespace("analyze " + file65.string() + " --engine " + engine + " --quiet --out " +
                                    (dir / engine).string());
    ASSERT_EQ(run.exit_code, 0) << run.out;
  }
  for (const char* name : {"distribution.csv", "farthest.csv", "layers.dot"}) {
    EXPECT_EQ(read_file(dir / "levels/perm65" / name), read_file(dir / "explicit/perm65" / name)) << name;
  }
}

TEST(Widths, BlocksFilesOf63To65Bits) {
  const auto dir = fresh_dir("widths-blocks");
  const std::vector<std::pair<int, std::uint64_t>> cases = {{0, 8 * 70}, {2, 8 * 70 * 2}, {3, 8 * 70 * 3}};
  for (const auto& [last_row, states] : cases) {
    const int width = 63 + std::max(0, last_row - 1);
    const auto b = load<Blocks>(write_file(dir / ("blocks" + std::to_string(width) + ".toml"), blocks(last_row)));
    SCOPED_TRACE(width);
    if (width <= 64) {
      ASSERT_TRUE(b.packing(b.goal()));
      EXPECT_EQ(b.packing(b.goal())->word_bits(), width);
      EXPECT_EQ(top_bit_reached(b), width == 64);
      EXPECT_EQ(expect_engines_agree(b).states, states);
    } else {
      EXPECT_FALSE(b.packing(b.goal()));
      EXPECT_THROW((void)analyze_levels(b, quiet()), UsageError);
      EXPECT_EQ(analyze_explicit(b, quiet()).result.states, states);
      expect_levels_refused(dir / "blocks65.toml", dir);
    }
  }
}

// Graph files are ranked, not packed: the levels engine never takes them, and 20
// vertices of 16 labels (under 2^58 arrangements) is as wide as their ranks get; 21
// vertices are refused before any work. The explicit engine bounds the reachable
// positions by the rank space, so it refuses this file by the memory budget (one
// line, exit 2) although the blank's walk reaches only 20 positions.
TEST(Widths, GraphFilesRankWithin58BitsAndNeverTakeTheLevelsEngine) {
  const auto dir = fresh_dir("widths-graph");
  const auto file = write_file(dir / "path20.toml", path_graph(20));
  const auto g = load<GraphTokens>(file);
  EXPECT_EQ(g.rank_space(), 2432902008176640000u / 16);
  EXPECT_EQ(std::bit_width(g.rank_space() - 1), 58);
  EXPECT_EQ(g.rank(g.unrank(g.rank_space() - 1)), g.rank_space() - 1);
  const auto far = g.parse("_ t1 t2 t3 t4 t5 t6 t7 t8 t9 t10 t11 t12 t13 t14 t15 t1 t2 t3 t4");
  EXPECT_EQ(g.unrank(g.rank(far)), far);
  EXPECT_EQ(g.unrank(g.rank(g.goal())), g.goal());
  const auto levels = run_statespace("analyze " + file.string() + " --engine levels --quiet");
  EXPECT_EQ(levels.exit_code, 2) << levels.out;
  EXPECT_NE(levels.std_err.find("--engine levels needs positions that pack into"), std::string::npos) << levels.std_err;
  EXPECT_EQ(std::count(levels.std_err.begin(), levels.std_err.end(), '\n'), 1) << levels.std_err;
  const auto budget = run_statespace("analyze " + file.string() + " --quiet");
  EXPECT_EQ(budget.exit_code, 2) << budget.out;
  EXPECT_NE(budget.std_err.find("path20: explicit graph needs"), std::string::npos) << budget.std_err;
  EXPECT_EQ(std::count(budget.std_err.begin(), budget.std_err.end(), '\n'), 1) << budget.std_err;
  const auto wide = run_statespace("analyze " + write_file(dir / "path21.toml", path_graph(21)).string() + " --quiet");
  EXPECT_EQ(wide.exit_code, 2) << wide.out;
  EXPECT_NE(wide.std_err.find("path21.toml:4:9: start has 21 vertices"), std::string::npos) << wide.std_err;
}

}  // namespace
}  // namespace statespace
