// A piece definition (puzzles/piece_definition.hpp) whose positions do not rank
// below 2^64: the 3x3x3 cube (4.3e19 positions) in 128 bits, the 4x4x4 (233 bits)
// and the megaminx (304) in more, run on the sorted-levels engine, usually to a
// --max-depth. Pieces (puzzles/pieces.hpp) keeps every definition that ranks;
// load_tws_model() falls back to the narrowest of these models whose word holds the
// places: BasicWidePieces<N> keeps a position in N 64-bit limbs (WidePieces: 2, one
// unsigned __int128 word; past that LimbWord<N> words), so that each position costs
// the engine no more than the limbs it needs.
//
// The word holds each place as one field, kind * orientations + twist, in as few bits
// as the set's kinds and orientations need (the 3x3x3's 12 edges and 8 corners take
// 5 bits each: 100 bits). The first set's first place is the most significant field,
// so word order is the order of positions place by place, the canonical order of the
// reports. No field straddles two limbs: a move is, per limb, a mask of the places it
// leaves alone and, for each place it changes, a shift, a mask and (when it twists)
// a table lookup.
//
// Unlike Pieces, a position is not checked against the classes the moves reach
// (parities, twist totals): a --from position of another class starts a search of
// its own coset.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/limb_word.hpp"
#include "core/puzzle.hpp"
#include "puzzles/piece_definition.hpp"
#include "puzzles/pieces.hpp"

