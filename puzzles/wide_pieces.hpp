// A piece definition (puzzles/piece_definition.hpp) whose positions do not rank
// below 2^64 but whose places fit 128 bits: the 3x3x3 cube (4.3e19 positions), run on
// the sorted-levels engine, usually to a --max-depth. Pieces (puzzles/pieces.hpp)
// keeps every definition that ranks; load_tws() falls back to this model for the others.
//
// The word holds each place as one field, kind * orientations + twist, in as few bits
// as the set's kinds and orientations need (the 3x3x3's 12 edges and 8 corners take
// 5 bits each: 100 bits). The first set's first place is the most significant field,
// so word order is the order of positions place by place, the canonical order of the
// reports. No field straddles the two 64-bit halves: a move is, per half, a mask of
// the places it leaves alone and, for each place it changes, a shift, a mask and
// (when it twists) a table lookup.
//
// Unlike Pieces, a position is not checked against the classes the moves reach
// (parities, twist totals): a --from position of another class starts a search of
// its own coset.
#pragma once

#include <absl/hash/hash.h>

#include <algorithm>
#include <bit>
#include <compare>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/puzzle.hpp"
#include "puzzles/piece_definition.hpp"
#include "puzzles/pieces.hpp"

namespace statespace {

struct WidePieceState {
  std::uint64_t high = 0, low = 0;
  friend auto operator<=>(const WidePieceState&, const WidePieceState&) = default;
  template <class H>
  friend H AbslHashValue(H h, const WidePieceState& s) {
    return H::combine(std::move(h), s.high, s.low);
  }
};

namespace wide_pieces_detail {

// One place a move changes: its field in the word (half, shift) takes the field of
// the place it receives from, raised by a twist through `twisted` (empty: none).
struct Field {
  std::uint8_t to_half = 0, from_half = 0;  // 0: the high half
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
  // Per set: each place's half and shift; the field's width.
  std::vector<std::vector<std::uint8_t>> half, shift;
  std::vector<int> bits;
  int word_bits = 0;
  // Per move: the fields it keeps (a mask per half) and those it changes,
  // fields[first[m], first[m + 1]), those of the high half first, from its top down.
  std::vector<std::uint64_t> keep_high, keep_low;
  std::vector<std::size_t> first;
  std::vector<Field> fields;
  std::vector<std::uint32_t> twisted;  // per set and twist: the field value after it
  // Places an Illegal line names: the field, and per field value whether it is a
  // piece that may not stand there. A successor with one is no successor.
  struct Forbidden {
    std::uint8_t half = 0, shift = 0;
    std::uint32_t mask = 0;
    std::vector<bool> value;
  };
  std::vector<Forbidden> forbidden;
  // Per set, per kind: its twist is a wildcard (the twist tables keep it 0); empty
  // per set where every twist counts.
  std::vector<std::vector<bool>> wild;
  [[nodiscard]] bool allowed(const std::uint64_t* half) const {
    for (const Forbidden& f : forbidden) {
      if (f.value[(half[f.half] >> f.shift) & f.mask]) return false;
    }
    return true;
  }
};

}  // namespace wide_pieces_detail

// The sorted-levels engine's words: the state's halves as one 128-bit word. Every
// move changes every position (the model refuses definitions where some could not),
// so the words state their width (128: the first field is at the top), and a pass of
// a level over one range of top bits makes only the successors in it: a move's
// fields are made from the top down, and those whose top bits miss stop after the
// first (RangedPacking).
class WidePieceWords {
 public:
  using Word = unsigned __int128;
  explicit WidePieceWords(std::shared_ptr<const wide_pieces_detail::Tables> t) : t_(std::move(t)) {}
  [[nodiscard]] Word pack(const WidePieceState& s) const { return (Word(s.high) << 64) | s.low; }
  [[nodiscard]] WidePieceState unpack(Word w) const { return {std::uint64_t(w >> 64), std::uint64_t(w)}; }
  [[nodiscard]] int moves() const { return int(t_->moves.size()); }
  [[nodiscard]] int word_bits() const { return t_->word_bits; }
  int successors(Word w, Word* out) const {
    const auto& t = *t_;
    const std::uint64_t half[2] = {std::uint64_t(w >> 64), std::uint64_t(w)};
    const std::size_t count = t.moves.size();
    int k = 0;
    for (std::size_t m = 0; m < count; ++m) {
      std::uint64_t next[2] = {half[0] & t.keep_high[m], half[1] & t.keep_low[m]};
      for (std::size_t f = t.first[m]; f < t.first[m + 1]; ++f) put(t, t.fields[f], half, next);
      if (!t.forbidden.empty() && !t.allowed(next)) continue;
      out[k++] = (Word(next[0]) << 64) | next[1];
    }
    return k;
  }
  // Every move's image, in the order of the moves, Illegal lines or not.
  void images(Word w, Word* out) const {
    const auto& t = *t_;
    const std::uint64_t half[2] = {std::uint64_t(w >> 64), std::uint64_t(w)};
    for (std::size_t m = 0; m < t.moves.size(); ++m) {
      std::uint64_t next[2] = {half[0] & t.keep_high[m], half[1] & t.keep_low[m]};
      for (std::size_t f = t.first[m]; f < t.first[m + 1]; ++f) put(t, t.fields[f], half, next);
      out[m] = (Word(next[0]) << 64) | next[1];
    }
  }
  // Only the successors whose top `bits` bits (1 to 63) are `high`.
  int successors_within(Word w, Word* out, int bits, std::uint64_t high) const {
    const auto& t = *t_;
    const std::uint64_t half[2] = {std::uint64_t(w >> 64), std::uint64_t(w)};
    const std::size_t count = t.moves.size();
    const int below = 64 - bits;
    int k = 0;
    for (std::size_t m = 0; m < count; ++m) {
      std::uint64_t next[2] = {half[0] & t.keep_high[m], half[1] & t.keep_low[m]};
      std::size_t f = t.first[m];
      const std::size_t end = t.first[m + 1];
      for (; f < end && t.fields[f].to_half == 0 && t.fields[f].top() > below; ++f) put(t, t.fields[f], half, next);
      if ((next[0] >> below) != high) continue;
      for (; f < end; ++f) put(t, t.fields[f], half, next);
      if (!t.forbidden.empty() && !t.allowed(next)) continue;
      out[k++] = (Word(next[0]) << 64) | next[1];
    }
    return k;
  }

