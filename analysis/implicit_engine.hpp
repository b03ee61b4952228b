// The level step of the implicit BFS (analysis/implicit_bfs.hpp), shared by the
// threaded driver there and the MPI engine (distributed/mpi_bfs.cpp).
//
// An engine owns the sequences [q_begin, q_end) of both tables (all of them in one
// process, a range of slices per MPI process). A level runs in two phases over
// pieces of the sequence range (analysis/slices.hpp) whose boundaries are multiples
// of 32 sequences and so whole words in both tables:
//   - scan: a source walks the frontier words of its range (a slice, or a finer
//     chunk), turns stale entries old, claims left/right neighbours directly (same
//     sequence, so the same range of the other table) and queues up/down neighbours
//     as offsets in the slice that owns their sequence;
//   - apply: the owner of a slice claims the queued offsets.
// In either phase each table word has one writer, so claiming is a plain
// branch-free read-modify-write: no atomics, no locks.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cstdint>
#include <span>
#include <vector>

#include "analysis/implicit_parts.hpp"
#include "analysis/memory.hpp"
#include "analysis/slices.hpp"
#include "analysis/two_bit_table.hpp"
#include "core/board.hpp"
#include "core/ranking.hpp"
#include "puzzles/permutation_puzzle.hpp"
#include "puzzles/tile_index.hpp"
#include "puzzles/tile_sequence_decoder.hpp"

namespace statespace {

// Positions in ascending permutation_rank: the order of the farthest list in reports.
inline std::vector<Board> farthest_in_rank_order(const std::vector<Board>& boards, int cells) {
  std::vector<std::pair<std::uint64_t, Board>> ranked;
  ranked.reserve(boards.size());
  for (Board b : boards) ranked.emplace_back(permutation_rank(b, cells), b);
  std::sort(ranked.begin(), ranked.end());
  std::vector<Board> out;
  out.reserve(ranked.size());
  for (const auto& [rank, b] : ranked) out.push_back(b);
  return out;
}

class ImplicitEngine {
  using BlockMarks = implicit_detail::BlockMarks;

 public:
  // Largest number of up/down targets one scan adds past its budget (one word's 32
  // positions x 2 moves).
  static constexpr std::size_t kScanOvershoot = 2 * TwoBitTable::kPerWord;
  // Queues for up to `capacity` targets per round into `slices` destinations, filled
  // by scans of `step` targets (each may add kScanOvershoot more).
  static std::vector<SliceQueues> queues(unsigned sources, unsigned slices, std::size_t capacity, std::size_t step) {
    std::vector<SliceQueues> out;
    out.reserve(sources);
    for (unsigned s = 0; s < sources; ++s) out.emplace_back(slices, capacity + kScanOvershoot, step + kScanOvershoot);
    return out;
  }

  // A source's place in its slice during one level. A scan writes its cursor at
  // every word, and two lanes often scan neighbouring chunks, whose cursors sit side
  // by side in one vector: a cache line of its own each, or the lanes' cores keep
  // taking the shared line from each other.
  struct alignas(64) Cursor {
    // The scalar state, which a scan copies to locals: the table stores could alias
    // it in place, so every word would load and store it again.
    struct Place {
      std::uint64_t word = 0, end = 0;
      // Word-parallel left/right claims: the frontier masks of the words before and
      // at `word` (already turned stale entries old when `loaded`), and word's phase.
      std::uint64_t before = 0, at = 0;
      bool loaded = false;
      unsigned phase = 0;
      // Sparse levels: the end of the block of `word` once checked, and a jump
      // over a block without recent claims (from word `jump_at` on to `resume`).
      std::uint64_t block_end = 0, jump_at = ~std::uint64_t{0}, resume = 0;
    } place;
    implicit_detail::SequenceCache sequences;
  };

