#include "puzzles/wide_pieces.hpp"

#include <algorithm>
#include <bit>
#include <map>

#include "core/errors.hpp"
#include "core/text.hpp"

namespace statespace {

namespace wide_pieces_detail {

namespace {

// Each set's field width: kind * orientations + twist.
std::vector<int> field_bits(const PieceDefinition& d, const std::vector<std::vector<std::string>>& labels) {
  std::vector<int> bits;
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    const int values = int(labels[k].size()) * d.sets[k].orientations;
    bits.push_back(values <= 1 ? 0 : int(std::bit_width(unsigned(values - 1))));
  }
  return bits;
}

// The bits used in each limb, the fields laid out place by place from the top of the
// first limb down, moving to the next limb for good at the first field that does not
// fit (word order stays place order). The top bits of a word are then always the
// first fields: the sort's buckets and the passes of a level (successors_within)
// split on them.
std::vector<int> limb_use(const PieceDefinition& d, const std::vector<int>& bits) {
  std::vector<int> used{0};
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    for (int i = 0; i < d.sets[k].size && bits[k] > 0; ++i) {
      if (used.back() + bits[k] > 64) used.push_back(0);
      used.back() += bits[k];
    }
  }
  return used;
}

// Each kind's index among the labels, per set, by its piece number from 0.
std::vector<std::map<int, int>> kinds(const Tables& t) {
  std::vector<std::map<int, int>> kind_of(t.labels.size());
  for (std::size_t k = 0; k < t.labels.size(); ++k) {
    for (std::size_t j = 0; j < t.labels[k].size(); ++j) kind_of[k][std::stoi(t.labels[k][j]) - 1] = int(j);
  }
  return kind_of;
}

}  // namespace

int limbs_needed(const PieceDefinition& d) {
  return int(limb_use(d, field_bits(d, pieces_detail::piece_labels(d))).size());
}

