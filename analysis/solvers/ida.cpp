#include "analysis/solvers/ida.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <limits>
#include <stdexcept>

namespace statespace {

AdditiveHeuristic::AdditiveHeuristic(const Tiles& t, std::vector<const PatternDatabase*> databases, bool reflect)
    : t_(t), databases_(std::move(databases)), reflect_(reflect && t.rows() == t.cols()) {
  if (databases_.size() > kMaxGroups) throw std::invalid_argument("AdditiveHeuristic: too many groups");
  group_.fill(-1);
  for (std::size_t g = 0; g < databases_.size(); ++g) {
    for (const int v : databases_[g]->tiles()) {
      if (v < 1 || v >= t.cells() || group_[std::size_t(v)] != -1) {
        throw std::invalid_argument("AdditiveHeuristic: the databases must cover each tile once");
      }
      group_[std::size_t(v)] = std::int8_t(g);
    }
  }
  for (int v = 1; v < t.cells(); ++v) {
    if (group_[std::size_t(v)] == -1) throw std::invalid_argument("AdditiveHeuristic: a tile is in no database");
  }
  for (int c = 0; c < t.cells(); ++c) {
    mirror_cell_[std::size_t(c)] = std::uint8_t(reflect_ ? (c % t.cols()) * t.cols() + c / t.cols() : c);
  }
  for (int v = 1; v < t.cells(); ++v) mirror_tile_[std::size_t(v)] = std::uint8_t(mirror_cell(v - 1) + 1);
}

namespace {

// The search state: the board both ways round (cell -> tile, tile -> cell), the
// mirrored tile positions, and each group's value both ways, kept up to date move by
// move: a move changes one tile, so one group on each side.
struct Node {
  Board board;
  std::array<std::uint8_t, Board::kMaxCells> pos{};
  std::array<std::uint8_t, Board::kMaxCells> mirror_pos{};
  std::array<std::uint8_t, AdditiveHeuristic::kMaxGroups> value{};
  std::array<std::uint8_t, AdditiveHeuristic::kMaxGroups> mirror_value{};
  int sum = 0;
  int mirror_sum = 0;
  int blank = 0;
  int g = 0;
  int previous = -1;  // the blank's cell before the last move
  bool goal = false;
  std::vector<std::uint8_t> moves;  // the blank's cells after each move (work items only)
};

int clamp_value(int v) { return std::min(v, 255); }

Node make_node(const AdditiveHeuristic& h, Board b) {
  Node s;
  s.board = b;
  const int n = h.tiles().cells();
  for (int c = 0; c < n; ++c) {
    const unsigned v = b.at(c);
    s.pos[v] = std::uint8_t(c);
    if (v) s.mirror_pos[std::size_t(h.mirror_tile(int(v)))] = std::uint8_t(h.mirror_cell(c));
  }
  s.blank = s.pos[0];
  for (std::size_t g = 0; g < h.groups(); ++g) {
    s.value[g] = std::uint8_t(clamp_value(h.value(g, s.pos.data())));
    s.sum += s.value[g];
    if (h.reflects()) {
      s.mirror_value[g] = std::uint8_t(clamp_value(h.value(g, s.mirror_pos.data())));
      s.mirror_sum += s.mirror_value[g];
    }
  }
  return s;
}

class Searcher {
 public:
  Searcher(const AdditiveHeuristic& h, Board goal, const std::atomic<std::size_t>* best, std::size_t index)
      : h_(h), goal_(goal), best_(best), index_(index) {}

  std::uint64_t nodes = 0;
  int next_bound = std::numeric_limits<int>::max();
  std::vector<std::uint8_t> moves;

  [[nodiscard]] int estimate(const Node& s) const { return std::max(s.sum, s.mirror_sum); }

