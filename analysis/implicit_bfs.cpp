#include "analysis/implicit_bfs.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cassert>
#include <numeric>
#include <span>
#include <string>

#include "analysis/checkpoint.hpp"
#include "analysis/progress.hpp"
#include "analysis/two_bit_table.hpp"
#include "core/errors.hpp"
#include "core/ranking.hpp"
#include "puzzles/tile_index.hpp"
#include "puzzles/tile_sequence_decoder.hpp"

namespace statespace {

namespace {

constexpr unsigned kUnseen = 0;
constexpr unsigned kOld = 3;
constexpr std::uint64_t kLowBits = 0x5555555555555555ULL;
constexpr std::uint64_t kGrainWords = 1 << 12;  // 128 Ki entries per task

// The code of the positions at depth d (see the header): 1, 1, 2, 2, 1, 1, ...
constexpr unsigned code_of(unsigned depth) { return 1u + ((depth >> 1) & 1u); }

// Where a position lives: table colour(blank), entry q * count[colour] + slot(blank),
// q being the class index's sequence part lex >> 1.
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

struct LevelCounts {
  std::uint64_t claimed = 0;  // positions of depth d+1 found
  std::uint64_t edges = 0;    // moves between depths d and d+1
};

// The sequence of class index q with the parity a slot needs: lex 2q or 2q + 1
// (swapping the last two tiles flips the parity and adds one to lex; both ranks are
// in one block of the suffix table). Each is decoded at most once per q.
class SequenceCache {
 public:
  SequenceCache(const TileIndex& index, const TileSuffixTable& table) : decoder_(index, table) {}
  const TileSequence& get(std::uint64_t q, unsigned parity) {
    if (q != q_) {
      q_ = q;
      even_parity_ = decoder_.decode(q << 1, variant_[0]);
      odd_ready_ = false;
    }
    if (parity == even_parity_) return variant_[0].s;
    if (!odd_ready_) {
      (void)decoder_.decode((q << 1) + 1, variant_[1]);
      odd_ready_ = true;
    }
    return variant_[1].s;
  }

 private:
  TileSequenceDecoder decoder_;
  std::uint64_t q_ = ~std::uint64_t{0};
  std::array<TileSequenceDecoder::Output, 2> variant_{};  // lex 2q and 2q + 1
  unsigned even_parity_ = 0;
  bool odd_ready_ = false;
};

// What a blank in one slot of a table can do: its cell, the sequence parity its
// positions have, and the slot in the other table after each move (-1: off the board).
struct SlotMoves {
  std::uint8_t blank = 0;
  std::uint8_t parity = 0;
  std::int8_t left = -1, right = -1, up = -1, down = -1;
};

// Neighbour lookups of one task, batched: entries are prefetched as they are
// computed and resolved once a batch is full, so the random reads overlap.
class ClaimQueue {
 public:
  static constexpr unsigned kBatch = 256;
  ClaimQueue(std::uint64_t* words, unsigned next_code) : words_(words), next_(next_code) {}
  void push(std::uint64_t entry) {
    __builtin_prefetch(words_ + entry / TwoBitTable::kPerWord, 1);
    batch_[size_++] = entry;
  }
  // Call between frontier words: room for one word's 32 positions x 2 moves remains.
  void flush_if_full() {
    if (size_ + 2 * TwoBitTable::kPerWord > kBatch) drain();
  }
  // For entries next to the ones the scan is reading: already cached, no need to wait.
  void resolve_now(std::uint64_t entry) { resolve(entry); }
  void drain() {
    for (unsigned i = 0; i < size_; ++i) resolve(batch_[i]);
    size_ = 0;
  }
  [[nodiscard]] const LevelCounts& counts() const { return counts_; }

