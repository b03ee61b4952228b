// The pieces of the implicit engine's level step (analysis/engines/implicit/implicit_engine.hpp):
// where a position lives in the layer bitsets, the decoded sequences of a class
// index, what a blank in each slot can do, the word-parallel left/right masks and
// the sparse-level block flags.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <cstdint>
#include <vector>

#include "analysis/engines/implicit/tile_index.hpp"
#include "analysis/engines/implicit/tile_sequence_decoder.hpp"
#include "analysis/runtime/packed_table.hpp"
#include "core/board.hpp"
#include "core/ranking.hpp"

namespace statespace {

// What a level's expansion from depth d found. The moves between depths d and d+1
// are not counted one by one but derived from the degrees (CheckpointState::add_layer).
struct LevelCounts {
  std::uint64_t claimed = 0;  // positions of depth d+1 found
  std::uint64_t degrees = 0;  // moves from the positions of depth d
  LevelCounts& operator+=(const LevelCounts& o) {
    claimed += o.claimed;
    degrees += o.degrees;
    return *this;
  }
};

namespace implicit_detail {

// Slice boundaries in sequences: 64 sequences fill whole words of any layer bitset.
constexpr std::uint64_t kSliceAlign = BitTable::kPerWord;

// Where a position lives: table colour(blank), entry q * count[colour] + slot(blank).
struct Layout {
  explicit Layout(const TileIndex& index) {
    for (int c = 0; c < index.cells(); ++c) {
      const int colour = (c / index.cols() + c % index.cols()) & 1;
      colour_of[c] = std::uint8_t(colour);
      slot_of[c] = std::uint8_t(count[colour]);
      ++count[colour];
    }
    for (int colour = 0; colour < 2; ++colour) divide[colour] = FastDivisor(std::uint64_t(count[colour]));
  }
  std::array<std::uint8_t, Board::kMaxCells> colour_of{};
  std::array<std::uint8_t, Board::kMaxCells> slot_of{};
  std::array<int, 2> count{};
  std::array<FastDivisor, 2> divide{};
};

// The sequence of class index q with the parity a slot needs: lex 2q or 2q + 1.
// lex 2q has Lehmer digit 0 at position m-2; lex 2q + 1 is the same sequence with
// its last two tiles swapped and that digit 1, so it is derived, not decoded. Both
// are kept, and the parity picks one by index: which one a position needs is as
// good as random, a branch on it would be mispredicted half the time.
class SequenceCache {
 public:
  SequenceCache(const TileIndex& index, const TileSuffixTable& table) : decoder_(index, table) {}
  const TileSequence& get(std::uint64_t q, unsigned parity) {
    if (q != q_) {
      q_ = q;
      even_parity_ = decoder_.decode_pair(q << 1, both_[0], both_[1]);
    }
    return both_[parity ^ even_parity_];
  }

