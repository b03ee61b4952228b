#include "puzzles/pieces.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <type_traits>

#include "core/errors.hpp"

namespace statespace {

namespace pieces_detail {
namespace {

using Wide = unsigned __int128;
constexpr Wide kMax64 = std::numeric_limits<std::uint64_t>::max();
// Places of a set and kinds of pieces: a place's piece is written as a number up to
// 255 in .tws files, and the work arrays of the hot path live on the stack.
constexpr int kMaxPlaces = SetShape::kMaxPlaces;
// Table entries of one coordinate, and of all: 16 MB and 64 MB of 32-bit digits,
// small beside any analysis that needs the tables; a larger coordinate is moved by
// unranking it alone.
constexpr std::uint64_t kTableEntries = std::uint64_t(1) << 22;
constexpr std::uint64_t kAllTableEntries = std::uint64_t(1) << 24;
// A move whose powers do not return to the identity within this many is refused.
constexpr int kMaxOrder = 1000;

using Kinds = std::array<int, kMaxPlaces + 1>;
static_assert(std::is_same_v<Kinds, decltype(SetShape::counts)>);

// The number of arrangements of `counts` (places: their sum); nothing past 2^64 - 1.
std::optional<std::uint64_t> multinomial(const int* counts, int kinds) {
  Wide m = 1;
  int placed = 0;
  for (int k = 0; k < kinds; ++k) {
    // m *= C(placed + c, c), one factor at a time: each partial product is a binomial,
    // so it divides exactly and stays below 2^64 * 255 while the result fits.
    for (int i = 1; i <= counts[k]; ++i) {
      m = m * Wide(placed + i) / Wide(i);
      if (m > kMax64) return std::nullopt;
    }
    placed += counts[k];
  }
  return std::uint64_t(m);
}

// Lexicographic rank of arrangement a[0, n) of the multiset `counts` (kinds below
// `kinds`): Knuth's multiset ranking, digit by digit with the running multinomial.
std::uint64_t arrangement_rank(const int* a, int n, Kinds c, std::uint64_t total) {
  Wide m = total;
  std::uint64_t r = 0;
  for (int i = 0; i < n; ++i) {
    const int rem = n - i;
    for (int v = 0; v < a[i]; ++v) {
      if (c[std::size_t(v)] != 0) r += std::uint64_t(m * Wide(c[std::size_t(v)]) / Wide(rem));
    }
    m = m * Wide(c[std::size_t(a[i])]) / Wide(rem);
    --c[std::size_t(a[i])];
  }
  return r;
}

void arrangement_unrank(std::uint64_t r, int* a, int n, Kinds c, int kinds, std::uint64_t total) {
  Wide m = total;
  for (int i = 0; i < n; ++i) {
    const int rem = n - i;
    for (int v = 0; v < kinds; ++v) {
      if (c[std::size_t(v)] == 0) continue;
      const Wide sub = m * Wide(c[std::size_t(v)]) / Wide(rem);
      if (r < sub) {
        a[i] = v;
        m = sub;
        --c[std::size_t(v)];
        break;
      }
      r -= std::uint64_t(sub);
    }
  }
}

// 1 for an odd permutation of distinct kinds 0..n-1, by its cycles.
int parity(const int* a, int n) {
  std::array<bool, kMaxPlaces + 1> seen{};
  int p = 0;
  for (int i = 0; i < n; ++i) {
    if (seen[std::size_t(i)]) continue;
    int length = 0;
    for (int j = i; !seen[std::size_t(j)]; j = a[j]) {
      seen[std::size_t(j)] = true;
      ++length;
    }
    p ^= (length + 1) & 1;
  }
  return p;
}

int parity(const std::vector<int>& a) { return parity(a.data(), int(a.size())); }

using SetView = SetShape;

std::uint64_t perm_digit(const SetView& v, const int* a) {
  const std::uint64_t r = arrangement_rank(a, v.n, v.counts, v.arrangements);
  return v.even ? r / 2 : r;
}

void perm_from_digit(const SetView& v, std::uint64_t d, int* a) {
  if (!v.even) {
    arrangement_unrank(d, a, v.n, v.counts, v.kinds, v.arrangements);
    return;
  }
  arrangement_unrank(2 * d, a, v.n, v.counts, v.kinds, v.arrangements);
  if (parity(a, v.n) != v.solved_parity) arrangement_unrank(2 * d + 1, a, v.n, v.counts, v.kinds, v.arrangements);
}

std::uint64_t twist_digit(const SetView& v, const int* d) {
  const int written = v.twist_fixed ? v.n - 1 : v.n;
  std::uint64_t r = 0;
  for (int i = 0; i < written; ++i) r = r * std::uint64_t(v.orientations) + std::uint64_t(d[i]);
  return r;
}

void twist_from_digit(const SetView& v, std::uint64_t r, int* d) {
  const int written = v.twist_fixed ? v.n - 1 : v.n;
  int sum = 0;
  for (int i = written; i-- > 0;) {
    d[i] = int(r % std::uint64_t(v.orientations));
    r /= std::uint64_t(v.orientations);
    sum += d[i];
  }
  if (v.twist_fixed) d[v.n - 1] = ((v.solved_twist - sum) % v.orientations + v.orientations) % v.orientations;
}

std::uint64_t moved(const SetView& v, bool orientation, std::uint64_t digit, const std::vector<int>& perm,
                    const std::vector<int>& twist) {
  std::array<int, kMaxPlaces + 1> a{}, b{};
  if (orientation) {
    twist_from_digit(v, digit, a.data());
    for (int i = 0; i < v.n; ++i) {
      b[std::size_t(i)] = (a[std::size_t(perm[std::size_t(i)])] + twist[std::size_t(i)]) % v.orientations;
    }
    return twist_digit(v, b.data());
  }
  perm_from_digit(v, digit, a.data());
  for (int i = 0; i < v.n; ++i) b[std::size_t(i)] = a[std::size_t(perm[std::size_t(i)])];
  return perm_digit(v, b.data());
}

// Transforms: `a` then `b`, as twsearch multiplies positions by moves.
PieceTransform then(const PieceDefinition& d, const PieceTransform& a, const PieceTransform& b) {
  PieceTransform c = b;
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    const int o = d.sets[k].orientations;
    for (std::size_t i = 0; i < b.perm[k].size(); ++i) {
      const auto from = std::size_t(b.perm[k][i]);
      c.perm[k][i] = a.perm[k][from];
      c.twist[k][i] = (a.twist[k][from] + b.twist[k][i]) % o;
    }
  }
  return c;
}

PieceTransform identity(const PieceDefinition& d) {
  PieceTransform t;
  for (const auto& set : d.sets) {
    std::vector<int> p(std::size_t(set.size));
    std::iota(p.begin(), p.end(), 0);
    t.perm.push_back(p);
    t.twist.emplace_back(std::size_t(set.size), 0);
  }
  return t;
}

PieceTransform inverse(const PieceDefinition& d, const PieceTransform& t) {
  PieceTransform u = t;
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    const int o = d.sets[k].orientations;
    for (std::size_t i = 0; i < t.perm[k].size(); ++i) {
      const auto j = std::size_t(t.perm[k][i]);
      u.perm[k][j] = int(i);
      u.twist[k][j] = (o - t.twist[k][i]) % o;
    }
  }
  return u;
}

// Sizes and values of a transform against the sets; `position`: perm holds pieces
// (any numbers, repeats allowed) rather than places.
void check_transform(const PieceDefinition& d, const PieceTransform& t, bool position, const std::string& what) {
  if (t.perm.size() != d.sets.size() || t.twist.size() != d.sets.size()) {
    throw ParseError(what + ": " + std::to_string(t.perm.size()) + " sets, expected " + std::to_string(d.sets.size()));
  }
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    const auto& set = d.sets[k];
    const auto n = std::size_t(set.size);
    if (t.perm[k].size() != n || t.twist[k].size() != n) {
      throw ParseError(what + ": set " + set.name + " has " + std::to_string(t.perm[k].size()) + " places, expected " +
                       std::to_string(n));
    }
    std::vector<bool> seen(n);
    for (std::size_t i = 0; i < n; ++i) {
      const int v = t.perm[k][i];
      if (position ? (v < 0 || v >= kMaxPlaces) : (v < 0 || std::size_t(v) >= n || seen[std::size_t(v)])) {
        throw ParseError(what + ": set " + set.name + " is not a permutation of its " + std::to_string(n) + " places");
      }
      if (!position) seen[std::size_t(v)] = true;
      if (t.twist[k][i] < 0 || t.twist[k][i] >= set.orientations) {
        throw ParseError(what + ": set " + set.name + " has a twist outside 0.." + std::to_string(set.orientations - 1));
      }
    }
  }
}

