// The graded-chain engine in the analyze pipeline (--engine chains): the distribution
// of the reachable positions by chain moves, every position farthest from the start,
// and the goal's distance in chain moves, from graded_chain_layers. It walks single
// applications, so it gives neither the number of chain moves between positions
// (edges) nor the goal views: those are named in AnalysisResult::unavailable, never
// given as numbers. With --table it keeps every layer's words and searches back
// from the goals (below) for the distance table.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <queue>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/engines/directed.hpp"
#include "analysis/engines/levels/analyze_levels.hpp"
#include "analysis/engines/levels/graded_chains.hpp"
#include "analysis/runtime/goal_table.hpp"

namespace statespace {

// What summary.json's "lookup" says of this engine: two sorted layers of single
// applications, each position with its chain moves and last landing cells.
inline constexpr std::string_view kGradedChainsLookup = "graded-chain-layers";

namespace detail {

// The distance table of a graded-chain search: `layers[e]` holds the words of the
// positions e single applications from the start, ascending, and `goals[e]` the goal
// words among them. A chain read backwards is a chain by the same piece, so the
// graded-chain search over the rules read backwards (for_each_back_step), from the
// goals, gives each position's distance to them in chain moves. It keeps only the
// words of the layer it steps into: a position that reaches a goal has all its
// paths there among the reachable positions, so this changes no distance, and the
// search makes the successors of the positions that can reach a goal alone (7% of
// the English board's classes). The others are dead.
template <GradedChainPacking Packing>
std::shared_ptr<GoalTable> graded_chain_table(const Packing& k, const std::vector<std::vector<std::uint64_t>>& layers,
                                              const std::vector<std::vector<std::uint64_t>>& goals,
                                              const std::string& name, const MemoryBudget& budget, GoalTableHeader h) {
  std::vector<std::vector<ChainEntry>> back(layers.size());
  std::size_t deepest = goals.size();
  for (std::size_t e = 0; e < goals.size(); ++e) {
    if (!goals[e].empty()) deepest = e;
  }
  if (deepest < goals.size()) {
    const auto seeded = [&](std::size_t e, std::vector<ChainEntry> layer) {
      std::vector<ChainEntry> out;
      out.reserve(layer.size() + goals[e].size());
      std::size_t g = 0;
      for (const ChainEntry& x : layer) {
        while (g < goals[e].size() && goals[e][g] < x.word())
          out.push_back({goals[e][g++] << ChainEntry::kCountBits, 0});
        if (g < goals[e].size() && goals[e][g] == x.word()) {
          out.push_back({goals[e][g++] << ChainEntry::kCountBits, 0});
        } else {
          out.push_back(x);
        }
      }
      while (g < goals[e].size()) out.push_back({goals[e][g++] << ChainEntry::kCountBits, 0});
      return out;
    };
    const auto steps = [&k](std::uint64_t w, int bits, std::uint64_t high, auto&& keep) {
      if (bits == 0) {
        k.for_each_back_step(w, keep);
        return;
      }
      k.for_each_back_step(w, [&](std::uint64_t to, std::uint8_t mover, std::uint64_t landed) {
        if (to >> (k.word_bits() - bits) == high) keep(to, mover, landed);
      });
    };
    // Back-search depth j is layer deepest - j.
    const auto shape = [&](std::size_t j, std::vector<ChainEntry>& layer) {
      if (j > deepest) {
        layer.clear();
        return false;
      }
      const std::vector<std::uint64_t>& reachable = layers[deepest - j];
      std::size_t kept = 0, at = 0;
      for (const ChainEntry& x : layer) {
        at = std::size_t(std::lower_bound(reachable.begin() + std::ptrdiff_t(at), reachable.end(), x.word()) -
                         reachable.begin());
        if (at < reachable.size() && reachable[at] == x.word()) layer[kept++] = x;
      }
      layer.resize(kept);
      layer = seeded(deepest - j, std::move(layer));
      for (std::size_t e = 0; e < deepest - j; ++e) {
        if (!goals[e].empty()) return true;
      }
      return false;
    };
    (void)graded_chain_search(
        k, seeded(deepest, {}), name, budget, nullptr,
        [&](std::size_t j, std::span<const ChainEntry> layer) { back[deepest - j].assign(layer.begin(), layer.end()); },
        steps, shape);
  }
  // Each layer's codes, then all layers merged by word.
  std::vector<std::vector<unsigned char>> codes(layers.size());
  std::uint64_t entries = 0;
  for (std::size_t e = 0; e < layers.size(); ++e) {
    codes[e].assign(layers[e].size(), static_cast<unsigned char>(kByteDead));
    std::size_t at = 0;
    for (const ChainEntry& x : back[e]) {
      while (layers[e][at] != x.word()) ++at;
      if (x.moves() > kByteMostDistance) {
        throw std::runtime_error(name + ": --table: distances past " + std::to_string(kByteMostDistance) +
                                 " do not fit the table's byte codes");
      }
      codes[e][at] = static_cast<unsigned char>(kByteFirstDistance + x.moves());
      if (h.layers.size() <= x.moves()) h.layers.resize(x.moves() + 1);
      ++h.layers[x.moves()];
    }
    entries += layers[e].size();
    std::vector<ChainEntry>().swap(back[e]);
  }
  h.encoding = TableEncoding::words;
  h.entries = entries;
  h.reached = entries;
  h.dead = entries;
  for (const std::uint64_t n : h.layers) h.dead -= n;
  budget.require_at_least(GoalTable::bytes(entries, TableEncoding::words) + entries * 9,
                          name + ": graded chain layers and their distance table");
  auto table = std::make_shared<GoalTable>(std::move(h));
  std::uint64_t* const words = table->sorted_words();
  unsigned char* const out = table->word_codes();
  using Head = std::pair<std::uint64_t, std::size_t>;
  std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
  std::vector<std::size_t> at(layers.size(), 0);
  for (std::size_t e = 0; e < layers.size(); ++e) {
    if (!layers[e].empty()) heads.emplace(layers[e][0], e);
  }
  for (std::uint64_t i = 0; !heads.empty(); ++i) {
    const auto [w, e] = heads.top();
    heads.pop();
    words[i] = w;
    out[i] = codes[e][at[e]];
    if (++at[e] < layers[e].size()) heads.emplace(layers[e][at[e]], e);
  }
  return table;
}

}  // namespace detail

template <Puzzle P, GradedChainPacking Packing>
AnalysisResult analyze_graded_chains(const P& p, const AnalyzeOptions& o, const typename P::State& start,
                                     const Packing& k) {
  bool symmetric = false;
  if constexpr (OrbitCountingPuzzle<P>) symmetric = p.symmetries() > 1;
  bool with_goal = false;
  if constexpr (PartialGoalPuzzle<P>) with_goal = p.has_goal();
  std::vector<std::uint64_t> layers, positions, farthest;
  std::uint64_t reached = 0;
  std::optional<unsigned> shortest;
  // analyze --table: every layer's words and its goals.
  std::vector<std::vector<std::uint64_t>> kept, goals;
  std::uint64_t kept_bytes = 0;
  const auto keep_for_table = [&](std::span<const ChainEntry> layer) {
    if (!o.table) return;
    kept_bytes += 8 * layer.size();
    o.memory.require_at_least(kept_bytes + 3 * sizeof(ChainEntry) * layer.size(),
                              p.name() + ": graded chain layers kept for the distance table");
    std::vector<std::uint64_t>& words = kept.emplace_back(layer.size());
    std::vector<std::uint64_t>& found = goals.emplace_back();
    for (std::size_t i = 0; i < layer.size(); ++i) words[i] = layer[i].word();
    if constexpr (GoalTestingPacking<Packing>) {
      if (with_goal) {
        for (const std::uint64_t w : words) {
          if (k.is_goal(w)) found.push_back(w);
        }
      }
    }
  };
  const auto on_layer = [&](std::size_t, std::span<const ChainEntry> layer) {
    keep_for_table(layer);
    for (const ChainEntry& e : layer) {
      const unsigned f = e.moves();
      if (layers.size() <= f) {
        // A larger count than any before: the farthest positions start again.
        layers.resize(f + 1), positions.resize(f + 1);
        farthest.clear();
      }
      ++layers[f];
      if (f + 1 == layers.size()) farthest.push_back(e.word());
    }
    if constexpr (OrbitCountingPuzzle<P>) {
      if (symmetric) {
        for (const ChainEntry& e : layer) {
          if constexpr (requires { k.orbit_size(e.word()); }) {
            positions[e.moves()] += k.orbit_size(e.word());
          } else {
            positions[e.moves()] += p.orbit_size(k.unpack(e.word()));
          }
        }
      }
    }
    if constexpr (GoalTestingPacking<Packing>) {
      if (!with_goal) return;
      for (const ChainEntry& e : layer) {
        if (!k.is_goal(e.word())) continue;
        ++reached;
        if (!shortest || e.moves() < *shortest) shortest = e.moves();
      }
    }
  };
  std::uint64_t states = 0;
  {
    Progress progress(p.name() + " graded chains", o.progress);
    states = graded_chain_layers(k, k.pack(start), p.name(), o.memory, &progress, on_layer);
  }
  // Gathered layer by layer, so in no order.
  std::sort(farthest.begin(), farthest.end());
  AnalysisResult r;
  r.puzzle = p.name();
  r.start = p.format(start);
  r.engine = engine_name(Engine::chains);
  r.lookup = kGradedChainsLookup;
  r.states = states;
  r.directed = is_directed(p);
  r.layers = layers;
  if (symmetric) r.layer_positions = positions;
  r.symmetry = symmetry_group_of(p);
  r.farthest = detail::format_sorted(p, k, farthest);
  const std::string why =
      "the graded-chain engine walks single applications, two layers at a time; --engine levels gives it";
  r.unavailable.push_back({kViewEdges, why});
  if (o.table) {
    GoalTableHeader h;
    h.puzzle = p.name();
    h.goal = p.format(p.goal());
    if constexpr (PartialGoalPuzzle<P>) {
      if (with_goal) h.goal = p.goal_text();
    }
    if (!with_goal) {
      // No goal picture: the distances are to the goal position, in its layer.
      std::uint64_t goal = k.pack(p.goal());
      if constexpr (requires { k.canonical(goal); }) goal = k.canonical(goal);
      for (std::size_t e = 0; e < kept.size(); ++e) {
        if (std::binary_search(kept[e].begin(), kept[e].end(), goal)) goals[e].push_back(goal);
      }
    }
    h.index = "words";
    h.directed = r.directed;
    r.table = detail::graded_chain_table(k, kept, goals, p.name(), o.memory, std::move(h));
    kept.clear(), goals.clear();
    GoalTableHeader& built = r.table->header();
    built.identity = detail::levels_table_identity(k, r.table->sorted_words(), built.entries, p.format(start));
  }
  if (with_goal) {
    GoalView& view = r.goal.emplace();
    if constexpr (PartialGoalPuzzle<P>) view.goal = p.goal_text();
    view.reached = reached;
    view.shortest = shortest;
    if (r.directed) {
      const auto views = goal_views_unavailable(why);
      r.unavailable.insert(r.unavailable.end(), views.begin(), views.end());
    }
  }
  return r;
}

}  // namespace statespace
