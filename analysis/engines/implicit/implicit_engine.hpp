// The level step of the implicit BFS (analysis/engines/implicit/implicit_bfs.hpp), shared by the
// threaded driver there and the MPI engine (distributed/mpi_bfs.cpp).
//
// An engine owns the sequences [q_begin, q_end) of the layer bitsets (all of them in
// one process, a range of slices per MPI process). A level runs in two phases over
// pieces of the sequence range (analysis/engines/common/slices.hpp) whose boundaries are multiples
// of 64 sequences and so whole words of every bitset:
//   - scan: a source walks the frontier words of its range (a slice, or a finer
//     chunk), marks left/right neighbours directly (same sequence, so the same range
//     of the next layer) and queues up/down neighbours as offsets in the slice that
//     owns their sequence;
//   - apply: the owner of a slice marks the queued offsets.
// In either phase each word has one writer, and a mark is a plain OR of one bit: no
// atomics, no locks, no read of what the target holds. Finishing the level then
// drops the marked positions of the layer before (every neighbour of depth d is at
// depth d-1 or d+1), counts the rest and clears the layer before for reuse.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "analysis/engines/common/slices.hpp"
#include "analysis/engines/implicit/implicit_parts.hpp"
#include "analysis/engines/implicit/tile_index.hpp"
#include "analysis/engines/implicit/tile_sequence_decoder.hpp"
#include "analysis/runtime/goal_table.hpp"
#include "analysis/runtime/memory.hpp"
#include "analysis/runtime/packed_table.hpp"
#include "core/board.hpp"
#include "core/ranking.hpp"
#include "puzzles/sliding_tiles.hpp"

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
  using BlockFlags = implicit_detail::BlockFlags;

 public:
  // Largest number of up/down targets one scan adds past its budget (one word's 64
  // positions x 2 moves).
  static constexpr std::size_t kScanOvershoot = 2 * BitTable::kPerWord;
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
      // Word-parallel left/right marks: the frontier words before and at `word`
      // (valid when `loaded`), and word's phase.
      std::uint64_t before = 0, at = 0;
      bool loaded = false;
      unsigned phase = 0;
      // Sparse levels: the end of the block of `word` once checked, and a jump
      // over a block without frontier (from word `jump_at` on to `resume`).
      std::uint64_t block_end = 0, jump_at = ~std::uint64_t{0}, resume = 0;
    } place;
    implicit_detail::SequenceCache sequences;
  };

  // Owns the sequences [q_begin, q_end) (multiples of 64 apart, or up to the end).
  ImplicitEngine(const Tiles& p, Board start, std::uint64_t q_begin, std::uint64_t q_end)
      : index_(p.rows(), p.cols()),
        suffixes_(index_),
        layout_(index_),
        cls_(index_.class_of(start)),
        start_colour_(layout_.colour_of[find_blank(start, index_.cells())]),
        q_begin_(q_begin),
        q_end_(q_end) {
    const std::uint64_t entries = (q_end - q_begin) * widest(p);
    for (int t = 0; t < 3; ++t) {
      tables_[t] = BitTable(entries);
      flags_[t] = BlockFlags(tables_[t].word_count());
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

  // Sequences (m!/2) and the bytes of the three layer bitsets for sequences [0, q).
  static std::uint64_t sequences(const Tiles& p) { return kFactorial[p.cells() - 1] / 2; }
  static std::uint64_t table_bytes(const Tiles& p, std::uint64_t q) { return 3 * BitTable::bytes_for(q * widest(p)); }
  // A partition of all sequences into about `slices` slices, each below 2^32 entries.
  static SlicePartition partition(const Tiles& p, std::uint64_t slices) {
    const std::uint64_t q = sequences(p);
    const std::uint64_t fit = (q * widest(p) >> 31) + 1;  // keeps offsets below 2^31
    return SlicePartition(q, std::max(slices, fit), implicit_detail::kSliceAlign);
  }

  // The last layer of each blank colour, what a checkpoint holds between levels.
  std::span<BitTable> tables() { return {tables_.data(), 2}; }
  [[nodiscard]] std::uint64_t q_begin() const { return q_begin_; }
  [[nodiscard]] std::uint64_t q_end() const { return q_end_; }

  // Marks the start at depth 0 when this engine owns it.
  void seed(Board start) {
    const int blank = find_blank(start, index_.cells());
    const std::uint64_t q = index_.class_rank(start) / std::uint64_t(index_.cells());
    if (q < q_begin_ || q >= q_end_) return;
    const std::uint64_t e = (q - q_begin_) * std::uint64_t(layout_.count[start_colour_]) + layout_.slot_of[blank];
    tables_[start_colour_].set(e, 1);
    flags_[start_colour_].mark(e / BitTable::kPerWord);
  }

  // After tables() were read from a checkpoint: where the layers lie is not known.
  void resumed() {
    for (int c = 0; c < 2; ++c) flags_[c].all();
  }

  // A cursor over the frontier words of sequences [qa, qb) (owned, slice-aligned).
  Cursor cursor(unsigned depth, std::uint64_t qa, std::uint64_t qb) const {
    const int from = table_of(depth);
    const std::uint64_t count = std::uint64_t(layout_.count[from]);
    const std::uint64_t word = (qa - q_begin_) * count / BitTable::kPerWord;
    const std::uint64_t end = (std::min(qb, q_end_) - q_begin_) * count;
    Cursor::Place place;
    place.word = word;
    place.end = (end + BitTable::kPerWord - 1) / BitTable::kPerWord;
    place.phase = unsigned(word * BitTable::kPerWord % count);
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
    // An odd number of cells (3x3, 3x5, 5x3): the colours' strides differ.
    if (index_.cols() == 3) return scan_cols<3, false>(depth, c, dest, out, budget, counts);
    return scan_cols<5, false>(depth, c, dest, out, budget, counts);
  }

  // Phase two: marks the queued offsets of the slice starting at sequence qa. Out
  // of line: inlined into the rounds' parallel loop, the loop ran short of registers.
  [[gnu::noinline]] void apply(unsigned depth, std::uint64_t qa, std::span<const std::uint32_t> offsets) {
    constexpr std::size_t kAhead = 32;  // marks between a prefetch and its use
    const int to = table_of(depth) ^ 1;
    // Slices start on whole words: offset o is bit o % 64 of word o / 64 from here.
    const std::uint64_t first = (qa - q_begin_) * std::uint64_t(layout_.count[to]) / BitTable::kPerWord;
    std::uint64_t* const words = tables_[kNext].words() + first;
    std::uint8_t* const flags = flags_[kNext].data();
    const auto mark = [&](std::uint32_t o) {
      words[o / 64] |= std::uint64_t{1} << (o % 64);
      BlockFlags::mark(flags, first + o / 64);
    };
    const std::size_t n = offsets.size(), ahead = n > kAhead ? n - kAhead : 0;
    const std::uint32_t* const o = offsets.data();
    for (std::size_t i = 0; i < ahead; ++i) {
      __builtin_prefetch(words + o[i + kAhead] / 64, 1);
      mark(o[i]);
    }
    for (std::size_t i = ahead; i < n; ++i) mark(o[i]);
  }

  // After the last round of level `depth`: the marked positions not at depth d-1 are
  // the layer d+1, which replaces layer d-1 as the last layer of its colour; layer
  // d-1's bitset, cleared, takes the next level's marks. Returns the layer's size.
  std::uint64_t finish(unsigned depth) {
    const int to = table_of(depth) ^ 1;
    std::uint64_t* const next = tables_[kNext].words();
    std::uint64_t* const before = tables_[to].words();
    std::uint8_t* const next_flags = flags_[kNext].data();
    std::uint8_t* const before_flags = flags_[to].data();
    const std::uint64_t words = tables_[kNext].word_count();
    const std::uint64_t found = tbb::parallel_reduce(
        tbb::blocked_range<std::uint64_t>(0, flags_[kNext].blocks(), 256), std::uint64_t{0},
        [&](const tbb::blocked_range<std::uint64_t>& blocks, std::uint64_t sum) {
          for (std::uint64_t b = blocks.begin(); b != blocks.end(); ++b) {
            const std::uint64_t w0 = b * BlockFlags::kWords, w1 = std::min(w0 + BlockFlags::kWords, words);
            std::uint64_t any = 0;
            if (next_flags[b]) {
              for (std::uint64_t w = w0; w < w1; ++w) {
                const std::uint64_t x = next[w] & ~before[w];
                next[w] = x;
                any |= x;
                sum += unsigned(std::popcount(x));
              }
            }
            if (before_flags[b]) std::fill(before + w0, before + w1, std::uint64_t{0});
            next_flags[b] = any != 0;
            before_flags[b] = 0;
          }
          return sum;
        },
        std::plus<>());
    std::swap(tables_[to], tables_[kNext]);
    std::swap(flags_[to], flags_[kNext]);
    return found;
  }

  // Sets distance `depth` in `table` for each position of layer `depth`, the last
  // layer of its colour. The table holds the owned sequences' indices, from
  // TileIndex::class_rank of q_begin's first position on: the whole table in one
  // process, its part (whole words, q_begin being a multiple of 64) in an MPI
  // process. Blocks of 64 sequences fill whole words of the table, so they run in
  // parallel.
  void fill_table(unsigned depth, GoalTable& table) const {
    const int from = table_of(depth);
    const std::uint64_t* const words = tables_[from].words();
    const std::uint8_t* const flags = flags_[from].data();
    const std::uint64_t count = std::uint64_t(layout_.count[from]), cells = std::uint64_t(index_.cells());
    const std::uint64_t sequences = q_end_ - q_begin_, blocks = (sequences + 63) / 64;
    const std::uint64_t word_count = tables_[from].word_count();
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, blocks, 64), [&](const auto& range) {
      for (std::uint64_t k = range.begin(); k != range.end(); ++k) {
        const std::uint64_t w0 = k * 64 * count / BitTable::kPerWord;
        const std::uint64_t w1 = std::min(word_count, (std::min(sequences, (k + 1) * 64) * count + 63) / 64);
        for (std::uint64_t w = w0; w < w1; ++w) {
          if (!flags[w / BlockFlags::kWords]) {
            w = (w / BlockFlags::kWords + 1) * BlockFlags::kWords - 1;
            continue;
          }
          for (std::uint64_t hit = words[w]; hit; hit &= hit - 1) {
            const std::uint64_t entry = w * BitTable::kPerWord + unsigned(std::countr_zero(hit));
            const std::uint64_t q = layout_.divide[from].quotient(entry);
            const implicit_detail::SlotMoves& m = moves_[from][entry - q * count];
            table.or_distance(q * cells + m.blank, depth);
          }
        }
      }
    });
  }

  // The positions of depth `depth` among the owned sequences, after its expansion
  // found no deeper layer: the whole last layer, in no particular order.
  std::vector<Board> layer(unsigned depth) {
    const int from = table_of(depth);
    const std::uint64_t* words = tables_[from].words();
    const std::uint64_t count = std::uint64_t(layout_.count[from]);
    tbb::enumerable_thread_specific<std::vector<Board>> found;
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, tables_[from].word_count(), 1 << 12),
                      [&](const tbb::blocked_range<std::uint64_t>& range) {
                        implicit_detail::SequenceCache sequences(index_, suffixes_);
                        auto& out = found.local();
                        for (std::uint64_t w = range.begin(); w != range.end(); ++w) {
                          for (std::uint64_t hit = words[w]; hit; hit &= hit - 1) {
                            const std::uint64_t entry = w * BitTable::kPerWord + unsigned(std::countr_zero(hit));
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
  static constexpr int kNext = 2;  // the bitset that takes a level's marks
  static std::uint64_t widest(const Tiles& p) { return std::uint64_t(p.cells() - p.cells() / 2); }
  [[nodiscard]] int table_of(unsigned depth) const { return start_colour_ ^ int(depth & 1); }

  template <int kCols, bool kWordSides>
  bool scan_cols(unsigned depth, Cursor& c, const SlicePartition& dest, SliceQueues& out, std::size_t budget,
                 LevelCounts& counts) {
    const int from = table_of(depth), to = from ^ 1;
    const std::uint64_t* const words = tables_[from].words();
    std::uint64_t* const targets = tables_[kNext].words();
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
    std::uint64_t degrees = 0;  // not aliased with the table words: stays in a register
    const std::uint8_t* const live = flags_[from].data();
    std::uint8_t* const marked = flags_[kNext].data();
    const implicit_detail::SideMasks* const sides = side_[from].data();
    Cursor::Place p = c.place;
    for (; p.word < p.end; ++p.word) {
      if (queued >= budget) {
        c.place = p;
        counts.degrees += degrees;
        return false;
      }
      // A block without frontier is skipped. Only its first word may take right
      // marks from the previous block's frontier and its last word left marks from
      // the next one's; the scan jumps over the rest, on with the word-parallel
      // state of a word after empty ones.
      const auto jump = [&](std::uint64_t to) {
        p.word = to;
        p.before = 0;
        p.loaded = false;
        p.phase = unsigned(to * BitTable::kPerWord % count);
      };
      if (p.word == p.jump_at) {
        p.jump_at = ~std::uint64_t{0};
        jump(p.resume);
      }
      while (p.word < p.end && p.word >= p.block_end) {
        const std::uint64_t block = p.word / BlockFlags::kWords;
        p.block_end = std::min((block + 1) * BlockFlags::kWords, p.end);
        if (live[block]) break;
        const bool next_live = p.block_end < p.end && live[block + 1];
        const std::uint64_t to = next_live ? p.block_end - 1 : p.block_end;
        if (block > 0 && live[block - 1]) {
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
        if (!p.loaded) p.at = words[w], p.loaded = true;
        const std::uint64_t after = w + 1 < p.end ? words[w + 1] : 0;
        const std::uint64_t before = p.before;
        frontier = p.at;
        p.before = frontier;
        p.at = after;
        const implicit_detail::SideMasks& k = sides[p.phase];
        p.phase = k.next;
        if ((before | frontier | after) == 0) continue;
        const std::uint64_t left =
            (frontier & k.left_same) | (frontier & k.left_back) >> 1 | (after & k.left_back_next) << 63;
        const std::uint64_t right =
            (frontier & k.right_same) | (frontier & k.right_ahead) << 1 | (before & k.right_ahead_prev) >> 63;
        if (left | right) {
          targets[w] |= left | right;
          BlockFlags::mark(marked, w);
        }
      } else {
        frontier = words[w];
      }
      for (; frontier; frontier &= frontier - 1) {
        const std::uint64_t entry = w * BitTable::kPerWord + unsigned(std::countr_zero(frontier));
        const std::uint64_t q = divide.quotient(entry);
        const implicit_detail::SlotMoves& m = moves[entry - q * count];
        degrees += m.degree;
        if constexpr (!kWordSides) {
          // Left and right keep the sequence: same q, the part of the next layer
          // this slice owns and the scan streams through.
          if (m.left >= 0) implicit_detail::mark(targets, marked, q * stride + std::uint64_t(m.left));
          if (m.right >= 0) implicit_detail::mark(targets, marked, q * stride + std::uint64_t(m.right));
        }
        const TileSequence& s = c.sequences.get(q + q_begin_, m.parity);
        queue(index_.moved_lex<kCols>(s, m.first_move), m.first);
        if (m.second >= 0) queue(index_.moved_lex<kCols>(s, m.second_move), m.second);
      }
    }
    c.place = p;
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
  // The last layer of blank colour 0 and 1, and the bitset of the next layer.
  std::array<BitTable, 3> tables_;
  std::array<std::vector<implicit_detail::SideMasks>, 2> side_;  // per source colour, per phase; empty: strides differ
  std::array<BlockFlags, 3> flags_;                              // sparse levels, per bitset
};

}  // namespace statespace