 private:
  void resolve(std::uint64_t entry) {
    std::atomic_ref<std::uint64_t> word(words_[entry / TwoBitTable::kPerWord]);
    const unsigned shift = unsigned(2 * (entry % TwoBitTable::kPerWord));
    const unsigned code = unsigned(word.load(std::memory_order_relaxed) >> shift) & 3u;
    assert(code != kOld);  // old entries are at least three levels back: never neighbours
    if (code == next_) {
      ++counts_.edges;
    } else if (code == kUnseen) {
      // Codes 1 and 2 are single bits, so claiming is one atomic bit-test-and-set: the
      // entry can only have gone from unseen to next meanwhile, never elsewhere.
      ++counts_.edges;
      const std::uint64_t bit = std::uint64_t{1} << (shift + next_ - 1);
      counts_.claimed += (word.fetch_or(bit, std::memory_order_relaxed) & bit) == 0;
    }
  }
  std::uint64_t* words_;
  unsigned next_;
  std::array<std::uint64_t, kBatch> batch_{};
  unsigned size_ = 0;
  LevelCounts counts_;
};

class Engine {
 public:
  Engine(const Tiles& p, Board start, const MemoryBudget& budget)
      : index_(p.rows(), p.cols()),
        suffixes_(index_),
        layout_(index_),
        cls_(index_.class_of(start)),
        start_colour_(layout_.colour_of[find_blank(start, index_.cells())]) {
    budget.require(implicit_bytes(p), p.name() + ": implicit BFS tables");
    const std::uint64_t sequences = kFactorial[index_.tiles()] / 2;
    for (int c = 0; c < 2; ++c) tables_[c] = TwoBitTable(sequences * std::uint64_t(layout_.count[c]));
    const int cols = index_.cols(), cells = index_.cells();
    for (int b = 0; b < cells; ++b) {
      SlotMoves& m = moves_[layout_.colour_of[b]][layout_.slot_of[b]];
      m.blank = std::uint8_t(b);
      m.parity = std::uint8_t(index_.parity_for(cls_, b));
      if (b % cols > 0) m.left = std::int8_t(layout_.slot_of[b - 1]);
      if (b % cols + 1 < cols) m.right = std::int8_t(layout_.slot_of[b + 1]);
      if (b >= cols) m.up = std::int8_t(layout_.slot_of[b - cols]);
      if (b + cols < cells) m.down = std::int8_t(layout_.slot_of[b + cols]);
    }
  }

  std::array<TwoBitTable, 2>& tables() { return tables_; }

  void seed(Board start) {
    const int blank = find_blank(start, index_.cells());
    const std::uint64_t q = index_.class_rank(start) / std::uint64_t(index_.cells());
    tables_[start_colour_].set(q * std::uint64_t(layout_.count[start_colour_]) + layout_.slot_of[blank], code_of(0));
  }

  // One level; the board width as a template argument unrolls the O(C) rank updates.
  LevelCounts expand(unsigned depth) {
    switch (index_.cols()) {
      case 2:
        return expand_level<2>(depth);
      case 3:
        return expand_level<3>(depth);
      case 4:
        return expand_level<4>(depth);
      case 5:
        return expand_level<5>(depth);
      case 6:
        return expand_level<6>(depth);
      case 7:
        return expand_level<7>(depth);
      default:
        return expand_level<8>(depth);  // R, C >= 2 and RC <= 16
    }
  }

  // The positions of code(depth) in table(depth): the whole last layer after its expansion.
  std::vector<Board> layer(unsigned depth) {
    const int from = table_of(depth);
    const std::uint64_t* words = tables_[from].words();
    const unsigned current = code_of(depth);
    tbb::enumerable_thread_specific<std::vector<Board>> found;
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, tables_[from].word_count(), kGrainWords),
                      [&](const tbb::blocked_range<std::uint64_t>& range) {
                        SequenceCache sequences(index_, suffixes_);
                        auto& out = found.local();
                        for (std::uint64_t w = range.begin(); w != range.end(); ++w) {
                          for (std::uint64_t hit = matching(words[w], current); hit; hit &= hit - 1) {
                            const std::uint64_t entry = w * TwoBitTable::kPerWord + unsigned(std::countr_zero(hit)) / 2;
                            const std::uint64_t q = layout_.divide[from].quotient(entry);
                            const SlotMoves& m = moves_[from][entry - q * std::uint64_t(layout_.count[from])];
                            out.push_back(index_.board_of(sequences.get(q, m.parity), m.blank));
                          }
                        }
                      });
    std::vector<std::pair<std::uint64_t, Board>> ranked;
    for (const auto& part : found) {
      for (Board b : part) ranked.emplace_back(permutation_rank(b, index_.cells()), b);
    }
    std::sort(ranked.begin(), ranked.end());
    std::vector<Board> out;
    out.reserve(ranked.size());
    for (const auto& [rank, b] : ranked) out.push_back(b);
    return out;
  }

 private:
  [[nodiscard]] int table_of(unsigned depth) const { return start_colour_ ^ int(depth & 1); }

  // Bit 2i set when entry i of word x holds `code` (1 or 2).
  static std::uint64_t matching(std::uint64_t x, unsigned code) {
    const std::uint64_t lo = x & kLowBits, hi = (x >> 1) & kLowBits;
    return code == 1 ? lo & ~hi : hi & ~lo;
  }

