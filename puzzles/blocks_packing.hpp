// The positions of a Blocks model as 64-bit words, for the sorted-levels engine. A
// piece's field is the index of its anchor among the anchors its class can take
// (where it fits; on its start's lines for a class held to one axis, since it never
// leaves them), in as few bits as that count needs. Fields go class by class and,
// within a class, in ascending order, so positions that differ by swapping
// interchangeable pieces are one word; the first piece is in the highest bits.
// Klotski on a 6x4 board: 59 bits; a Rush Hour card of 13 cars: 39.
// A move rewrites the moved piece's field and re-sorts its class's run of fields.
// Word order is not the byte states' order; the engine sorts what it reports.
//
// The successors of a word are where the sorted-levels engine spends half its time,
// so the step and slide moves are generated here from per field value tables (one
// cache line holds a place's cells, the cells each step enters and the field value
// it leads to) rather than through the byte states' Blocks::for_each_move; the tests
// check the two against each other on every placement.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "puzzles/blocks.hpp"

namespace statespace {

class BlocksPacking {
 public:
  using Mask = Blocks::Mask;

 private:
  // A class's piece at one field value: what the moves read of it, in one cache line.
  struct Place {
    std::array<Mask, 4> entered{};       // Blocks::entered, per direction
    Mask cells = 0;                      // the cells covered
    std::array<std::uint8_t, 4> next{};  // the field value one step leads to
    std::uint8_t anchor = 0;
  };
  // The pieces of a word: each one's place, the cells covered (walls and
  // Blocks::kBlocked included) in all and before each piece, and at each piece its
  // class's field values in use as bits up to it (all of them at its last piece).
  struct Pieces {
    std::array<const Place*, Blocks::kMaxCells> at;
    std::array<std::uint64_t, Blocks::kMaxCells> values;
    std::array<Mask, Blocks::kMaxCells> before;
    Mask occupied;
  };

 public:
  // Nothing when the fields need more than 64 bits.
  static std::optional<BlocksPacking> make(const Blocks& model);

  [[nodiscard]] std::uint64_t pack(const Blocks::State& s) const;
  [[nodiscard]] Blocks::State unpack(std::uint64_t w) const;
  // The successors of a word, at most the model's max_moves().
  [[nodiscard]] int moves() const { return model_.max_moves(); }
  // Every word is below 2^word_bits(); a move always changes the word.
  [[nodiscard]] int word_bits() const { return std::max(1, used_); }
  int successors(std::uint64_t w, std::uint64_t* out) const { return Successors(*this)(w, out); }

  // successors() for a run of words in ascending order: neighbours in the run share
  // their high fields, so the pieces of those are not read again.
  class Successors {
   public:
    explicit Successors(const BlocksPacking& packing) : packing_(packing) {}
    int operator()(std::uint64_t w, std::uint64_t* out) {
      packing_.read(w, read_ ? packing_.piece_of_bit_[std::size_t(63 - std::countl_zero((w ^ last_) | 1))] : 0,
                    pieces_);
      read_ = true;
      last_ = w;
      return packing_.model_.moves() == BlockMoves::kPath ? packing_.path_successors(w, pieces_, out)
                                                          : packing_.straight_successors(w, pieces_, out);
    }

   private:
    const BlocksPacking& packing_;
    bool read_ = false;
    std::uint64_t last_ = 0;
    Pieces pieces_;
  };

 private:
  // Reads the pieces of w from piece `from` on; those before are as p has them.
  void read(std::uint64_t w, int from, Pieces& p) const {
    const auto k = std::size_t(from);
    Mask occupied = k ? p.before[k] : model_.walls() | Blocks::kBlocked;
    // A class's values gather in a register, stored at each of its pieces and
    // dropped after its last: no read-modify-write of memory.
    std::uint64_t values = k ? p.values[k - 1] & same_class_next_[k - 1] : 0;
    for (std::size_t i = k; i < std::size_t(n_); ++i) {
      const std::uint64_t v = w >> shift_[i] & field_[i];
      p.before[i] = occupied;
      p.at[i] = &place_[base_[i] + v];
      occupied |= p.at[i]->cells;
      values |= std::uint64_t{1} << v;
      p.values[i] = values;
      values &= same_class_next_[i];
    }
    p.occupied = occupied;
  }