namespace statespace {

namespace wide_pieces_detail {

// One place a move changes: its field in the word (limb, shift) takes the field of
// the place it receives from, raised by a twist through `twisted` (empty: none).
struct Field {
  std::uint8_t to_limb = 0, from_limb = 0;  // 0: the most significant limb
  std::uint8_t to_shift = 0, from_shift = 0;
  std::uint32_t mask = 0;
  std::int32_t twisted = -1;  // offset into Tables::twisted, or -1
  // The bit above the field: a successor's top bits are known once the fields whose
  // top passes them are made.
  [[nodiscard]] int top() const { return to_shift + std::popcount(mask); }
};

struct Tables {
  PieceDefinition definition;
  PieceMetric metric = PieceMetric::all_powers;
  std::vector<std::string> chosen;
  std::vector<PieceMove> moves;  // after the metric
  bool directed = false;
  std::vector<std::vector<std::string>> labels;  // per set, as Pieces prints them
  // Per set: each place's limb and shift; the field's width.
  std::vector<std::vector<std::uint8_t>> limb, shift;
  std::vector<int> bits;
  int limbs = 0;  // of the word
  // Per move: the fields it keeps (a mask per limb, keep[m * limbs + i]) and those it
  // changes, fields[first[m], first[m + 1]), those of the first limb first, from its
  // top down.
  std::vector<std::uint64_t> keep;
  std::vector<std::size_t> first;
  std::vector<Field> fields;
  std::vector<std::uint32_t> twisted;  // per set and twist: the field value after it
  // Places an Illegal line names: the field, and per field value whether it is a
  // piece that may not stand there. A successor with one is no successor.
  struct Forbidden {
    std::uint8_t limb = 0, shift = 0;
    std::uint32_t mask = 0;
    std::vector<bool> value;
  };
  std::vector<Forbidden> forbidden;
  // Per set, per kind: its twist is a wildcard (the twist tables keep it 0); empty
  // per set where every twist counts.
  std::vector<std::vector<bool>> wild;
  // Some move may leave some position as it is (a cycle of places that identical
  // pieces could fill): a successor may be the word itself.
  bool may_stay = false;
  [[nodiscard]] bool allowed(const std::uint64_t* limb) const {
    for (const Forbidden& f : forbidden) {
      if (f.value[(limb[f.limb] >> f.shift) & f.mask]) return false;
    }
    return true;
  }
};

// The tables of `definition` in words of `limbs` limbs; throws ParseError when the
// places need more.
std::shared_ptr<const Tables> make_tables(const PieceDefinition& definition, PieceMetric metric,
                                          const std::vector<std::string>& chosen, int limbs);
// The limbs a position's fields take: the word of fewest limbs that holds them.
int limbs_needed(const PieceDefinition& definition);

PiecePosition position(const Tables& t, const std::uint64_t* limb);
bool admits(const Tables& t, const PiecePosition& p);
// Throws ParseError for a position that is no arrangement of the solved state's pieces.
void put_position(const Tables& t, const PiecePosition& p, std::uint64_t* limb);

}  // namespace wide_pieces_detail

// The sorted-levels engine's words: the state's limbs as one word, unsigned __int128
// for two limbs, else the LimbWord itself. The words state their width (the first
// field is at the top), and a pass of a level over one range of top bits makes only
// the successors in it: a move's fields are made from the top down, and those whose
// top bits miss stop after the first (RangedPacking). Where a move could leave a
// position as it is (identical pieces filling its cycles), may_stay() says so and the
// engine counts self-loops.
template <std::size_t N>
class WidePieceWords {
 public:
  using Word = std::conditional_t<N == 2, unsigned __int128, LimbWord<N>>;
  explicit WidePieceWords(std::shared_ptr<const wide_pieces_detail::Tables> t) : t_(std::move(t)) {
    // For each number of top bits, the moves that change a field reaching into them.
    if (t_->moves.size() > 64) return;
    for (std::size_t m = 0; m < t_->moves.size(); ++m) {
      const std::size_t f = t_->first[m];
      if (f == t_->first[m + 1] || t_->fields[f].to_limb != 0) continue;
      for (int bits = 64 - t_->fields[f].top() + 1; bits < 64; ++bits)
        reaching_[std::size_t(bits)] |= std::uint64_t{1} << m;
    }
  }
  [[nodiscard]] Word pack(const LimbWord<N>& s) const {
    if constexpr (N == 2) {
      return (Word(s.limb[0]) << 64) | s.limb[1];
    } else {
      return s;
    }
  }
  [[nodiscard]] LimbWord<N> unpack(Word w) const {
    if constexpr (N == 2) {
      return {{std::uint64_t(w >> 64), std::uint64_t(w)}};
    } else {
      return w;
    }
  }
  [[nodiscard]] int moves() const { return int(t_->moves.size()); }
  [[nodiscard]] int word_bits() const { return int(64 * N); }
  [[nodiscard]] bool may_stay() const { return t_->may_stay; }
  int successors(Word w, Word* out) const {
    const auto& t = *t_;
    const LimbWord<N> from = unpack(w);
    const std::size_t count = t.moves.size();
    int k = 0;
    for (std::size_t m = 0; m < count; ++m) {
      LimbWord<N> next = kept(t, from, m);
      for (std::size_t f = t.first[m]; f < t.first[m + 1]; ++f) put(t, t.fields[f], from, next);
      if (!t.forbidden.empty() && !t.allowed(next.limb.data())) continue;
      out[k++] = pack(next);
    }
    return k;
  }
  // Every move's image, in the order of the moves, Illegal lines or not.
  void images(Word w, Word* out) const {
    const auto& t = *t_;
    const LimbWord<N> from = unpack(w);
    for (std::size_t m = 0; m < t.moves.size(); ++m) {
      LimbWord<N> next = kept(t, from, m);
      for (std::size_t f = t.first[m]; f < t.first[m + 1]; ++f) put(t, t.fields[f], from, next);
      out[m] = pack(next);
    }
  }
  // Only the successors whose top `bits` bits (1 to 63) are `high`. A move that
  // changes no field reaching into those bits keeps them: its successor is in the
  // range exactly when w is, and is not looked at otherwise (on the 3x3x3 the first
  // edge moves under 6 of the 18 moves, so a word outside the range costs a third).
  int successors_within(Word w, Word* out, int bits, std::uint64_t high) const {
    const auto& t = *t_;
    const LimbWord<N> from = unpack(w);
    const std::size_t count = t.moves.size();
    const int below = 64 - bits;
    const bool inside = (from.limb[0] >> below) == high;
    int k = 0;
    // Move m's successor, kept when its top bits are `high`: the fields reaching into
    // them are put first, and the rest only when they are.
    const auto within = [&](std::size_t m) {
      LimbWord<N> next = kept(t, from, m);
      std::size_t f = t.first[m];
      const std::size_t end = t.first[m + 1];
      for (; f < end && t.fields[f].to_limb == 0 && t.fields[f].top() > below; ++f) put(t, t.fields[f], from, next);
      if ((next.limb[0] >> below) != high) return;
      for (; f < end; ++f) put(t, t.fields[f], from, next);
      if (!t.forbidden.empty() && !t.allowed(next.limb.data())) return;
      out[k++] = pack(next);
    };
    if (!inside && count <= 64) {
      for (std::uint64_t reach = reaching_[std::size_t(bits)]; reach != 0; reach &= reach - 1) {
        within(std::size_t(std::countr_zero(reach)));
      }
      return k;
    }
    for (std::size_t m = 0; m < count; ++m) {
      const std::size_t f = t.first[m];
      if (!inside && (f == t.first[m + 1] || t.fields[f].to_limb != 0 || t.fields[f].top() <= below)) continue;
      within(m);
    }
    return k;
  }

 private:
  static LimbWord<N> kept(const wide_pieces_detail::Tables& t, const LimbWord<N>& from, std::size_t m) {
    LimbWord<N> next;
    for (std::size_t i = 0; i < N; ++i) next.limb[i] = from.limb[i] & t.keep[m * N + i];
    return next;
  }
  static void put(const wide_pieces_detail::Tables& t, const wide_pieces_detail::Field& field, const LimbWord<N>& from,
                  LimbWord<N>& next) {
    std::uint64_t v = (from.limb[field.from_limb] >> field.from_shift) & field.mask;
    if (field.twisted >= 0) v = t.twisted[std::size_t(field.twisted) + v];
    next.limb[field.to_limb] |= v << field.to_shift;
  }

