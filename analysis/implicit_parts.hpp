// The pieces of the implicit engine's level step (analysis/implicit_engine.hpp): the
// two-bit codes of the layers, the owner's branch-free claim, where a position lives
// in the two tables, the decoded sequences of a class index, what a blank in each
// slot can do, the word-parallel left/right masks and the sparse-level block marks.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <cstdint>
#include <vector>

#include "analysis/two_bit_table.hpp"
#include "core/board.hpp"
#include "core/ranking.hpp"
#include "puzzles/tile_index.hpp"
#include "puzzles/tile_sequence_decoder.hpp"

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

constexpr std::uint64_t kLowBits = 0x5555555555555555ULL;
// Slice boundaries in sequences: 32 sequences fill whole words of either table.
constexpr std::uint64_t kSliceAlign = TwoBitTable::kPerWord;

// The code of the positions at depth d: 1, 1, 2, 2, 1, 1, ...
constexpr unsigned code_of(unsigned depth) { return 1u + ((depth >> 1) & 1u); }

// Bit 2i set when entry i of word x holds `code` (0 to 3): the entries equal to
// code are the zero pairs of x ^ code...code, with no branch on which code it is.
inline std::uint64_t matching(std::uint64_t x, unsigned code) {
  const std::uint64_t y = x ^ (code * kLowBits);
  return ~(y | y >> 1) & kLowBits;
}

// Claims entry e for code `next` (1 or 2) if unseen. No branches: the owner is the
// only writer.
inline void claim(std::uint64_t* words, std::uint64_t e, unsigned next, LevelCounts& c) {
  std::uint64_t& w = words[e / TwoBitTable::kPerWord];
  const unsigned shift = unsigned(2 * (e % TwoBitTable::kPerWord));
  const std::uint64_t x = w;
  const unsigned code = unsigned(x >> shift) & 3u;
  assert(code != 3u);
  const unsigned unseen = code == 0;
  c.claimed += unseen;
  w = x | (std::uint64_t(next & -unseen) << shift);
}

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
// masks of it and its neighbours, claimed at once (popcounts for the counts).
struct SideMasks {
  std::uint64_t left_same = 0, left_back = 0;     // delta 0, -1
  std::uint64_t right_same = 0, right_ahead = 0;  // delta 0, +1
  std::uint64_t left_back_next = 0;               // left_back of the next word's phase
  std::uint64_t right_ahead_prev = 0;             // right_ahead of the previous word's phase
  unsigned next = 0;                              // the next word's phase
};

// The masks of a source table per phase, from its slots' moves (`count` slots).
inline std::vector<SideMasks> side_masks(const std::array<SlotMoves, Board::kMaxCells>& moves, unsigned count) {
  const unsigned step = unsigned(TwoBitTable::kPerWord) % count;
  std::vector<SideMasks> masks(count);
  for (unsigned phase = 0; phase < count; ++phase) {
    SideMasks& x = masks[phase];
    for (unsigned i = 0; i < TwoBitTable::kPerWord; ++i) {
      const int slot = int((phase + i) % count);
      const SlotMoves& m = moves[slot];
      const std::uint64_t bit = std::uint64_t{1} << (2 * i);
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

// Sparse levels: per block of kWords words of a table, 2 + the last level whose
// expansion claimed an entry in it (0: never; kSeed: the start). A level's scan
// visits only the blocks claimed in at the level before (its frontier) or three
// before (the entries it turns old); the others hold only old and unseen entries.
// Blocks straddle slices and chunks, so two owners may mark one block at once, both
// with the same value: relaxed atomic stores, plain moves. Hot loops take data()
// and mark through the pointer, which the table stores cannot alias.
class BlockMarks {
 public:
  static constexpr std::uint64_t kWords = 64;
  static constexpr std::uint16_t kSeed = 1;

  BlockMarks() = default;
  explicit BlockMarks(std::uint64_t words) : marks_((words + kWords - 1) / kWords, 0) {}

  static void mark(std::uint16_t* marks, std::uint64_t word, std::uint16_t value) {
    std::atomic_ref<std::uint16_t>(marks[word / kWords]).store(value, std::memory_order_relaxed);
  }
  void mark(std::uint64_t word, std::uint16_t value) { mark(marks_.data(), word, value); }
  // After tables were read from a checkpoint of `level`: which blocks hold recent
  // layers is not known, so every block counts as claimed at level-1 (scanned up to
  // level + 2, after which the marks of the new claims say it).
  void resumed(unsigned level) { std::fill(marks_.begin(), marks_.end(), std::uint16_t(level + 1)); }
  [[nodiscard]] std::uint16_t* data() { return marks_.data(); }
  [[nodiscard]] const std::uint16_t* data() const { return marks_.data(); }

 private:
  std::vector<std::uint16_t> marks_;
};

}  // namespace implicit_detail

}  // namespace statespace
