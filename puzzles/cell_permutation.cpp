#include "puzzles/cell_permutation.hpp"

#include <algorithm>
#include <bit>
#include <charconv>

namespace statespace {

namespace {

using Permutation = std::array<std::uint8_t, CellState::kMaxCells>;

constexpr int kMaxOrder = 64;
// Moves after the metric's powers are added. Real puzzles have a few dozen; the
// limit keeps a stranger's file from making the duplicate check quadratic in its
// size and the packed move table (moves x 2 KiB per byte of state) unbounded.
constexpr std::size_t kMaxMoves = 256;

Permutation identity(int n) {
  Permutation p{};
  for (int i = 0; i < n; ++i) p[std::size_t(i)] = std::uint8_t(i);
  return p;
}

// a then b, in the `from` form: cell i ends up holding what cell a.from[b.from[i]] held.
Permutation then(const Permutation& a, const Permutation& b, int n) {
  Permutation p{};
  for (int i = 0; i < n; ++i) p[std::size_t(i)] = a[b[std::size_t(i)]];
  return p;
}

Permutation inverse(const Permutation& a, int n) {
  Permutation p{};
  for (int i = 0; i < n; ++i) p[a[std::size_t(i)]] = std::uint8_t(i);
  return p;
}

// Cycle notation "(1,2,3)(4,5)" over cells 1..n into the `from` form.
Permutation read_cycles(const TomlInput& file, const toml::node& at, const std::string& name, const std::string& text,
                        int n) {
  const std::string form = "a permutation of cells 1.." + std::to_string(n) + " in cycle notation, \"(1,2,3)(4,5)\"";
  const auto fail = [&](std::size_t offset, const std::string& what) {
    fail_in_string(file, at, offset, "move '" + name + "': " + what + " (expected " + form + ")");
  };
  Permutation from = identity(n);
  std::vector<char> used(std::size_t(n), 0);
  bool moves_any = false;
  std::size_t i = 0;
  const auto skip_space = [&] {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  };
  skip_space();
  while (i < text.size()) {
    if (text[i] != '(') fail(i, std::string("'") + text[i] + "' where a cycle should open");
    ++i;
    std::vector<int> cycle;
    while (true) {
      skip_space();
      if (i >= text.size()) fail(i, "a cycle without its ')'");
      if (text[i] == ')') break;
      const std::size_t begin = i;
      int cell = 0;
      const auto [end, ec] = std::from_chars(text.data() + i, text.data() + text.size(), cell);
      if (ec != std::errc{}) fail(begin, "a cycle that is not cell numbers separated by commas");
      i = std::size_t(end - text.data());
      if (cell < 1 || cell > n) fail(begin, "cell " + std::to_string(cell) + " is out of range");
      if (used[std::size_t(cell - 1)])
        fail(begin, "cell " + std::to_string(cell) + " appears twice: not a permutation");
      used[std::size_t(cell - 1)] = 1;
      cycle.push_back(cell - 1);
      skip_space();
      if (i < text.size() && text[i] == ',') ++i;
    }
    ++i;
    if (cycle.size() < 2) fail(i - 1, "a cycle of fewer than two cells");
    for (std::size_t k = 0; k < cycle.size(); ++k) {
      // (a,b,...): the label on a goes to b, so b now holds what a held.
      from[std::size_t(cycle[(k + 1) % cycle.size()])] = std::uint8_t(cycle[k]);
    }
    moves_any = true;
    skip_space();
  }
  if (!moves_any) fail(0, "moves no cell");
  return from;
}

}  // namespace

CellPermutation::CellPermutation(const TomlInput& file) {
  const auto& root = file.root();
  // `sets` names the pieces the stickers form (puzzles/sticker_pieces.hpp reads it).
  file.check_keys(root, {"name", "title", "kind", "start", "goal", "rows", "metric", "moves", "sets"});
  const auto start = *file.string(root, "start", true, "start = \"U U R R\", the label on each cell 1..n");
  labels_ = CellLabels(file, *root.get("start"), start, false);
  const int n = labels_.cells();

  metric_ = file.string(root, "metric", false, "metric = \"quarter\", \"all-powers\" or \"given\"").value_or("quarter");
  if (metric_ != "quarter" && metric_ != "all-powers" && metric_ != "given") {
    file.fail(*root.get("metric"), "unknown metric '" + metric_ + "' (expected quarter, all-powers or given)");
  }
  const toml::node* moves_node = root.get("moves");
  if (!moves_node || !moves_node->as_table() || moves_node->as_table()->empty()) {
    file.fail(moves_node ? *moves_node : static_cast<const toml::node&>(root),
              "missing [moves] (expected a table of moves, R = \"(1,2,3,4)(5,6)\")");
  }
  struct Generator {
    std::string name;
    Permutation from;
    const toml::node* at;
  };
  std::vector<Generator> generators;
  const auto too_many = [&](const toml::node& at, const std::string& name) {
    file.fail(at, "move '" + name + "' makes more than " + std::to_string(kMaxMoves) + " moves (expected at most " +
                      std::to_string(kMaxMoves) + " moves, counting the powers the metric adds)");
  };
  for (const auto& [key, value] : *moves_node->as_table()) {
    const std::string name(key.str());
    if (generators.size() == kMaxMoves) too_many(value, name);
    const auto* text = value.as_string();
    if (!text) file.fail(value, "move '" + name + "' must be a string (expected cycle notation, \"(1,2,3)(4,5)\")");
    generators.push_back({name, read_cycles(file, value, name, text->get(), n), &value});
  }

  const Permutation id = identity(n);
  const auto add = [&](const std::string& name, const Permutation& p, const toml::node& at) {
    for (const Move& m : moves_) {
      if (m.from == p) {
        file.fail(at, "move '" + name + "' is the same permutation as '" + m.name + "' (expected distinct moves)");
      }
    }
    if (moves_.size() == kMaxMoves) too_many(at, name);
    moves_.push_back({name, p});
  };
  for (const auto& g : generators) {
    if (metric_ == "given") {
      add(g.name, g.from, *g.at);
      continue;
    }
    std::vector<Permutation> powers{g.from};
    while (powers.back() != id) {
      if (int(powers.size()) > kMaxOrder) {
        file.fail(*g.at, "move '" + g.name + "' has an order above " + std::to_string(kMaxOrder) +
                             " (expected shorter cycles, or metric = \"quarter\")");
      }
      powers.push_back(then(powers.back(), g.from, n));
    }
    const int order = int(powers.size());  // powers[k] = g^(k+1); the last is the identity
    if (metric_ == "quarter") {
      add(g.name, g.from, *g.at);
      if (order > 2) add(g.name + "'", powers[std::size_t(order - 2)], *g.at);
    } else {
      for (int k = 1; k < order; ++k) {
        const std::string name = k == 1 ? g.name : (k == order - 1 ? g.name + "'" : g.name + std::to_string(k));
        add(name, powers[std::size_t(k - 1)], *g.at);
      }
    }
  }
  if (metric_ == "given") {
    for (std::size_t k = 0; k < moves_.size(); ++k) {
      const Permutation inv = inverse(moves_[k].from, n);
      if (std::none_of(moves_.begin(), moves_.end(), [&](const Move& m) { return m.from == inv; })) {
        file.fail(*generators[k].at, "move '" + moves_[k].name +
                                         "' has no inverse among the moves (expected a move set closed under "
                                         "inverses, or metric = \"quarter\")");
      }
    }
  }

  goal_ = labels_.start();
  if (const auto goal = file.string(root, "goal", false, "goal = a position like start")) {
    goal_ = labels_.parse_at(file, *root.get("goal"), *goal);
  }
}

template <class W>
std::optional<BasicCellPacking<W>> BasicCellPacking<W>::make(const std::vector<Permutation>& moves,
                                                             const CellState& start, int cells, int codes) {
  BasicCellPacking k;
  k.start_ = start;
  k.moves_ = int(moves.size());
  k.bits_ = std::max(1, int(std::bit_width(unsigned(codes - 1))));
  std::array<int, CellState::kMaxCells> field{};  // cell -> its field's index, the first cell highest
  for (int i = 0; i < cells; ++i) {
    if (std::any_of(moves.begin(), moves.end(), [&](const Permutation& m) { return m[std::size_t(i)] != i; })) {
      k.moving_.push_back(std::uint8_t(i));
    }
  }
  const int used = int(k.moving_.size()) * k.bits_;
  if (used > kWordBits) return std::nullopt;
  k.bytes_ = std::max(1, (used + 7) / 8);
  for (std::size_t j = 0; j < k.moving_.size(); ++j) field[k.moving_[j]] = int(k.moving_.size() - 1 - j);
  k.table_.assign(std::size_t(k.moves_) * std::size_t(k.bytes_) * 256, 0);
  for (int m = 0; m < k.moves_; ++m) {
    // Bit b of the field of cell from[i] goes to bit b of the field of cell i.
    std::array<int, kWordBits> to{};
    for (const std::uint8_t i : k.moving_) {
      const int source = field[moves[std::size_t(m)][i]];
      for (int b = 0; b < k.bits_; ++b) to[std::size_t(source * k.bits_ + b)] = field[i] * k.bits_ + b;
    }
    for (int byte = 0; byte < k.bytes_; ++byte) {
      W* row = &k.table_[(std::size_t(m) * std::size_t(k.bytes_) + std::size_t(byte)) * 256];
      for (int value = 0; value < 256; ++value) {
        for (int t = 0; t < 8 && 8 * byte + t < used; ++t) {
          if (value >> t & 1) row[value] |= W{1} << to[std::size_t(8 * byte + t)];
        }
      }
    }
  }
  return k;
}

template class BasicCellPacking<std::uint64_t>;
template class BasicCellPacking<unsigned __int128>;

std::optional<CellPacking> CellPermutation::packing(const State& s) const {
  std::vector<CellPacking::Permutation> from;
  for (const Move& m : moves_) from.push_back(m.from);
  return CellPacking::make(from, s, labels_.cells(), labels_.codes());
}

std::optional<WideCellPacking> CellPermutation::wide_packing(const State& s) const {
  std::vector<WideCellPacking::Permutation> from;
  for (const Move& m : moves_) from.push_back(m.from);
  return WideCellPacking::make(from, s, labels_.cells(), labels_.codes());
}

std::string CellPermutation::move_name(const State& from, const State& to) const {
  for (const Move& m : moves_) {
    if (apply(from, m) == to) return m.name;
  }
  return "?";
}

}  // namespace statespace