// The moves of `metric` from the chosen definition moves, without repeats or the identity.
std::vector<PieceMove> expand(const PieceDefinition& d, PieceMetric metric, const std::vector<const PieceMove*>& base) {
  const PieceTransform id = identity(d);
  std::vector<PieceMove> out;
  const auto add = [&](std::string name, PieceTransform t) {
    if (t == id) return;
    for (const auto& m : out) {
      if (m.transform == t) return;
    }
    out.push_back({std::move(name), std::move(t)});
  };
  for (const PieceMove* m : base) {
    if (metric == PieceMetric::given) {
      add(m->name, m->transform);
    } else if (metric == PieceMetric::quarter) {
      add(m->name, m->transform);
      add(m->name + "'", inverse(d, m->transform));
    } else {
      std::vector<PieceTransform> powers;
      for (PieceTransform p = m->transform; !(p == id); p = then(d, p, m->transform)) {
        if (int(powers.size()) == kMaxOrder) {
          throw ParseError("move " + m->name + ": its powers do not return to the start within " +
                           std::to_string(kMaxOrder) + " turns");
        }
        powers.push_back(p);
      }
      // Named as twsearch names them: R, R2, ..., R2', R' (the shorter way round).
      const int order = int(powers.size()) + 1;
      for (int j = 1; j < order; ++j) {
        const int turns = order - j < j ? j - order : j;
        std::string name = m->name;
        if (turns != 1 && turns != -1) name += std::to_string(turns < 0 ? -turns : turns);
        if (turns < 0) name += "'";
        add(name, powers[std::size_t(j - 1)]);
      }
    }
  }
  return out;
}

}  // namespace