  template <int kCols>
  LevelCounts expand_level(unsigned depth) {
    const int from = table_of(depth), to = from ^ 1;
    std::uint64_t* const words = tables_[from].words();
    const unsigned current = code_of(depth);
    const std::uint64_t count = std::uint64_t(layout_.count[from]), stride = std::uint64_t(layout_.count[to]);
    const FastDivisor divide = layout_.divide[from];
    return tbb::parallel_reduce(
        tbb::blocked_range<std::uint64_t>(0, tables_[from].word_count(), kGrainWords), LevelCounts{},
        [&](const tbb::blocked_range<std::uint64_t>& range, LevelCounts counts) {
          SequenceCache sequences(index_, suffixes_);
          ClaimQueue queue(tables_[to].words(), code_of(depth + 1));
          for (std::uint64_t w = range.begin(); w != range.end(); ++w) {
            const std::uint64_t x = words[w];
            if (x == 0) continue;
            std::uint64_t frontier = matching(x, current);
            const std::uint64_t stale = matching(x, current ^ 3u);  // depth d-2: now old
            if (stale) words[w] = x | stale | (stale << 1);
            queue.flush_if_full();
            for (; frontier; frontier &= frontier - 1) {
              const std::uint64_t entry = w * TwoBitTable::kPerWord + unsigned(std::countr_zero(frontier)) / 2;
              const std::uint64_t q = divide.quotient(entry);
              const SlotMoves& m = moves_[from][entry - q * count];
              // Left and right keep the sequence: same q, neighbouring blank, in the
              // part of the other table that the scan's position q streams through.
              if (m.left >= 0) queue.resolve_now(q * stride + std::uint64_t(m.left));
              if (m.right >= 0) queue.resolve_now(q * stride + std::uint64_t(m.right));
              const TileSequence& s = sequences.get(q, m.parity);
              if (m.up >= 0)
                queue.push((index_.moved_lex<kCols>(s, m.blank, false) >> 1) * stride + std::uint64_t(m.up));
              if (m.down >= 0) {
                queue.push((index_.moved_lex<kCols>(s, m.blank, true) >> 1) * stride + std::uint64_t(m.down));
              }
            }
          }
          queue.drain();
          counts.claimed += queue.counts().claimed;
          counts.edges += queue.counts().edges;
          return counts;
        },
        [](LevelCounts a, const LevelCounts& b) {
          a.claimed += b.claimed;
          a.edges += b.edges;
          return a;
        });
  }

  TileIndex index_;
  TileSuffixTable suffixes_;
  Layout layout_;
  unsigned cls_;
  int start_colour_;
  std::array<std::array<SlotMoves, Board::kMaxCells>, 2> moves_{};
  std::array<TwoBitTable, 2> tables_;
};

}  // namespace

std::uint64_t ImplicitResult::states() const { return std::accumulate(layers.begin(), layers.end(), std::uint64_t{0}); }

std::uint64_t ImplicitResult::edges() const {
  std::uint64_t total = 0;
  for (const auto& e : layer_edges) total += e.count;
  return total;
}

std::uint64_t implicit_bytes(const Tiles& p) {
  const std::uint64_t sequences = kFactorial[p.cells() - 1] / 2;
  const int dark = p.cells() / 2, light = p.cells() - dark;
  return TwoBitTable::bytes_for(sequences * std::uint64_t(dark)) +
         TwoBitTable::bytes_for(sequences * std::uint64_t(light));
}

ImplicitResult implicit_bfs(const Tiles& p, Board start, const ImplicitOptions& o) {
  const std::string start_text = p.format(start);
  CheckpointState state;
  if (!o.resume.empty()) {
    state = read_checkpoint_header(o.resume);
    if (state.puzzle != p.name() || state.start != start_text) {
      throw UsageError("checkpoint in " + o.resume.string() + " is for " + state.puzzle + " from \"" + state.start +
                       "\", not " + p.name() + " from \"" + start_text + "\" (pass the same puzzle and --from)");
    }
  }
  Engine engine(p, start, o.memory);
  auto& tables = engine.tables();
  if (!o.resume.empty()) {
    read_checkpoint_tables(o.resume, tables);
  } else {
    engine.seed(start);
    state.puzzle = p.name();
    state.start = start_text;
    state.layers = {1};
  }
  for (const auto& t : tables) state.table_entries.push_back(t.entries());

  Progress progress(p.name() + " implicit bfs", o.progress);
  std::uint64_t total = std::accumulate(state.layers.begin(), state.layers.end(), std::uint64_t{0});
  double last_checkpoint = 0;
  for (;; ++state.level) {
    const LevelCounts level = engine.expand(state.level);
    if (level.claimed == 0) break;
    state.layers.push_back(level.claimed);
    state.edges_to_next.push_back(level.edges);
    total += level.claimed;
    progress.level(state.level + 1, level.claimed, total, implicit_bytes(p));
    if (!o.checkpoint.empty() && progress.seconds() - last_checkpoint >= o.checkpoint_every) {
      last_checkpoint = progress.seconds();
      CheckpointState next = state;
      ++next.level;
      write_checkpoint(o.checkpoint, next, tables);
      if (o.on_checkpoint) o.on_checkpoint(next.level);
    }
  }
  ImplicitResult r;
  r.layers = state.layers;
  for (unsigned d = 0; d < state.edges_to_next.size(); ++d) r.layer_edges.push_back({d, d + 1, state.edges_to_next[d]});
  r.farthest = engine.layer(state.level);
  return r;
}

}  // namespace statespace