  // Owns the sequences [q_begin, q_end) (multiples of 32 apart, or up to the end).
  ImplicitEngine(const Tiles& p, Board start, std::uint64_t q_begin, std::uint64_t q_end)
      : index_(p.rows(), p.cols()),
        suffixes_(index_),
        layout_(index_),
        cls_(index_.class_of(start)),
        start_colour_(layout_.colour_of[find_blank(start, index_.cells())]),
        q_begin_(q_begin),
        q_end_(q_end) {
    for (int c = 0; c < 2; ++c) {
      tables_[c] = TwoBitTable((q_end - q_begin) * std::uint64_t(layout_.count[c]));
      marks_[c] = BlockMarks(tables_[c].word_count());
    }
    const int cols = index_.cols(), cells = index_.cells();
    for (int b = 0; b < cells; ++b) {
      implicit_detail::SlotMoves& m = moves_[layout_.colour_of[b]][layout_.slot_of[b]];
      m.blank = std::uint8_t(b);
      m.parity = std::uint8_t(index_.parity_for(cls_, b));
      if (b % cols > 0) m.left = std::int8_t(layout_.slot_of[b - 1]);
      if (b % cols + 1 < cols) m.right = std::int8_t(layout_.slot_of[b + 1]);
      if (b >= cols) m.up = std::int8_t(layout_.slot_of[b - cols]);
      if (b + cols < cells) m.down = std::int8_t(layout_.slot_of[b + cols]);
      m.degree = std::uint8_t((m.left >= 0) + (m.right >= 0) + (m.up >= 0) + (m.down >= 0));
      m.first = m.up >= 0 ? m.up : m.down;
      m.first_move = index_.vertical(b, m.up < 0);
      if (m.up >= 0) m.second = m.down;
      if (m.second >= 0) m.second_move = index_.vertical(b, true);
    }
    if (layout_.count[0] == layout_.count[1]) {
      for (int c = 0; c < 2; ++c) side_[c] = implicit_detail::side_masks(moves_[c], unsigned(layout_.count[c]));
    }
  }

  // Sequences per table (m!/2) and the bytes of both tables for sequences [0, q).
  static std::uint64_t sequences(const Tiles& p) { return kFactorial[p.cells() - 1] / 2; }
  static std::uint64_t table_bytes(const Tiles& p, std::uint64_t q) {
    const int dark = p.cells() / 2, light = p.cells() - dark;
    return TwoBitTable::bytes_for(q * std::uint64_t(dark)) + TwoBitTable::bytes_for(q * std::uint64_t(light));
  }
  // A partition of all sequences into about `slices` slices, each below 2^32 entries.
  static SlicePartition partition(const Tiles& p, std::uint64_t slices) {
    const std::uint64_t q = sequences(p), widest = std::uint64_t(p.cells() - p.cells() / 2);
    const std::uint64_t fit = (q * widest >> 31) + 1;  // keeps offsets below 2^31
    return SlicePartition(q, std::max(slices, fit), implicit_detail::kSliceAlign);
  }

  std::array<TwoBitTable, 2>& tables() { return tables_; }
  [[nodiscard]] std::uint64_t q_begin() const { return q_begin_; }
  [[nodiscard]] std::uint64_t q_end() const { return q_end_; }

  // Marks the start at depth 0 when this engine owns it.
  void seed(Board start) {
    const int blank = find_blank(start, index_.cells());
    const std::uint64_t q = index_.class_rank(start) / std::uint64_t(index_.cells());
    if (q < q_begin_ || q >= q_end_) return;
    const std::uint64_t e = (q - q_begin_) * std::uint64_t(layout_.count[start_colour_]) + layout_.slot_of[blank];
    tables_[start_colour_].set(e, implicit_detail::code_of(0));
    marks_[start_colour_].mark(e / TwoBitTable::kPerWord, BlockMarks::kSeed);
  }

  // After tables were read from a checkpoint of `level` (see BlockMarks::resumed).
  void resumed(unsigned level) {
    for (auto& m : marks_) m.resumed(level);
  }