 private:
  static void put(const wide_pieces_detail::Tables& t, const wide_pieces_detail::Field& field,
                  const std::uint64_t* half, std::uint64_t* next) {
    std::uint64_t v = (half[field.from_half] >> field.from_shift) & field.mask;
    if (field.twisted >= 0) v = t.twisted[std::size_t(field.twisted) + v];
    next[field.to_half] |= v << field.to_shift;
  }

  std::shared_ptr<const wide_pieces_detail::Tables> t_;
};

class WidePieces {
 public:
  using State = WidePieceState;
  using WidePacking = WidePieceWords;

  // Throws ParseError when the definition is inconsistent, a chosen move unknown, the
  // places need more than 128 bits, or some move could leave a position in place.
  WidePieces(const PieceDefinition& definition, PieceMetric metric, const std::vector<std::string>& chosen = {});

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
    const WidePieceWords words(t_);
    std::vector<WidePieceWords::Word> out(t_->moves.size());
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

  [[nodiscard]] PiecePosition position(const State& s) const;
  // p is a position of the graph: no piece where an Illegal line forbids it, no
  // wildcard twist other than 0.
  [[nodiscard]] bool admits(const PiecePosition& p) const;
  // Throws ParseError for a position that is no arrangement of the solved state's pieces.
  [[nodiscard]] State state(const PiecePosition& p) const;

 private:
  std::shared_ptr<const wide_pieces_detail::Tables> t_;
  State start_;
};

static_assert(WidePackedPuzzle<WidePieces>);
static_assert(EnumerablePuzzle<WidePieces>);
static_assert(RangedPacking<WidePieceWords>);
static_assert(DirectedPuzzle<WidePieces>);
static_assert(MoveNamingPuzzle<WidePieces>);

}  // namespace statespace