std::uint64_t move_digit(const Tables& t, const Coordinate& c, std::uint64_t digit, const PieceMove& move) {
  const auto k = std::size_t(c.set);
  return moved(t.shapes[std::size_t(c.set)], c.orientation, digit, move.transform.perm[k], move.transform.twist[k]);
}

}  // namespace pieces_detail

using namespace pieces_detail;

Pieces::Pieces(const PieceDefinition& definition, PieceMetric metric, const std::vector<std::string>& chosen) {
  auto t = std::make_shared<Tables>();
  t->definition = definition;
  t->metric = metric;
  const PieceDefinition& d = t->definition;
  if (d.sets.empty()) throw ParseError("no sets of pieces");
  if (d.sets.size() > kMaxSets) {
    throw ParseError(std::to_string(d.sets.size()) + " sets of pieces, at most " + std::to_string(kMaxSets));
  }
  for (const auto& set : d.sets) {
    if (set.size < 1 || set.size > kMaxPlaces || set.orientations < 1 || set.orientations > kMaxPlaces) {
      throw ParseError("set " + set.name + ": 1 to " + std::to_string(kMaxPlaces) + " places and orientations");
    }
  }
  check_transform(d, d.solved, true, "the solved state");
  for (const auto& m : d.moves) check_transform(d, m.transform, false, "move " + m.name);

  // The chosen moves, in the definition's order.
  std::vector<const PieceMove*> base;
  for (const auto& name : chosen) {
    if (std::none_of(d.moves.begin(), d.moves.end(), [&](const PieceMove& m) { return m.name == name; })) {
      std::string names;
      for (const auto& m : d.moves) names += (names.empty() ? "" : ", ") + m.name;
      throw ParseError("unknown move '" + name + "' (expected some of: " + names + ")");
    }
  }
  for (const auto& m : d.moves) {
    if (chosen.empty() || std::find(chosen.begin(), chosen.end(), m.name) != chosen.end()) {
      base.push_back(&m);
      t->chosen.push_back(m.name);
    }
  }
  t->moves = expand(d, metric, base);
  if (t->moves.empty()) throw ParseError("no move changes the position");
  for (const auto& m : t->moves) t->inverses.push_back({m.name, inverse(d, m.transform)});
  for (const auto& inv : t->inverses) {
    if (std::none_of(t->moves.begin(), t->moves.end(),
                     [&](const PieceMove& m) { return m.transform == inv.transform; })) {
      t->directed = true;
    }
  }

  const auto too_many = [] {
    throw ParseError("its positions do not rank below 2^64 (at most 18,446,744,073,709,551,615)");
  };
  // Kinds of pieces per set: the solved state's numbers, ascending.
  Position solved;
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    const auto& set = d.sets[k];
    std::map<int, int> kind;
    for (const int v : d.solved.perm[k]) kind[v] = 0;
    std::vector<std::string> labels;
    for (auto& [value, index] : kind) {
      index = int(labels.size());
      labels.push_back(std::to_string(value + 1));
    }
    std::vector<int> counts(labels.size());
    std::vector<int> perm;
    for (const int v : d.solved.perm[k]) {
      perm.push_back(kind[v]);
      ++counts[std::size_t(kind[v])];
    }
    const bool distinct = int(labels.size()) == set.size;
    bool even = distinct && set.size >= 2, twist_fixed = set.orientations > 1;
    for (const auto& m : t->moves) {
      if (parity(m.transform.perm[k]) != 0) even = false;
      const auto& tw = m.transform.twist[k];
      if (std::accumulate(tw.begin(), tw.end(), 0) % set.orientations != 0) twist_fixed = false;
    }
    const auto& twist = d.solved.twist[k];
    SetShape shape;
    shape.n = set.size;
    shape.orientations = set.orientations;
    shape.kinds = int(counts.size());
    std::copy(counts.begin(), counts.end(), shape.counts.begin());
    const auto arrangements = multinomial(shape.counts.data(), shape.kinds);
    if (!arrangements) too_many();
    shape.arrangements = *arrangements;
    shape.even = even;
    shape.solved_parity = distinct ? parity(perm) : 0;
    shape.twist_fixed = twist_fixed;
    shape.solved_twist = std::accumulate(twist.begin(), twist.end(), 0) % set.orientations;
    t->shapes.push_back(shape);
    t->labels.push_back(labels);
    solved.perm.push_back(perm);
    solved.twist.push_back(twist);
  }

  // The coordinates and their place values, least significant last.
  Wide space = 1;
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    const auto& set = d.sets[k];
    const SetShape& shape = t->shapes[k];
    const std::uint64_t perm_space = shape.even ? shape.arrangements / 2 : shape.arrangements;
    Wide twist_space = 1;
    for (int i = shape.twist_fixed ? 1 : 0; i < set.size; ++i) {
      twist_space *= Wide(set.orientations);
      if (twist_space > kMax64) too_many();
    }
    for (const auto& [s, orientation] : {std::pair{Wide(perm_space), false}, std::pair{twist_space, true}}) {
      if (s == 1) continue;
      Coordinate c;
      c.set = int(k);
      c.orientation = orientation;
      c.space = std::uint64_t(s);
      t->coordinates.push_back(std::move(c));
      space *= s;
      if (space > kMax64) too_many();
    }
  }
  t->space = std::uint64_t(space);
  std::uint64_t weight = 1;
  for (std::size_t i = t->coordinates.size(); i-- > 0;) {
    t->coordinates[i].weight = weight;
    weight *= t->coordinates[i].space;
  }

  // Tables for the coordinates that fit, smallest first so that the budget covers
  // as many as it can.
  std::vector<std::size_t> order(t->coordinates.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return t->coordinates[a].space < t->coordinates[b].space; });
  std::uint64_t entries = 0;
  const std::uint64_t moves = t->moves.size();
  for (const std::size_t i : order) {
    Coordinate& c = t->coordinates[i];
    const std::uint64_t need = c.space * moves * (t->directed ? 2 : 1);
    if (c.space > kTableEntries / moves || entries + need > kAllTableEntries) continue;
    entries += need;
    const SetView& v = t->shapes[std::size_t(c.set)];
    const auto k = std::size_t(c.set);
    for (const bool backward : {false, true}) {
      if (backward && !t->directed) break;
      const auto& list = backward ? t->inverses : t->moves;
      auto& table = backward ? c.backward : c.forward;
      table.resize(c.space * moves);
      for (std::uint64_t digit = 0; digit < c.space; ++digit) {
        for (std::uint64_t m = 0; m < moves; ++m) {
          const auto& tr = list[m].transform;
          table[digit * moves + m] = std::uint32_t(moved(v, c.orientation, digit, tr.perm[k], tr.twist[k]));
        }
      }
    }
  }
  t_ = std::move(t);
  start_ = {position_rank(solved)};
}