  std::shared_ptr<const wide_pieces_detail::Tables> t_;
  std::array<std::uint64_t, 64> reaching_{};  // by top bits: a mask of moves (at most 64 moves)
};

template <std::size_t N>
class BasicWidePieces {
 public:
  using State = LimbWord<N>;
  using WidePacking = WidePieceWords<N>;

  // Throws ParseError when the definition is inconsistent, a chosen move unknown, or
  // the places need more than N limbs.
  BasicWidePieces(const PieceDefinition& definition, PieceMetric metric, const std::vector<std::string>& chosen = {});

  [[nodiscard]] int max_moves() const { return int(t_->moves.size()); }
  [[nodiscard]] std::string name() const { return t_->definition.name; }
  [[nodiscard]] State goal() const { return start_; }
  [[nodiscard]] State start() const { return start_; }
  [[nodiscard]] std::vector<int> row_lengths() const;
  // Pieces' notation (format_piece_position).
  [[nodiscard]] std::string format(const State& s) const;
  [[nodiscard]] State parse(std::string_view text) const;
  template <class F>
  void for_each_successor(const State s, F&& f) const {
    const WidePacking words(t_);
    std::vector<typename WidePacking::Word> out(t_->moves.size());
    const int k = words.successors(words.pack(s), out.data());
    for (int i = 0; i < k; ++i) f(words.unpack(out[std::size_t(i)]));
  }
  // Every arrangement of the solved state's pieces with every twist, ascending
  // (--components; astronomically many for the puzzles this model is for).
  template <class F>
  void for_each_position(F&& f) const {
    const auto& sets = t_->definition.sets;
    PiecePosition p = position(start_);
    for (std::size_t k = 0; k < sets.size(); ++k) {
      std::sort(p.perm[k].begin(), p.perm[k].end());
      std::fill(p.twist[k].begin(), p.twist[k].end(), 0);
    }
    // An odometer over the sets, the last set's last twist turning fastest.
    while (true) {
      if (admits(p)) f(state(p));
      std::size_t k = sets.size();
      while (k-- > 0) {
        auto& twist = p.twist[k];
        std::size_t i = twist.size();
        while (i-- > 0 && ++twist[i] == sets[k].orientations) twist[i] = 0;
        if (i < twist.size()) break;
        if (std::next_permutation(p.perm[k].begin(), p.perm[k].end())) break;
      }
      if (k >= sets.size()) return;
    }
  }
  [[nodiscard]] bool directed() const { return t_->directed; }
  [[nodiscard]] std::optional<WidePacking> wide_packing(const State&) const { return WidePacking(t_); }
  [[nodiscard]] std::string move_name(const State& from, const State& to) const;

  [[nodiscard]] const PieceDefinition& definition() const { return t_->definition; }
  [[nodiscard]] PieceMetric metric() const { return t_->metric; }
  [[nodiscard]] const std::vector<std::string>& chosen_moves() const { return t_->chosen; }
  [[nodiscard]] const std::vector<PieceMove>& moves() const { return t_->moves; }

  [[nodiscard]] PiecePosition position(const State& s) const {
    return wide_pieces_detail::position(*t_, s.limb.data());
  }
  // p is a position of the graph: no piece where an Illegal line forbids it, no
  // wildcard twist other than 0.
  [[nodiscard]] bool admits(const PiecePosition& p) const { return wide_pieces_detail::admits(*t_, p); }
  // Throws ParseError for a position that is no arrangement of the solved state's pieces.
  [[nodiscard]] State state(const PiecePosition& p) const;

 private:
  std::shared_ptr<const wide_pieces_detail::Tables> t_;
  State start_;
};

// The widths load_tws_model() chooses from: 128, 256 and 512 bits.
using WidePieceState = LimbWord<2>;
using WidePieceState256 = LimbWord<4>;
using WidePieces = BasicWidePieces<2>;
using WidePieces256 = BasicWidePieces<4>;
using WidePieces512 = BasicWidePieces<8>;
using WidePieceWords128 = WidePieceWords<2>;
using WidePieceWords256 = WidePieceWords<4>;
using WidePieceWords512 = WidePieceWords<8>;
extern template class BasicWidePieces<2>;
extern template class BasicWidePieces<4>;
extern template class BasicWidePieces<8>;

static_assert(WidePackedPuzzle<WidePieces> && WidePackedPuzzle<WidePieces512>);
static_assert(EnumerablePuzzle<WidePieces>);
static_assert(RangedPacking<WidePieceWords128> && RangedPacking<WidePieceWords512>);
static_assert(DirectedPuzzle<WidePieces>);
static_assert(MoveNamingPuzzle<WidePieces>);

}  // namespace statespace