  // Slides the tile at `to` into the blank; returns what undo() needs.
  struct Undo {
    int tile, group, mirror_group;
    std::uint8_t value, mirror_value;
  };
  Undo apply(Node& s, int to) const {
    const int tile = int(s.board.at(to));
    const int from = s.blank;
    Undo u{tile, h_.group_of(tile), 0, 0, 0};
    s.board = s.board.slid(to, from);
    s.pos[std::size_t(tile)] = std::uint8_t(from);
    s.blank = to;
    u.value = s.value[std::size_t(u.group)];
    s.value[std::size_t(u.group)] = std::uint8_t(clamp_value(h_.value(std::size_t(u.group), s.pos.data())));
    s.sum += s.value[std::size_t(u.group)] - u.value;
    if (h_.reflects()) {
      const int mt = h_.mirror_tile(tile);
      u.mirror_group = h_.group_of(mt);
      s.mirror_pos[std::size_t(mt)] = std::uint8_t(h_.mirror_cell(from));
      u.mirror_value = s.mirror_value[std::size_t(u.mirror_group)];
      s.mirror_value[std::size_t(u.mirror_group)] =
          std::uint8_t(clamp_value(h_.value(std::size_t(u.mirror_group), s.mirror_pos.data())));
      s.mirror_sum += s.mirror_value[std::size_t(u.mirror_group)] - u.mirror_value;
    }
    return u;
  }
  void undo(Node& s, int to, const Undo& u) const {
    const int from = int(s.pos[std::size_t(u.tile)]);
    s.board = s.board.slid(from, to);
    s.pos[std::size_t(u.tile)] = std::uint8_t(to);
    s.blank = from;
    s.sum += u.value - s.value[std::size_t(u.group)];
    s.value[std::size_t(u.group)] = u.value;
    if (h_.reflects()) {
      const int mt = h_.mirror_tile(u.tile);
      s.mirror_pos[std::size_t(mt)] = std::uint8_t(h_.mirror_cell(to));
      s.mirror_sum += u.mirror_value - s.mirror_value[std::size_t(u.mirror_group)];
      s.mirror_value[std::size_t(u.mirror_group)] = u.mirror_value;
    }
  }

  // Depth-first below s (at depth g) within `bound`; on success `moves` holds the
  // blank cells of the rest of the path.
  bool search(Node& s, int g, int bound, int previous) {
    if (best_->load(std::memory_order_relaxed) < index_) return false;  // an earlier subtree solved it
    const Tiles& t = h_.tiles();
    const int blank = s.blank;
    for (int k = 0; k < t.degree(blank); ++k) {
      const int to = t.neighbour(blank, k);
      if (to == previous) continue;
      ++nodes;
      const Undo u = apply(s, to);
      const int est = estimate(s);
      const int f = g + 1 + est;
      if (f > bound) {
        next_bound = std::min(next_bound, f);
      } else if (est == 0 && s.board == goal_) {
        moves.push_back(std::uint8_t(to));
        undo(s, to, u);
        return true;
      } else {
        moves.push_back(std::uint8_t(to));
        if (search(s, g + 1, bound, blank)) {
          undo(s, to, u);
          return true;
        }
        moves.pop_back();
      }
      undo(s, to, u);
    }
    return false;
  }

