// The explicit engine: parallel BFS against boost::breadth_first_search on every
// model, thread-count independence, graph invariants, the diameter shortcut against
// brute force, components of whole rank spaces.
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <numeric>

#include "analysis/analyze.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"
#include "models.hpp"
#include "puzzles/registry.hpp"

namespace statespace {
namespace {

template <Puzzle P>
ExplicitSpace<P> space_of(const P& p) {
  return enumerate_explicit(p, p.goal(), MemoryBudget());
}

using testing::ranked_only;
using testing::small_models;

TEST(ParallelBfs, EqualsBoostBfsOnEveryModel) {
  for (const auto& any : small_models()) {
    std::visit(
        [](const auto& p) {
          const auto space = space_of(p);
          const Vertex source = space.vertex_of(p.goal());
          for (int threads : {1, 2, 4}) {
            tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
            const auto ours = parallel_bfs(space.graph, source);
            const auto reference = boost_bfs(space.graph, source);
            EXPECT_EQ(ours.distance, reference.distance) << p.name() << " threads " << threads;
            EXPECT_EQ(ours.layers, reference.layers) << p.name();
          }
        },
        any);
  }
}

TEST(ParallelBfs, RankedEnumerationLevelsEqualBoostBfsOnEveryRankedModel) {
  for (const auto& any : small_models()) {
    testing::visit_ranked(
        [](const auto& p) {
          for (int threads : {1, 2, 4}) {
            tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
            BfsResult levels;
            const auto space =
                enumerate_explicit(p, p.goal(), MemoryBudget(), nullptr, LookupKind::kRanked, nullptr, &levels);
            ASSERT_FALSE(levels.distance.empty()) << p.name();
            const auto reference = boost_bfs(space.graph, space.vertex_of(p.goal()));
            EXPECT_EQ(levels.distance, reference.distance) << p.name() << " threads " << threads;
            EXPECT_EQ(levels.layers, reference.layers) << p.name();
          }
        },
        any);
  }
}

// With the distances, the permutation enumeration also hands over every vertex's
// degree, and build_edges skips its own degree pass: the same graph either way.
TEST(ParallelBfs, RankedGraphIsTheSameWithTheEnumerationsDegrees) {
  for (const auto& any : small_models()) {
    testing::visit_ranked(
        [](const auto& p) {
          const auto plain = enumerate_explicit(p, p.goal(), MemoryBudget(), nullptr, LookupKind::kRanked);
          for (int threads : {1, 2, 4}) {
            tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
            BfsResult levels;
            const auto space =
                enumerate_explicit(p, p.goal(), MemoryBudget(), nullptr, LookupKind::kRanked, nullptr, &levels);
            EXPECT_EQ(space.graph.m_forward.m_rowstart, plain.graph.m_forward.m_rowstart) << p.name();
            EXPECT_EQ(space.graph.m_forward.m_column, plain.graph.m_forward.m_column) << p.name();
          }
        },
        any);
  }
}

TEST(ParallelBfs, DistancesChangeByAtMostOneAlongEveryEdge) {
  for (const auto& any : small_models()) {
    std::visit(
        [](const auto& p) {
          const auto space = space_of(p);
          const auto bfs = parallel_bfs(space.graph, space.vertex_of(p.goal()));
          for (Vertex u = 0; u < space.vertices(); ++u) {
            ASSERT_NE(bfs.distance[u], kUnreached) << p.name();
            bool has_parent = bfs.distance[u] == 0;
            for (auto [e, end] = out_edges(u, space.graph); e != end; ++e) {
              const Vertex v = target(*e, space.graph);
              ASSERT_LE(std::abs(int(bfs.distance[u]) - int(bfs.distance[v])), 1) << p.name();
              has_parent |= bfs.distance[v] + 1 == bfs.distance[u];
            }
            ASSERT_TRUE(has_parent) << p.name() << " vertex " << u;
          }
        },
        any);
  }
}

TEST(ExplicitGraph, EdgesAreSymmetricAndMatchSuccessors) {
  for (const auto& any : small_models()) {
    std::visit(
        [](const auto& p) {
          const auto space = space_of(p);
          std::uint64_t degree_sum = 0;
          for (Vertex u = 0; u < space.vertices(); ++u) {
            const auto s = space.state(u);
            std::vector<Vertex> expected;
            p.for_each_successor(s, [&](const auto& t) { expected.push_back(space.vertex_of(t)); });
            std::vector<Vertex> stored;
            for (auto [e, end] = out_edges(u, space.graph); e != end; ++e) stored.push_back(target(*e, space.graph));
            ASSERT_EQ(stored, expected) << p.name();
            degree_sum += stored.size();
            for (Vertex v : stored) ASSERT_TRUE(edge(v, u, space.graph).second) << p.name();
          }
          EXPECT_EQ(degree_sum, num_edges(space.graph));
        },
        any);
  }
}

TEST(Analysis, IdenticalForAnyThreadCount) {
  for (const auto& any : small_models()) {
    std::visit(ranked_only([](const auto& p) {
                 AnalyzeOptions o;
                 o.progress = false;
                 o.all_pairs = p.rank_space() <= 5040;
                 std::optional<AnalysisResult> first;
                 for (int threads : {1, 2, 3}) {
                   tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
                   auto r = analyze_explicit(p, o).result;
                   if (!first) {
                     first = r;
                     continue;
                   }
                   EXPECT_EQ(r.layers, first->layers);
                   EXPECT_EQ(r.farthest, first->farthest);
                   EXPECT_EQ(r.layer_edges, first->layer_edges);
                   EXPECT_EQ(r.diameter.has_value(), first->diameter.has_value());
                   if (r.diameter) {
                     EXPECT_EQ(r.diameter->from, first->diameter->from);
                     EXPECT_EQ(r.diameter->to, first->diameter->to);
                   }
                 }
               }),
               any);
  }
}

TEST(Analysis, LayerEdgesCountEveryMoveOnce) {
  const Hex6 p;
  AnalyzeOptions o;
  o.progress = false;
  const auto r = analyze_explicit(p, o).result;
  std::uint64_t sum = 0;
  for (const auto& e : r.layer_edges) {
    EXPECT_LE(e.to, e.from + 1);
    sum += e.count;
  }
  EXPECT_EQ(sum, r.edges);
  EXPECT_EQ(r.edges, 8640u);  // 7!/7 positions per blank cell x (3 x 6 + 6) / 2
}

// On every bipartite model the degrees give the walk's counts exactly; a model
// with moves inside a depth (NO-OFF's letters repeat) is not one, so the shortcut
// would be wrong there.
TEST(Analysis, LayerEdgesFromDegreesEqualTheWalkOnBipartiteModels) {
  int bipartite = 0, other = 0;
  for (const auto& any : small_models()) {
    std::visit(ranked_only([&](const auto& p) {
                 const auto space = space_of(p);
                 const auto bfs = parallel_bfs(space.graph, space.vertex_of(p.goal()));
                 const auto walked = count_layer_edges(space.graph, bfs.distance);
                 const bool inside =
                     std::any_of(walked.begin(), walked.end(), [](const LayerEdges& e) { return e.from == e.to; });
                 if constexpr (BipartitePuzzle<std::decay_t<decltype(p)>>) {
                   ++bipartite;
                   EXPECT_FALSE(inside) << p.name();
                   EXPECT_EQ(layer_edges_from_degrees(space.graph, bfs.distance), walked) << p.name();
                 } else {
                   other += inside;
                 }
               }),
               any);
  }
  EXPECT_GE(bipartite, 4);  // hex6 and the small tiles boards
  EXPECT_GE(other, 1);
}

TEST(Diameter, BlankSymmetryShortcutEqualsBruteForce) {
  for (auto [rows, cols] : {std::pair{2, 2}, {2, 3}, {3, 2}}) {
    const Tiles p(rows, cols);
    const auto space = space_of(p);
    const auto shortcut = find_diameter(p, space, 0);
    std::vector<Vertex> all(space.vertices());
    std::iota(all.begin(), all.end(), Vertex{0});
    const auto brute = max_eccentricity(space.graph, all);
    EXPECT_EQ(shortcut.length, brute.length) << p.name();
    EXPECT_EQ(shortcut.method, "blank-symmetry");
    EXPECT_EQ(shortcut.sources, std::uint64_t(rows * cols));
  }
}

TEST(Diameter, KnownValues) {
  AnalyzeOptions o;
  o.progress = false;
  o.all_pairs = true;
  EXPECT_EQ(analyze_explicit(Tiles(3, 3), o).result.diameter->length, 31u);  // 8-puzzle: 31 from any corner blank
  EXPECT_EQ(analyze_explicit(Tiles(2, 3), o).result.diameter->length, 21u);
  const auto nooff = analyze_explicit(NoOff{}, o).result.diameter;
  EXPECT_EQ(nooff->method, "all-pairs");
  EXPECT_GE(nooff->length, 56u);
  o.all_pairs_limit = 100;
  EXPECT_THROW(analyze_explicit(Hex6{}, o), UsageError);
}

TEST(Components, TilesSplitInTwoEqualHalvesOthersAreConnected) {
  for (auto [rows, cols] : {std::pair{2, 2}, {2, 3}, {3, 3}}) {
    const Tiles p(rows, cols);
    const auto c = find_components(p, MemoryBudget());
    EXPECT_EQ(c.sizes, (std::vector<std::uint64_t>{p.rank_space() / 2, p.rank_space() / 2})) << p.name();
  }
  EXPECT_EQ(find_components(Hex6{}, MemoryBudget()).sizes, std::vector<std::uint64_t>{5040});
  EXPECT_EQ(find_components(NoOff{}, MemoryBudget()).sizes, std::vector<std::uint64_t>{540});
}

TEST(Tiles, ParityClassAgreesWithReachability) {
  const Tiles p(2, 3);
  const auto space = space_of(p);
  for (std::uint64_t r = 0; r < p.rank_space(); ++r) {
    EXPECT_EQ(space.contains(p.unrank(r)), p.same_class(p.unrank(r), p.goal())) << p.format(p.unrank(r));
  }
}

TEST(Memory, RefusesWithTheBytesNeededAndTheFlag) {
  try {
    (void)enumerate_explicit(Tiles(3, 4), Tiles(3, 4).goal(), MemoryBudget(1 << 20));
    FAIL() << "accepted";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("needs "), std::string::npos) << what;
    EXPECT_NE(what.find("--memory"), std::string::npos) << what;
  }
  EXPECT_EQ(parse_bytes("8G"), 8ull << 30);
  EXPECT_EQ(parse_bytes("512M"), 512ull << 20);
  EXPECT_EQ(parse_bytes("1000"), 1000u);
  EXPECT_THROW(parse_bytes("lots"), ParseError);
  EXPECT_THROW(parse_bytes("5X"), ParseError);
}

}  // namespace
}  // namespace statespace