std::vector<int> Pieces::row_lengths() const {
  std::vector<int> rows;
  for (const auto& set : t_->definition.sets) {
    rows.push_back(set.size + 1);
    if (set.orientations > 1) rows.push_back(set.size);
  }
  return rows;
}

Pieces::Position Pieces::position(std::uint64_t r) const {
  const Tables& t = *t_;
  Position p;
  for (std::size_t k = 0; k < t.definition.sets.size(); ++k) {
    const auto n = std::size_t(t.definition.sets[k].size);
    p.perm.emplace_back(n, 0);
    p.twist.emplace_back(n, 0);
  }
  std::array<std::uint64_t, 2 * kMaxSets> digit{};
  for (std::size_t i = t.coordinates.size(); i-- > 0;) {
    digit[i] = r % t.coordinates[i].space;
    r /= t.coordinates[i].space;
  }
  std::vector<bool> has_perm(t.definition.sets.size()), has_twist(t.definition.sets.size());
  for (std::size_t i = 0; i < t.coordinates.size(); ++i) {
    const Coordinate& c = t.coordinates[i];
    const auto k = std::size_t(c.set);
    const SetView& v = t.shapes[std::size_t(c.set)];
    if (c.orientation) {
      twist_from_digit(v, digit[i], p.twist[k].data());
      has_twist[k] = true;
    } else {
      perm_from_digit(v, digit[i], p.perm[k].data());
      has_perm[k] = true;
    }
  }
  // A set without a coordinate has one arrangement or one twist vector.
  for (std::size_t k = 0; k < t.definition.sets.size(); ++k) {
    const SetView& v = t.shapes[k];
    if (!has_perm[k]) perm_from_digit(v, 0, p.perm[k].data());
    if (!has_twist[k]) twist_from_digit(v, 0, p.twist[k].data());
  }
  return p;
}