std::shared_ptr<const Tables> make_tables(const PieceDefinition& definition, PieceMetric metric,
                                          const std::vector<std::string>& chosen, int limbs) {
  auto t = std::make_shared<Tables>();
  t->definition = definition;
  t->metric = metric;
  const PieceDefinition& d = t->definition;
  t->moves = pieces_detail::metric_moves(d, metric, chosen, t->chosen);
  for (const auto& m : t->moves) {
    const PieceTransform back = pieces_detail::inverse_transform(d, m.transform);
    if (std::none_of(t->moves.begin(), t->moves.end(), [&](const PieceMove& n) { return n.transform == back; })) {
      t->directed = true;
    }
  }
  t->labels = pieces_detail::piece_labels(d);
  const std::size_t sets = d.sets.size();
  t->bits = field_bits(d, t->labels);
  const std::vector<int> used = limb_use(d, t->bits);
  if (int(used.size()) > limbs) {
    throw ParseError("its positions do not rank below 2^64, and its places take " +
                     std::to_string(64 * (used.size() - 1) + std::size_t(used.back())) + " bits of words of " +
                     std::to_string(64 * limbs) + " (each a field of kind and twist)");
  }
  t->limbs = limbs;
  // Each limb's fields from its top down; those of the word's last limb at its
  // bottom, so that a table of 128-bit words keeps few low bytes of each.
  t->limb.resize(sets);
  t->shift.resize(sets);
  std::size_t at = 0;
  int left = 64;
  for (std::size_t k = 0; k < sets; ++k) {
    const auto n = std::size_t(d.sets[k].size);
    t->limb[k].assign(n, 0);
    t->shift[k].assign(n, 0);
    const int b = t->bits[k];
    for (std::size_t i = 0; i < n && b > 0; ++i) {
      if (b > left) ++at, left = 64;
      left -= b;
      t->limb[k][i] = std::uint8_t(at);
      const int bottom = at + 1 == std::size_t(limbs) ? 64 - used[at] : 0;
      t->shift[k][i] = std::uint8_t(left - bottom);
    }
  }

  // Each kind's index among the labels, per set.
  const std::vector<std::map<int, int>> kind_of = kinds(*t);
  t->wild.resize(sets);
  for (std::size_t k = 0; k < sets && k < d.wild.size(); ++k) {
    if (d.wild[k].empty()) continue;
    t->wild[k].resize(t->labels[k].size());
    for (std::size_t i = 0; i < d.wild[k].size(); ++i) {
      if (d.wild[k][i]) t->wild[k][std::size_t(kind_of[k].at(d.solved.perm[k][i]))] = true;
    }
  }
  for (const PieceIllegal& rule : d.illegal) {
    const auto k = std::size_t(rule.set), i = std::size_t(rule.place);
    if (t->bits[k] == 0) continue;  // one kind, and the solved state keeps it there
    const auto at = std::find_if(t->forbidden.begin(), t->forbidden.end(), [&](const Tables::Forbidden& f) {
      return f.limb == t->limb[k][i] && f.shift == t->shift[k][i];
    });
    Tables::Forbidden& f = at != t->forbidden.end() ? *at : t->forbidden.emplace_back();
    f.limb = t->limb[k][i];
    f.shift = t->shift[k][i];
    f.mask = std::uint32_t((std::uint64_t{1} << t->bits[k]) - 1);
    f.value.resize(std::size_t(f.mask) + 1);
    const int o = d.sets[k].orientations;
    const int kind = kind_of[k].at(rule.piece);
    for (int x = 0; x < o; ++x) f.value[std::size_t(kind * o + x)] = true;
  }
  // A twist of a field: kind * orientations + twist, the twist raised modulo them; a
  // wild kind's twist stays 0.
  std::vector<std::vector<std::int32_t>> twisted_at(sets);
  for (std::size_t k = 0; k < sets; ++k) {
    const int o = d.sets[k].orientations;
    const int values = int(t->labels[k].size()) * o;
    twisted_at[k].assign(std::size_t(o), -1);
    for (int turn = 1; turn < o && t->bits[k] > 0; ++turn) {
      twisted_at[k][std::size_t(turn)] = std::int32_t(t->twisted.size());
      for (int v = 0; v < values; ++v) {
        const bool wild = !t->wild[k].empty() && t->wild[k][std::size_t(v / o)];
        t->twisted.push_back(std::uint32_t(v - v % o + (wild ? 0 : (v % o + turn) % o)));
      }
    }
  }
  t->first.push_back(0);
  for (const auto& m : t->moves) {
    std::vector<std::uint64_t> keep(std::size_t(limbs), ~std::uint64_t{0});
    bool changes = false;
    for (std::size_t k = 0; k < sets; ++k) {
      const int b = t->bits[k];
      if (b == 0) continue;
      // A position stays in place only when each cycle of the move holds pieces of one
      // kind, so only pieces with a twin stand on its cycles: cycles covering more
      // places than there are such pieces (the Square-1's turns cover 12 places, its
      // pieces alike are 8) change every position, as do moves of distinct pieces.
      // Others (the Nautilus's turns cycle 36 places of its 58 fillers) may leave a
      // position as it is, whether or not one is reachable: the engine then counts
      // its self-loops (may_stay).
      std::map<int, int> count;
      for (const int v : d.solved.perm[k]) ++count[v];
      int twins = 0;
      for (const auto& [v, c] : count) twins += c > 1 ? c : 0;
      int cycled = 0;
      for (std::size_t i = 0; i < std::size_t(d.sets[k].size); ++i) cycled += m.transform.perm[k][i] != int(i);
      changes = changes || cycled > twins;
      const bool distinct = t->labels[k].size() == std::size_t(d.sets[k].size);
      const std::uint64_t mask = (std::uint64_t{1} << b) - 1;
      for (std::size_t i = 0; i < std::size_t(d.sets[k].size); ++i) {
        const auto from = std::size_t(m.transform.perm[k][i]);
        const int turn = m.transform.twist[k][i];
        if (from == i && turn == 0) continue;
        // Distinct pieces moved or twisted: no position stays in place (unless the
        // twist may fall on a piece whose twist is not counted).
        changes = changes || (distinct && (from != i || t->wild[k].empty()));
        keep[t->limb[k][i]] &= ~(mask << t->shift[k][i]);
        t->fields.push_back({t->limb[k][i], t->limb[k][from], t->shift[k][i], t->shift[k][from], std::uint32_t(mask),
                             twisted_at[k][std::size_t(turn)]});
      }
    }
    t->may_stay = t->may_stay || !changes;
    // The fields landing in the first limb first, from its top down: successors_within
    // then knows a successor's top bits after the first of them.
    std::sort(t->fields.begin() + std::ptrdiff_t(t->first.back()), t->fields.end(), [](const Field& a, const Field& b) {
      return a.to_limb != b.to_limb ? a.to_limb < b.to_limb : a.to_shift > b.to_shift;
    });
    t->keep.insert(t->keep.end(), keep.begin(), keep.end());
    t->first.push_back(t->fields.size());
  }
  return t;
}

PiecePosition position(const Tables& t, const std::uint64_t* limb) {
  PiecePosition p;
  for (std::size_t k = 0; k < t.definition.sets.size(); ++k) {
    const auto n = std::size_t(t.definition.sets[k].size);
    const int o = t.definition.sets[k].orientations;
    const std::uint64_t mask = (std::uint64_t{1} << t.bits[k]) - 1;
    auto& perm = p.perm.emplace_back(n, 0);
    auto& twist = p.twist.emplace_back(n, 0);
    for (std::size_t i = 0; i < n && t.bits[k] > 0; ++i) {
      const int v = int((limb[t.limb[k][i]] >> t.shift[k][i]) & mask);
      perm[i] = v / o;
      twist[i] = v % o;
    }
  }
  return p;
}

