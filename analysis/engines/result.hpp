// What an analysis of one puzzle found: plain data, the input of every report
// writer. Engines fill it; reports/ only reads it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace statespace {

class GoalTable;  // analysis/runtime/goal_table.hpp

// Undirected edges (moves counted once) between the positions at depth `from` and
// those at depth `to` (from <= to). On a directed space: the moves from positions at
// depth `from` to positions at depth `to`, in that direction (to <= from + 1, and a
// move may lead back to any earlier depth).
struct LayerEdges {
  unsigned from = 0;
  unsigned to = 0;
  std::uint64_t count = 0;
  friend bool operator==(const LayerEdges&, const LayerEdges&) = default;
};

// The true diameter: max over all sources of their eccentricity, with one pair
// realising it.
struct Diameter {
  unsigned length = 0;
  std::string from;
  std::string to;
  std::string method;         // "all-pairs" or "blank-symmetry"
  std::uint64_t sources = 0;  // BFS runs it took
};

// Connected components of the graph over the whole rank space.
struct Components {
  std::uint64_t positions = 0;       // the rank space
  std::vector<std::uint64_t> sizes;  // descending
  std::uint64_t start = 0;           // the size of the start's component; 0 when not asked
};

// Models with a partial goal (puzzle files): the goal side of the reachable space,
// from a breadth-first search started at every goal position at once.
struct GoalView {
  std::string goal;                   // the goal picture, '*' for any content
  std::uint64_t reached = 0;          // goal positions among the reachable ones
  std::optional<unsigned> shortest;   // the start's distance to the nearest goal; none when unreached
  std::vector<std::uint64_t> layers;  // layers[d] = positions at distance d from the nearest goal
  std::vector<std::string> hardest;   // every position farthest from any goal, canonical order
  // Directed spaces only (the distance is then *to* the goal, by predecessors):
  // reachable positions from which no goal can be reached. layers and hardest count
  // only the positions that can reach a goal. A directed model without predecessors
  // fills goal, reached and shortest only (a search from the start gives them), and
  // leaves layers, hardest and dead_ends empty, named in AnalysisResult::unavailable.
  std::optional<std::uint64_t> dead_ends;
};

// A view of the space a report cannot give, and why: directed spaces without
// predecessors cannot give the distance to the goal, for one.
struct UnavailableView {
  std::string view;    // "distance to the goal", "farthest from the goal", "diameter", ...
  std::string reason;  // one sentence
  friend bool operator==(const UnavailableView&, const UnavailableView&) = default;
};

inline constexpr const char* kViewDistanceToGoal = "distance to the goal";
inline constexpr const char* kViewFarthestFromGoal = "farthest from the goal";
inline constexpr const char* kViewDeadEnds = "dead ends";
inline constexpr const char* kViewEdges = "edges";
inline constexpr const char* kViewLastLevel = "positions at the last depth";
// A search stopped short (AnalysisResult::complete false) lists its last level's
// positions as `farthest` up to this many.
inline constexpr std::uint64_t kMostListedPositions = 1'000'000;

// The positions of a result again, as the CSV files write them when the model writes
// them another way there (TableNotationPuzzle: a sticker file run on its pieces writes
// the per-set notation of its .tws twin, so that both give the same bytes).
struct TablePositions {
  std::string start;
  std::vector<std::string> farthest;  // AnalysisResult::farthest's, in its order
  std::vector<std::string> hardest;   // GoalView::hardest's
  friend bool operator==(const TablePositions&, const TablePositions&) = default;
};

struct AnalysisResult {
  std::string puzzle;
  std::string start;
  std::string engine = "explicit";
  std::string lookup = "ranked";
  std::uint64_t states = 0;
  std::uint64_t edges = 0;            // moves, each counted once
  std::vector<std::uint64_t> layers;  // layers[d] = positions at distance d from the start
  // Models counted up to symmetry (OrbitCountingPuzzle): layers and states count
  // classes, farthest lists one position a class, and layer_positions[d] is how many
  // positions the classes of layers[d] stand for. Empty without symmetry.
  std::vector<std::uint64_t> layer_positions;
  // The group of symmetries asked for and the one used, in words ("the 2 of the
  // board's 8 symmetries that fix the start"); empty when none was asked for.
  std::string symmetry;
  std::vector<std::string> farthest;  // every position at the eccentricity, canonical order
  std::vector<LayerEdges> layer_edges;
  std::optional<Diameter> diameter;
  std::optional<Components> components;
  std::optional<std::uint64_t> comparisons;  // state comparisons made by a linear lookup
  std::optional<GoalView> goal;              // models with a partial goal only
  // Moves that cannot always be undone (DirectedPuzzle): layers are distances from
  // the start along the moves, and edges count each move once in its direction.
  bool directed = false;
  // False when the search stopped before exhausting the space (--max-depth,
  // --partial): layers are exact up to the last depth searched, farthest lists that
  // depth's positions (unless kViewLastLevel is unavailable), layer_edges count the
  // moves out of the depths before it, and edges is unavailable.
  bool complete = true;
  std::vector<UnavailableView> unavailable;  // what the reports must say they cannot give
  // Nothing: the CSV files write start, farthest and goal->hardest as they are.
  std::optional<TablePositions> table_positions;
  // analyze --table: the distance to the goal of every position reached, for the
  // bundle's table file; the reports themselves never read it.
  std::shared_ptr<GoalTable> table;
  // Facts about the run, not the puzzle: they vary between runs and machines.
  int threads = 1;
  double seconds = 0;
  std::uint64_t peak_bytes = 0;
  bool peak_per_run = true;  // false: peak_bytes is the process's (the kernel could not reset it)
  // Read back without its positions (reports::read_summary_counts): how many farthest
  // positions there are, `farthest` left empty.
  std::optional<std::uint64_t> farthest_counted;

  // False when the result names `view` unavailable (UnavailableView).
  [[nodiscard]] bool gives(std::string_view view) const {
    for (const auto& u : unavailable) {
      if (u.view == view) return false;
    }
    return true;
  }

  // The positions the classes stand for (states without symmetry).
  [[nodiscard]] std::uint64_t positions() const {
    if (layer_positions.empty()) return states;
    std::uint64_t n = 0;
    for (const auto k : layer_positions) n += k;
    return n;
  }
  [[nodiscard]] unsigned eccentricity() const { return layers.empty() ? 0 : unsigned(layers.size() - 1); }
  // The positions at the eccentricity (at the last depth searched when incomplete,
  // listed or not).
  [[nodiscard]] std::uint64_t farthest_count() const {
    if (farthest_counted) return *farthest_counted;
    return complete || layers.empty() ? farthest.size() : layers.back();
  }
};

}  // namespace statespace