std::uint64_t Pieces::position_rank(const Position& p) const {
  const Tables& t = *t_;
  const auto& sets = t.definition.sets;
  if (p.perm.size() != sets.size() || p.twist.size() != sets.size()) throw ParseError("a position of every set");
  for (std::size_t k = 0; k < sets.size(); ++k) {
    const auto& set = sets[k];
    const SetView& v = t.shapes[k];
    if (p.perm[k].size() != std::size_t(v.n) || p.twist[k].size() != std::size_t(v.n)) {
      throw ParseError("set " + set.name + ": " + std::to_string(v.n) + " places");
    }
    Kinds counts{};
    for (const int x : p.perm[k]) {
      if (x < 0 || x >= v.kinds) throw ParseError("set " + set.name + ": no such piece");
      ++counts[std::size_t(x)];
    }
    if (counts != v.counts) {
      throw ParseError("set " + set.name + ": the pieces differ from the solved state's (each kind as often)");
    }
    if (v.even && parity(p.perm[k]) != v.solved_parity) {
      throw ParseError("set " + set.name + ": an " + (v.solved_parity ? "even" : "odd") +
                       " permutation, which no move reaches (every move is even on this set)");
    }
    int sum = 0;
    for (const int x : p.twist[k]) {
      if (x < 0 || x >= v.orientations) {
        throw ParseError("set " + set.name + ": twists are 0 to " + std::to_string(v.orientations - 1));
      }
      sum += x;
    }
    if (v.twist_fixed && sum % v.orientations != v.solved_twist) {
      throw ParseError("set " + set.name + ": the twists add up to " + std::to_string(sum % v.orientations) +
                       " modulo " + std::to_string(v.orientations) + ", which no move changes from the solved " +
                       std::to_string(v.solved_twist));
    }
  }
  std::uint64_t r = 0;
  for (const Coordinate& c : t.coordinates) {
    const auto k = std::size_t(c.set);
    const SetView& v = t.shapes[std::size_t(c.set)];
    r += c.weight * (c.orientation ? twist_digit(v, p.twist[k].data()) : perm_digit(v, p.perm[k].data()));
  }
  return r;
}