  // The step and slide moves (Blocks::walk_straight_moves), a piece's place being
  // its field value. A step enters none of the cells the piece leaves, so the first
  // step's test needs only the occupied cells.
  int straight_successors(std::uint64_t w, const Pieces& p, std::uint64_t* out) const {
    struct Places {
      const BlocksPacking& packing;
      const Pieces& p;
      [[nodiscard]] unsigned free_steps(int i) const {
        return BlocksPacking::free_steps(*p.at[std::size_t(i)], p.occupied);
      }
      [[nodiscard]] int first(int i, int d) const { return p.at[std::size_t(i)]->next[std::size_t(d)]; }
      [[nodiscard]] Mask others(int i) const { return p.occupied & ~p.at[std::size_t(i)]->cells; }
      [[nodiscard]] Mask entered(int i, int v, int d) const { return place(i, v).entered[std::size_t(d)]; }
      [[nodiscard]] int next(int i, int v, int d) const { return place(i, v).next[std::size_t(d)]; }
      [[nodiscard]] const Place& place(int i, int v) const {
        return packing.place_[packing.base_[std::size_t(i)] + std::size_t(v)];
      }
    };
    std::uint64_t* next = out;
    const auto f = [&](int i, int v) { *next++ = moved(w, p, i, v); };
    Blocks::walk_straight_moves(Places{*this, p}, n_, model_.moves() == BlockMoves::kSlide, f);
    return int(next - out);
  }
  // Bit d set when the place's step d enters no occupied cell.
  static unsigned free_steps(const Place& at, Mask occupied) {
#if defined(__SSE2__)
    // Two directions a vector: a 64-bit lane is zero when its halves OR to zero.
    const __m128i occ = _mm_set1_epi64x(std::int64_t(occupied)), zero = _mm_setzero_si128();
    const auto hit = [&](const Mask* e) {
      const __m128i x = _mm_and_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(e)), occ);
      return _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_or_si128(x, _mm_srli_epi64(x, 32)), zero));
    };
    return unsigned(_mm_movemask_ps(_mm_shuffle_ps(hit(&at.entered[0]), hit(&at.entered[2]), _MM_SHUFFLE(2, 0, 2, 0))));
#else
    unsigned can = 0;
    for (int d = 0; d < 4; ++d) can |= unsigned((at.entered[std::size_t(d)] & occupied) == 0) << d;
    return can;
#endif
  }

  int path_successors(std::uint64_t w, const Pieces& p, std::uint64_t* out) const {
    std::array<Blocks::Piece, Blocks::kMaxCells> pieces;
    for (std::size_t i = 0; i < std::size_t(n_); ++i) pieces[i] = {code_[i], p.at[i]->anchor};
    int made = 0;
    model_.for_each_move(pieces.data(), n_, p.occupied & ~Blocks::kBlocked, [&](int i, int at) {
      out[made++] = moved(w, p, i, int(index_[base_[std::size_t(i)] + std::size_t(at)]));
    });
    return made;
  }

  // w with piece i at field value v: its class's fields (of one width) re-sorted, by
  // moving the fields between its old and new rank in the run one field over.
  [[nodiscard]] std::uint64_t moved(std::uint64_t w, const Pieces& p, int i, int v) const {
    const auto u = std::size_t(i);
    const auto old = int(w >> shift_[u] & field_[u]);
    // The new rank: after the class's other pieces below v.
    const int t = first_[u] + std::popcount(p.values[last_[u]] & ((std::uint64_t{1} << v) - 1)) - (old < v);
    // A table rather than a test of which way the fields move: that is as likely one
    // way as the other, and the branch would be mispredicted.
    const RankChange& c = rank_change_[row_[u] + std::size_t(t - first_[u])];
    return (w & ~c.span) | (std::rotl(w, c.rotate) & c.moving) | std::uint64_t(v) << shift_[std::size_t(t)];
  }

  // Piece i of a class taking rank t: the fields of ranks i to t (span), where those
  // that move one field over land (moving: the span less rank t's field, since the
  // rotation may wrap the field dropped there), and the rotation that moves them.
  struct RankChange {
    std::uint64_t span = 0;
    std::uint64_t moving = 0;
    int rotate = 0;
  };

  Blocks model_;
  int n_ = 0;                        // pieces
  int used_ = 0;                     // bits of the fields
  int classes_ = 0;                  // piece classes
  std::vector<Place> place_;         // [class][field value]
  std::vector<std::uint8_t> index_;  // [class][anchor]: the field value
  // Per piece: its class code, the start of its class's rows in place_ and index_,
  // its field (shift, mask shifted down, width) and its class's first and last piece.
  std::array<std::uint8_t, Blocks::kMaxCells> code_{};
  std::array<std::size_t, Blocks::kMaxCells> base_{};
  std::array<std::uint8_t, Blocks::kMaxCells> shift_{}, bits_{};
  std::array<std::uint64_t, Blocks::kMaxCells> field_{};
  std::array<std::uint8_t, Blocks::kMaxCells> first_{}, last_{};
  std::vector<RankChange> rank_change_;                             // [piece][new rank in its class]
  std::array<std::uint16_t, Blocks::kMaxCells> row_{};              // where a piece's rows start in rank_change_
  std::array<std::uint64_t, Blocks::kMaxCells> same_class_next_{};  // ~0 when the next piece is of its class, else 0
  std::array<std::uint8_t, 64> piece_of_bit_{};  // the piece whose field holds a bit (0 above the fields)
};

static_assert(WordPackedPuzzle<Blocks>);

}  // namespace statespace