void put_position(const Tables& t, const PiecePosition& p, std::uint64_t* limb) {
  const auto& sets = t.definition.sets;
  if (p.perm.size() != sets.size() || p.twist.size() != sets.size()) throw ParseError("a position of every set");
  std::fill_n(limb, t.limbs, 0);
  for (std::size_t k = 0; k < sets.size(); ++k) {
    const auto& set = sets[k];
    const auto n = std::size_t(set.size);
    if (p.perm[k].size() != n || p.twist[k].size() != n) {
      throw ParseError("set " + set.name + ": " + std::to_string(n) + " places");
    }
    std::vector<int> counts(t.labels[k].size()), want(t.labels[k].size());
    for (const int x : p.perm[k]) {
      if (x < 0 || std::size_t(x) >= counts.size()) throw ParseError("set " + set.name + ": no such piece");
      ++counts[std::size_t(x)];
    }
    for (const int v : t.definition.solved.perm[k]) {
      const auto at = std::find(t.labels[k].begin(), t.labels[k].end(), std::to_string(v + 1));
      ++want[std::size_t(at - t.labels[k].begin())];
    }
    if (counts != want) {
      throw ParseError("set " + set.name + ": the pieces differ from the solved state's (each kind as often)");
    }
    for (std::size_t i = 0; i < n; ++i) {
      int x = p.twist[k][i];
      if (x < 0 || x >= set.orientations) {
        throw ParseError("set " + set.name + ": twists are 0 to " + std::to_string(set.orientations - 1));
      }
      // A wild piece's twist is not counted: any twist names the position of twist 0.
      if (!t.wild[k].empty() && t.wild[k][std::size_t(p.perm[k][i])]) x = 0;
      if (t.bits[k] == 0) continue;
      limb[t.limb[k][i]] |= std::uint64_t(p.perm[k][i] * set.orientations + x) << t.shift[k][i];
    }
  }
  for (const PieceIllegal& rule : t.definition.illegal) {
    const auto k = std::size_t(rule.set);
    const auto& label = t.labels[k][std::size_t(p.perm[k][std::size_t(rule.place)])];
    if (label == std::to_string(rule.piece + 1)) {
      throw ParseError("set " + sets[k].name + ": piece " + label + " at place " + std::to_string(rule.place + 1) +
                       ", which an Illegal line of the file forbids");
    }
  }
}

bool admits(const Tables& t, const PiecePosition& p) {
  for (const PieceIllegal& rule : t.definition.illegal) {
    const auto k = std::size_t(rule.set);
    if (t.labels[k][std::size_t(p.perm[k][std::size_t(rule.place)])] == std::to_string(rule.piece + 1)) return false;
  }
  for (std::size_t k = 0; k < t.wild.size(); ++k) {
    for (std::size_t i = 0; i < p.perm[k].size() && !t.wild[k].empty(); ++i) {
      if (t.wild[k][std::size_t(p.perm[k][i])] && p.twist[k][i] != 0) return false;
    }
  }
  return true;
}

}  // namespace wide_pieces_detail

using namespace wide_pieces_detail;

template <std::size_t N>
BasicWidePieces<N>::BasicWidePieces(const PieceDefinition& definition, PieceMetric metric,
                                    const std::vector<std::string>& chosen)
    : t_(make_tables(definition, metric, chosen, int(N))) {
  PiecePosition solved;
  const std::vector<std::map<int, int>> kind = kinds(*t_);
  for (std::size_t k = 0; k < t_->definition.sets.size(); ++k) {
    auto& perm = solved.perm.emplace_back();
    for (const int v : t_->definition.solved.perm[k]) perm.push_back(kind[k].at(v));
    solved.twist.push_back(t_->definition.solved.twist[k]);
  }
  start_ = state(solved);
}

template <std::size_t N>
std::vector<int> BasicWidePieces<N>::row_lengths() const {
  std::vector<int> rows;
  for (const auto& set : t_->definition.sets) {
    rows.push_back(set.size + 1);
    if (set.orientations > 1) rows.push_back(set.size);
  }
  return rows;
}

template <std::size_t N>
typename BasicWidePieces<N>::State BasicWidePieces<N>::state(const PiecePosition& p) const {
  State s;
  put_position(*t_, p, s.limb.data());
  return s;
}

template <std::size_t N>
std::string BasicWidePieces<N>::format(const State& s) const {
  return pieces_detail::format_piece_position(t_->definition, t_->labels, position(s));
}

template <std::size_t N>
typename BasicWidePieces<N>::State BasicWidePieces<N>::parse(std::string_view text) const {
  try {
    return state(pieces_detail::read_piece_position(t_->definition, t_->labels, text));
  } catch (const ParseError& e) {
    throw ParseError("bad position " + quote_input(text) + ": " + e.what() +
                     " (expected set by set: " + format(start_) + ")");
  }
}

template <std::size_t N>
std::string BasicWidePieces<N>::move_name(const State& from, const State& to) const {
  const WidePacking words(t_);
  std::vector<typename WidePacking::Word> out(t_->moves.size());
  words.images(words.pack(from), out.data());
  for (std::size_t m = 0; m < out.size(); ++m) {
    if (words.unpack(out[m]) == to) return t_->moves[m].name;
  }
  return "?";
}

template class BasicWidePieces<2>;
template class BasicWidePieces<4>;
template class BasicWidePieces<8>;

}  // namespace statespace