 private:
  TileSequenceDecoder decoder_;
  std::uint64_t q_ = ~std::uint64_t{0};
  std::array<TileSequence, 2> both_;  // lex 2q and 2q + 1
  unsigned even_parity_ = 0;
};

// What a blank in one slot of a table can do: its cell, the sequence parity its
// positions have, and the slot in the other table after each move (-1: off the board).
// Every blank has a vertical move (R >= 2): `first` is up if there is one, else
// down, so the scan takes it without a branch; `second` is down when both exist.
struct SlotMoves {
  std::uint8_t blank = 0;
  std::uint8_t parity = 0;
  std::uint8_t degree = 0;  // moves of the blank
  std::int8_t left = -1, right = -1, up = -1, down = -1;
  std::int8_t first = -1, second = -1;
  TileIndex::VerticalMove first_move, second_move;
};

// With an even number of cells both tables have `count` entries per sequence, so
// a left or right move, which keeps the sequence, moves entry e of one table to
// entry e + delta of the other, delta = the slot difference. Slots count the cells
// of one colour in reading order, so a left move has delta 0 or -1 and a right
// move 0 or +1: within the same word or into the neighbouring one. Per phase of a
// word (the slot of its first entry) the entries with each move and delta form a
// mask, so a word's left (right) targets are three masked shifts of the frontier
// words of it and its neighbours, marked at once.
struct SideMasks {
  std::uint64_t left_same = 0, left_back = 0;     // delta 0, -1
  std::uint64_t right_same = 0, right_ahead = 0;  // delta 0, +1
  std::uint64_t left_back_next = 0;               // left_back of the next word's phase
  std::uint64_t right_ahead_prev = 0;             // right_ahead of the previous word's phase
  unsigned next = 0;                              // the next word's phase
};

// The masks of a source table per phase, from its slots' moves (`count` slots).
inline std::vector<SideMasks> side_masks(const std::array<SlotMoves, Board::kMaxCells>& moves, unsigned count) {
  const unsigned step = unsigned(BitTable::kPerWord % count);
  std::vector<SideMasks> masks(count);
  for (unsigned phase = 0; phase < count; ++phase) {
    SideMasks& x = masks[phase];
    for (unsigned i = 0; i < BitTable::kPerWord; ++i) {
      const int slot = int((phase + i) % count);
      const SlotMoves& m = moves[slot];
      const std::uint64_t bit = std::uint64_t{1} << i;
      if (m.left >= 0) (m.left == slot ? x.left_same : x.left_back) |= bit;
      if (m.right >= 0) (m.right == slot ? x.right_same : x.right_ahead) |= bit;
      assert(m.left < 0 || m.left == slot || m.left == slot - 1);
      assert(m.right < 0 || m.right == slot || m.right == slot + 1);
    }
    x.next = (phase + step) % count;
  }
  for (unsigned phase = 0; phase < count; ++phase) {
    masks[phase].left_back_next = masks[masks[phase].next].left_back;
    masks[masks[phase].next].right_ahead_prev = masks[phase].right_ahead;
  }
  return masks;
}

// Sparse levels: one flag per block of kWords words of a layer bitset, set when
// the block may hold a position (0: all its words are zero). Marks set the flags
// of the blocks they write; finishing a level makes them exact for the new layer
// and clears those of the retired one. A scan skips the blocks of its layer without
// a flag, and finishing a level touches only flagged blocks. Blocks straddle slices
// and chunks, so two owners may flag one block at once, both with 1: relaxed atomic
// stores, plain moves. Hot loops take data() and flag through the pointer, which
// the table stores cannot alias.
class BlockFlags {
 public:
  static constexpr std::uint64_t kWords = 64;

  BlockFlags() = default;
  explicit BlockFlags(std::uint64_t words) : flags_((words + kWords - 1) / kWords, 0) {}

  static void mark(std::uint8_t* flags, std::uint64_t word) {
    std::atomic_ref<std::uint8_t>(flags[word / kWords]).store(1, std::memory_order_relaxed);
  }
  void mark(std::uint64_t word) { mark(flags_.data(), word); }
  // Every block may hold a position (a layer read from a checkpoint).
  void all() { std::fill(flags_.begin(), flags_.end(), std::uint8_t{1}); }
  [[nodiscard]] std::uint64_t blocks() const { return flags_.size(); }
  [[nodiscard]] std::uint8_t* data() { return flags_.data(); }
  [[nodiscard]] const std::uint8_t* data() const { return flags_.data(); }

 private:
  std::vector<std::uint8_t> flags_;
};

// Marks entry e of a layer bitset and flags its block.
inline void mark(std::uint64_t* words, std::uint8_t* flags, std::uint64_t e) {
  words[e / BitTable::kPerWord] |= std::uint64_t{1} << (e % BitTable::kPerWord);
  BlockFlags::mark(flags, e / BitTable::kPerWord);
}

}  // namespace implicit_detail

}  // namespace statespace