  // A cursor over the frontier words of sequences [qa, qb) (owned, slice-aligned).
  Cursor cursor(unsigned depth, std::uint64_t qa, std::uint64_t qb) const {
    const int from = table_of(depth);
    const std::uint64_t count = std::uint64_t(layout_.count[from]);
    const std::uint64_t end =
        qb >= q_end_ ? tables_[from].word_count() : (qb - q_begin_) * count / TwoBitTable::kPerWord;
    const std::uint64_t word = (qa - q_begin_) * count / TwoBitTable::kPerWord;
    Cursor::Place place;
    place.word = word;
    place.end = end;
    place.phase = unsigned(word * TwoBitTable::kPerWord % count);
    return Cursor{place, implicit_detail::SequenceCache(index_, suffixes_)};
  }

  // Phase one: scans from c until out holds `budget` targets or the slice ends (then
  // returns true). Up/down targets go to the slice of `dest` owning their sequence.
  bool scan(unsigned depth, Cursor& c, const SlicePartition& dest, SliceQueues& out, std::size_t budget,
            LevelCounts& counts) {
    if (!side_[0].empty()) {
      switch (index_.cols()) {
        case 2:
          return scan_cols<2, true>(depth, c, dest, out, budget, counts);
        case 3:
          return scan_cols<3, true>(depth, c, dest, out, budget, counts);
        case 4:
          return scan_cols<4, true>(depth, c, dest, out, budget, counts);
        case 5:
          return scan_cols<5, true>(depth, c, dest, out, budget, counts);
        case 6:
          return scan_cols<6, true>(depth, c, dest, out, budget, counts);
        case 7:
          return scan_cols<7, true>(depth, c, dest, out, budget, counts);
        default:
          return scan_cols<8, true>(depth, c, dest, out, budget, counts);  // R, C >= 2 and RC <= 16
      }
    }
    // An odd number of cells (3x3, 3x5, 5x3): the tables' strides differ.
    if (index_.cols() == 3) return scan_cols<3, false>(depth, c, dest, out, budget, counts);
    return scan_cols<5, false>(depth, c, dest, out, budget, counts);
  }

  // Phase two: claims the queued offsets of the slice starting at sequence qa. Out
  // of line: inlined into the rounds' parallel loop, the claim loop ran short of
  // registers and kept half its values on the stack.
  [[gnu::noinline]] void apply(unsigned depth, std::uint64_t qa, std::span<const std::uint32_t> offsets,
                               LevelCounts& counts) {
    constexpr std::size_t kAhead = 32;  // claims between a prefetch and its use
    const int to = table_of(depth) ^ 1;
    // Slices start on whole words: offset o is entry o % 32 of word o / 32 from here.
    const std::uint64_t first = (qa - q_begin_) * std::uint64_t(layout_.count[to]) / 32;
    std::uint64_t* const words = tables_[to].words() + first;
    std::uint16_t* const claimed_in = marks_[to].data();
    const std::uint16_t claim_mark = std::uint16_t(depth + 2);
    const unsigned next = implicit_detail::code_of(depth + 1);
    std::uint64_t fresh = 0;  // unseen targets
    const auto claim = [&](std::uint32_t o) {
      std::uint64_t& w = words[o / 32];
      const unsigned shift = 2 * (o % 32);
      const std::uint64_t x = w;
      const unsigned code = unsigned(x >> shift) & 3u;
      fresh += code == 0;
      // A mask, not a conditional: the compiler turns `code == 0 ? next : 0` into a
      // branch around the store, mispredicted for about a third of the targets.
      w = x | std::uint64_t(next & -unsigned(code == 0)) << shift;
      BlockMarks::mark(claimed_in, first + o / 32, claim_mark);
    };
    const std::size_t n = offsets.size(), ahead = n > kAhead ? n - kAhead : 0;
    const std::uint32_t* const o = offsets.data();
    for (std::size_t i = 0; i < ahead; ++i) {
      __builtin_prefetch(words + o[i + kAhead] / 32, 1);
      claim(o[i]);
    }
    for (std::size_t i = ahead; i < n; ++i) claim(o[i]);
    counts.claimed += fresh;
  }