 private:
  const AdditiveHeuristic& h_;
  Board goal_;
  const std::atomic<std::size_t>* best_;
  std::size_t index_;
};

constexpr std::size_t kWorkItems = 1024;
constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

}  // namespace

int AdditiveHeuristic::operator()(Board b) const {
  const Node s = make_node(*this, b);
  return std::max(s.sum, s.mirror_sum);
}

IdaResult solve_ida(const AdditiveHeuristic& h, Board start) {
  const Tiles& t = h.tiles();
  const Board goal = t.goal();
  IdaResult result;
  const Node root = make_node(h, start);
  std::atomic<std::size_t> never{kNone};
  Searcher expander(h, goal, &never, 0);
  result.initial_bound = expander.estimate(root);
  std::vector<std::uint8_t> solution;
  int bound = result.initial_bound;
  if (start == goal) {
    result.path = {start};
    return result;
  }
  while (true) {
    ++result.iterations;
    if (bound >= AdditiveHeuristic::kInfinity) throw std::logic_error("solve_ida: no solution in the goal's class");
    // Work items: the frontier of a breadth-first expansion in depth-first order.
    Searcher prefix(h, goal, &never, 0);
    std::vector<Node> items{root};
    bool grown = true;
    while (items.size() < kWorkItems && grown) {
      grown = false;
      std::vector<Node> next;
      for (Node& item : items) {
        if (item.goal) {
          next.push_back(std::move(item));
          continue;
        }
        for (int k = 0; k < t.degree(item.blank); ++k) {
          const int to = t.neighbour(item.blank, k);
          if (to == item.previous) continue;
          ++prefix.nodes;
          Node child = item;
          (void)prefix.apply(child, to);
          const int est = prefix.estimate(child);
          const int f = item.g + 1 + est;
          if (f > bound) {
            prefix.next_bound = std::min(prefix.next_bound, f);
            continue;
          }
          child.previous = item.blank;
          child.g = item.g + 1;
          child.goal = est == 0 && child.board == goal;
          child.moves.push_back(std::uint8_t(to));
          next.push_back(std::move(child));
          grown = true;
        }
      }
      items = std::move(next);
    }
    result.nodes += prefix.nodes;
    int next_bound = prefix.next_bound;

    std::atomic<std::size_t> best{kNone};
    std::vector<std::uint64_t> nodes(items.size(), 0);
    std::vector<int> bounds(items.size(), std::numeric_limits<int>::max());
    std::vector<std::vector<std::uint8_t>> found(items.size());
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, items.size(), 1),
        [&](const auto& range) {
          for (std::size_t i = range.begin(); i != range.end(); ++i) {
            if (best.load(std::memory_order_relaxed) < i) return;
            Node s = items[i];
            bool ok = s.goal;
            Searcher searcher(h, goal, &best, i);
            if (!ok) ok = searcher.search(s, s.g, bound, s.previous);
            nodes[i] = searcher.nodes;
            bounds[i] = searcher.next_bound;
            if (!ok) continue;
            found[i] = std::move(searcher.moves);
            std::size_t b = best.load();
            while (i < b && !best.compare_exchange_weak(b, i)) {
            }
          }
        },
        tbb::simple_partitioner());
    const std::size_t winner = best.load();
    for (std::size_t i = 0; i < items.size() && i <= winner; ++i) {
      result.nodes += nodes[i];
      next_bound = std::min(next_bound, bounds[i]);
    }
    if (winner != kNone) {
      solution = items[winner].moves;
      solution.insert(solution.end(), found[winner].begin(), found[winner].end());
      break;
    }
    if (next_bound == std::numeric_limits<int>::max()) throw std::logic_error("solve_ida: search space exhausted");
    bound = next_bound;
  }
  result.path.push_back(start);
  Board b = start;
  int blank = find_blank(b, t.cells());
  for (const std::uint8_t to : solution) {
    b = b.slid(to, blank);
    blank = to;
    result.path.push_back(b);
  }
  return result;
}

PdbHeuristic load_heuristic(const Tiles& t, const Partition& partition, const std::filesystem::path& dir,
                            std::ostream& log, bool reflect, bool show_progress) {
  PdbHeuristic out;
  out.partition = partition;
  for (const auto& group : partition.groups) {
    LoadedDatabase loaded = load_or_build(t, group, dir, log, show_progress);
    out.seconds += loaded.seconds;
    out.built = out.built || loaded.built;
    out.databases.push_back(std::move(loaded.db));
  }
  std::vector<const PatternDatabase*> pointers;
  for (const auto& db : out.databases) pointers.push_back(&db);
  out.heuristic = std::make_unique<AdditiveHeuristic>(t, std::move(pointers), reflect);
  return out;
}

}  // namespace statespace