std::string Pieces::format(const State& s) const {
  const Position p = position(s.rank);
  std::string out;
  for (std::size_t k = 0; k < t_->definition.sets.size(); ++k) {
    const auto& set = t_->definition.sets[k];
    if (!out.empty()) out += " / ";
    out += set.name;
    for (const int x : p.perm[k]) out += " " + t_->labels[k][std::size_t(x)];
    if (set.orientations == 1) continue;
    out += " /";
    for (const int x : p.twist[k]) {
      out += ' ';  // appended apart: GCC 12 reports a -Wrestrict false positive for " " + string
      out += std::to_string(x);
    }
  }
  return out;
}

Pieces::State Pieces::parse(std::string_view text) const {
  const Tables& t = *t_;
  const std::string example = format(start_);
  const auto fail = [&](const std::string& problem) -> void {
    throw ParseError("bad position '" + std::string(text.substr(0, 60)) + (text.size() > 60 ? "...'" : "'") + ": " +
                     problem + " (expected set by set: " + example + ")");
  };
  // Rows by '/' or line breaks, tokens by spaces or commas.
  std::vector<std::vector<std::string>> rows(1);
  std::string token;
  const auto end_token = [&] {
    if (!token.empty()) rows.back().push_back(token);
    token.clear();
  };
  for (const char ch : text) {
    if (ch == '/' || ch == '\n') {
      end_token();
      rows.emplace_back();
    } else if (ch == ' ' || ch == '\t' || ch == ',' || ch == '\r') {
      end_token();
    } else {
      token += ch;
    }
  }
  end_token();
  std::erase_if(rows, [](const auto& row) { return row.empty(); });
  Position p;
  std::size_t row = 0;
  for (std::size_t k = 0; k < t.definition.sets.size(); ++k) {
    const auto& set = t.definition.sets[k];
    const auto n = std::size_t(set.size);
    if (row >= rows.size() || rows[row].front() != set.name) fail("set " + set.name + " missing or out of order");
    if (rows[row].size() != n + 1) fail("set " + set.name + " needs " + std::to_string(n) + " pieces");
    std::vector<int> perm;
    for (std::size_t i = 1; i <= n; ++i) {
      const auto& labels = t.labels[k];
      const auto at = std::find(labels.begin(), labels.end(), rows[row][i]);
      if (at == labels.end()) fail("set " + set.name + " has no piece '" + rows[row][i] + "'");
      perm.push_back(int(at - labels.begin()));
    }
    ++row;
    std::vector<int> twist(n, 0);
    if (set.orientations > 1) {
      if (row >= rows.size() || rows[row].size() != n) {
        fail("set " + set.name + " needs a row of " + std::to_string(n) + " twists after its pieces");
      }
      for (std::size_t i = 0; i < n; ++i) {
        const std::string& x = rows[row][i];
        if (x.empty() || x.size() > 3 || !std::all_of(x.begin(), x.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
          fail("twist '" + x + "' of set " + set.name + " is not a number");
        twist[i] = std::stoi(x);
      }
      ++row;
    }
    p.perm.push_back(std::move(perm));
    p.twist.push_back(std::move(twist));
  }
  if (row != rows.size()) fail("more rows than the sets have");
  try {
    return {position_rank(p)};
  } catch (const ParseError& e) {
    fail(e.what());
  }
  return {};
}

std::string Pieces::move_name(const State& from, const State& to) const {
  std::size_t m = 0;
  std::string name = "?";
  for_each_successor_rank(from.rank, [&](std::uint64_t r) {
    if (r == to.rank && name == "?") name = t_->moves[m].name;
    ++m;
  });
  return name;
}

}  // namespace statespace