  // The positions of code(depth) in table(depth) among the owned sequences: the
  // whole last layer after its expansion, in no particular order.
  std::vector<Board> layer(unsigned depth) {
    const int from = table_of(depth);
    const std::uint64_t* words = tables_[from].words();
    const unsigned current = implicit_detail::code_of(depth);
    const std::uint64_t count = std::uint64_t(layout_.count[from]);
    tbb::enumerable_thread_specific<std::vector<Board>> found;
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, tables_[from].word_count(), 1 << 12),
                      [&](const tbb::blocked_range<std::uint64_t>& range) {
                        implicit_detail::SequenceCache sequences(index_, suffixes_);
                        auto& out = found.local();
                        for (std::uint64_t w = range.begin(); w != range.end(); ++w) {
                          for (std::uint64_t hit = implicit_detail::matching(words[w], current); hit; hit &= hit - 1) {
                            const std::uint64_t entry = w * TwoBitTable::kPerWord + unsigned(std::countr_zero(hit)) / 2;
                            const std::uint64_t q = layout_.divide[from].quotient(entry);
                            const implicit_detail::SlotMoves& m = moves_[from][entry - q * count];
                            out.push_back(index_.board_of(sequences.get(q + q_begin_, m.parity), m.blank));
                          }
                        }
                      });
    std::vector<Board> out;
    for (const auto& part : found) out.insert(out.end(), part.begin(), part.end());
    return out;
  }

 private:
  [[nodiscard]] int table_of(unsigned depth) const { return start_colour_ ^ int(depth & 1); }

  template <int kCols, bool kWordSides>
  bool scan_cols(unsigned depth, Cursor& c, const SlicePartition& dest, SliceQueues& out, std::size_t budget,
                 LevelCounts& counts) {
    using implicit_detail::matching;
    const int from = table_of(depth), to = from ^ 1;
    std::uint64_t* const words = tables_[from].words();
    std::uint64_t* const targets = tables_[to].words();
    const unsigned current = implicit_detail::code_of(depth), next = implicit_detail::code_of(depth + 1);
    const std::uint64_t count = std::uint64_t(layout_.count[from]), stride = std::uint64_t(layout_.count[to]);
    const FastDivisor divide = layout_.divide[from];
    const auto& moves = moves_[from];
    std::size_t queued = out.size();
    // A copy the stores through the table and queue pointers cannot alias: its
    // shift stays in a register instead of being reloaded for every target.
    const SlicePartition slices = dest;
    const auto queue = [&](std::uint64_t lex, int slot) {
      const std::uint64_t q = lex >> 1;
      out.push(slices.owner(q), std::uint32_t(slices.within(q) * stride + std::uint64_t(slot)));
      ++queued;
    };
    // The frontier of word w; turns the entries of depth d-2 old on the way.
    const auto frontier_of = [&](std::uint64_t w) {
      const std::uint64_t x = words[w];
      const std::uint64_t stale = matching(x, current ^ 3u);
      if (stale) words[w] = x | stale | (stale << 1);
      return matching(x, current);
    };
    std::uint64_t claimed = 0, degrees = 0;
    LevelCounts local;  // not aliased with the table words: stays in registers
    const std::uint16_t* const live = marks_[from].data();
    std::uint16_t* const claimed_in = marks_[to].data();
    const std::uint16_t recent = std::uint16_t(std::max(depth, 2u) - 1);  // claimed at depth-1 or depth-3
    const std::uint16_t claim_mark = std::uint16_t(depth + 2);
    const implicit_detail::SideMasks* const sides = side_[from].data();
    Cursor::Place p = c.place;
    for (; p.word < p.end; ++p.word) {
      if (queued >= budget) {
        c.place = p;
        counts += local;
        counts.claimed += claimed;
        counts.degrees += degrees;
        return false;
      }
      // A block without recent claims has no frontier and nothing to turn old.
      // Only its first word may take right claims from the previous block's
      // frontier and its last word left claims from the next one's; the scan
      // jumps over the rest, on with the word-parallel state of a word after
      // empty ones.
      const auto jump = [&](std::uint64_t to) {
        p.word = to;
        p.before = 0;
        p.loaded = false;
        p.phase = unsigned(to * TwoBitTable::kPerWord % count);
      };
      if (p.word == p.jump_at) {
        p.jump_at = ~std::uint64_t{0};
        jump(p.resume);
      }
      while (p.word < p.end && p.word >= p.block_end) {
        const std::uint64_t block = p.word / BlockMarks::kWords;
        p.block_end = std::min((block + 1) * BlockMarks::kWords, p.end);
        if (live[block] >= recent) break;
        const bool next_live = p.block_end < p.end && live[block + 1] >= recent;
        const std::uint64_t to = next_live ? p.block_end - 1 : p.block_end;
        if (block > 0 && live[block - 1] >= recent) {
          if (to > p.word + 1) p.jump_at = p.word + 1, p.resume = to;
          break;
        }
        if (to > p.word) jump(to);
        if (p.word < p.block_end) break;
      }
      if (p.word >= p.end) break;
      const std::uint64_t w = p.word;
      std::uint64_t frontier;
      if constexpr (kWordSides) {
        if (!p.loaded) p.at = frontier_of(w), p.loaded = true;
        const std::uint64_t after = w + 1 < p.end ? frontier_of(w + 1) : 0;
        const std::uint64_t before = p.before;
        frontier = p.at;
        p.before = frontier;
        p.at = after;
        const implicit_detail::SideMasks& k = sides[p.phase];
        p.phase = k.next;
        if ((before | frontier | after) == 0) continue;
        const std::uint64_t left =
            (frontier & k.left_same) | (frontier & k.left_back) >> 2 | (after & k.left_back_next) << 62;
        const std::uint64_t right =
            (frontier & k.right_same) | (frontier & k.right_ahead) << 2 | (before & k.right_ahead_prev) >> 62;
        const std::uint64_t x = targets[w];
        const std::uint64_t unseen = ~(x | x >> 1) & implicit_detail::kLowBits;
        const std::uint64_t fresh = (left | right) & unseen;
        claimed += unsigned(std::popcount(fresh));
        targets[w] = x | fresh << (next - 1);
        if (fresh) BlockMarks::mark(claimed_in, w, claim_mark);
      } else {
        if (words[w] == 0) continue;
        frontier = frontier_of(w);
      }
      for (; frontier; frontier &= frontier - 1) {
        const std::uint64_t entry = w * TwoBitTable::kPerWord + unsigned(std::countr_zero(frontier)) / 2;
        const std::uint64_t q = divide.quotient(entry);
        const implicit_detail::SlotMoves& m = moves[entry - q * count];
        degrees += m.degree;
        if constexpr (!kWordSides) {
          // Left and right keep the sequence: same q, the part of the other table
          // this slice owns and the scan streams through.
          if (m.left >= 0) implicit_detail::claim(targets, q * stride + std::uint64_t(m.left), next, local);
          if (m.right >= 0) implicit_detail::claim(targets, q * stride + std::uint64_t(m.right), next, local);
          BlockMarks::mark(claimed_in, q * stride / TwoBitTable::kPerWord, claim_mark);
          BlockMarks::mark(claimed_in, (q * stride + stride - 1) / TwoBitTable::kPerWord, claim_mark);
        }
        const TileSequence& s = c.sequences.get(q + q_begin_, m.parity);
        queue(index_.moved_lex<kCols>(s, m.first_move), m.first);
        if (m.second >= 0) queue(index_.moved_lex<kCols>(s, m.second_move), m.second);
      }
    }
    c.place = p;
    counts += local;
    counts.claimed += claimed;
    counts.degrees += degrees;
    return true;
  }

  TileIndex index_;
  TileSuffixTable suffixes_;
  implicit_detail::Layout layout_;
  unsigned cls_;
  int start_colour_;
  std::uint64_t q_begin_, q_end_;
  std::array<std::array<implicit_detail::SlotMoves, Board::kMaxCells>, 2> moves_{};
  std::array<TwoBitTable, 2> tables_;
  std::array<std::vector<implicit_detail::SideMasks>, 2> side_;  // per source table, per phase; empty: strides differ
  std::array<BlockMarks, 2> marks_;                              // sparse levels, per table
};

}  // namespace statespace
