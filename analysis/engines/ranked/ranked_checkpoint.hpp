// Checkpoints of the ranked engine (analyze --checkpoint DIR, --resume DIR). Between
// two levels the whole state of the forward search is two bitsets of the rank
// space (the positions seen and `mark`, which then holds the frontier alone) and the counts so
// far, so after each level they go to DIR in the implicit engine's format
// (analysis/runtime/checkpoint.hpp: checksummed, written to a temporary and renamed),
// with the engine named "ranked". Per level d the header keeps the moves onward as
// edges_to_next[d] and, in level_counts, every move made and those within the level:
// the three numbers the reports draw on.
//
// A resumed header must match the run before any work: the engine, the puzzle's
// name and start, and an identity (the rank space, the move count and a hash of
// the successors of ranks spread over the space) that tells the same file read under
// other --moves or another --metric apart. The goal view's search (partial goals,
// directed spaces) is not checkpointed: it runs again after a resume.
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/engines/options.hpp"
#include "analysis/engines/ranked/ranked_bfs.hpp"
#include "analysis/runtime/checkpoint.hpp"
#include "analysis/runtime/packed_table.hpp"
#include "analysis/runtime/progress.hpp"
#include "core/errors.hpp"
#include "core/puzzle.hpp"

namespace statespace {

inline constexpr std::string_view kRankedCheckpointEngine = "ranked";

namespace ranked_detail {

// Moves from a position a model writing its successors' ranks into a buffer may
// write them on the stack.
inline constexpr int kBufferedMoves = 64;

// f(rank) for each successor of rank r: the model's successor ranks written into a
// stack buffer and then handed over (the engine's counts, which f keeps in locals,
// then never meet a store the compiler cannot place), the model's own rank moves,
// or a round trip through its positions. batch(r, out), where batched(), writes the
// buffer alone, for the engine's scan to fetch the successors' words ahead.
template <RankedPuzzle P>
struct RankMoves {
  static constexpr int kBatch = kBufferedMoves;
  static constexpr bool kBuffers = requires(const P& p, std::uint64_t r, std::uint64_t* out) {
    { p.successor_ranks(r, out) } -> std::convertible_to<int>;
  };
  const P* p;

  // More moves than the buffer holds take the other paths, never the heap.
  [[nodiscard]] bool batched() const { return kBuffers && p->max_moves() <= kBatch; }
  int batch(std::uint64_t r, std::uint64_t* out) const {
    if constexpr (kBuffers) {
      return p->successor_ranks(r, out);
    } else {
      return 0;
    }
  }
  template <class F>
  void operator()(std::uint64_t r, const F& f) const {
    if constexpr (kBuffers) {
      // f is only ever called here, never handed to a call that is not inlined.
      if (batched()) {
        std::array<std::uint64_t, kBatch> buffer;
        const int k = p->successor_ranks(r, buffer.data());
        for (int j = 0; j < k; ++j) f(buffer[std::size_t(j)]);
        return;
      }
    }
    if constexpr (RankSuccessorPuzzle<P>) {
      p->for_each_successor_rank(r, f);
    } else {
      p->for_each_successor(p->unrank(r), [&](const typename P::State& t) { f(p->rank(t)); });
    }
  }
};

template <RankedPuzzle P>
RankMoves<P> forward_moves(const P& p) {
  return RankMoves<P>{&p};
}

// Ranks whose successors the identity hashes: enough that two move sets differing
// anywhere on a real puzzle differ on one of them.
inline constexpr std::uint64_t kIdentitySamples = 64;

}  // namespace ranked_detail

// What a ranked checkpoint of p must match beyond the name and the start.
template <RankedPuzzle P>
std::string ranked_identity(const P& p) {
  const std::uint64_t space = p.rank_space();
  const auto forward = ranked_detail::forward_moves(p);
  std::uint64_t h = 0x9E3779B97F4A7C15ULL;
  for (std::uint64_t k = 0; k < ranked_detail::kIdentitySamples; ++k) {
    // Spread over the space, the last rank included; a repeated rank on a small
    // space hashes the same moves twice, which costs nothing.
    const std::uint64_t r = space <= 1 ? 0 : (space - 1) / (ranked_detail::kIdentitySamples - 1) * k;
    forward(r, [&](std::uint64_t t) {
      h ^= t + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
      h *= 0xBF58476D1CE4E5B9ULL;
    });
    h = (h ^ (h >> 31)) * 0x94D049BB133111EBULL;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return std::to_string(space) + " ranks, " + std::to_string(p.max_moves()) + " moves, moves " + hex;
}

// The header of the checkpoint o.resume names, checked against p from `start`:
// throws UsageError (one line) for a missing, corrupt or foreign checkpoint.
template <RankedPuzzle P>
CheckpointState ranked_resumed_header(const P& p, const AnalyzeOptions& o, const typename P::State& start) {
  CheckpointState state = read_checkpoint_header(o.resume);
  require_checkpoint_of(state, o.resume, p.name(), p.format(start), std::string(kRankedCheckpointEngine),
                        ranked_identity(p));
  const std::uint64_t space = p.rank_space();
  if (state.level_counts.size() != 2 * std::uint64_t(state.level) ||
      state.table_entries != std::vector<std::uint64_t>{space, space}) {
    throw UsageError("checkpoint " + checkpoint_path(o.resume).string() +
                     ": its counts or tables do not fit a ranked search of " + std::to_string(space) +
                     " ranks (expected a checkpoint written by statespace analyze --checkpoint DIR)");
  }
  return state;
}

// Where the ranked engine writes checkpoints and which one it resumes.
struct RankedCheckpoints {
  std::filesystem::path write_to;                       // empty: none written
  double every = 0;                                     // seconds between two checkpoints at least
  std::filesystem::path resume_from;                    // with `resumed`
  std::optional<CheckpointState> resumed;               // the header, checked
  std::function<void(std::uint32_t level)> on_written;  // called once each checkpoint is on disk

  // o's: a resumed run keeps checkpointing into the folder it resumed, as the
  // implicit engine's does.
  static RankedCheckpoints from(const AnalyzeOptions& o, std::optional<CheckpointState> resumed) {
    RankedCheckpoints c;
    c.write_to = o.checkpoint.empty() ? o.resume : o.checkpoint;
    c.every = o.checkpoint_every;
    c.resume_from = o.resume;
    c.resumed = std::move(resumed);
    c.on_written = o.on_checkpoint;
    return c;
  }
};

// The search a checkpoint kept: its layers and each expanded level's moves.
inline RankedSearch resumed_search(const CheckpointState& state) {
  RankedSearch s;
  s.layers = state.layers;
  for (std::uint32_t d = 0; d < state.level; ++d) {
    s.moves.push_back({state.level_counts[2 * d], state.level_counts[2 * d + 1], state.edges_to_next[d]});
  }
  return s;
}

// Writes the checkpoints of one forward search as its levels complete.
class RankedCheckpointWriter {
 public:
  RankedCheckpointWriter(const RankedCheckpoints& ck, CheckpointState base, std::span<BitTable> tables,
                         Progress& progress)
      : ck_(ck), base_(std::move(base)), tables_(tables), progress_(progress), written_(base_.level) {
    base_.engine = std::string(kRankedCheckpointEngine);
    base_.table_entries.clear();
    for (const BitTable& t : tables_) base_.table_entries.push_back(t.entries());
  }

  // After the level that made s's last level the frontier: writes it, when due and
  // not yet on disk (the level a run resumed at is).
  void level(const RankedSearch& s) {
    const auto level = std::uint32_t(s.layers.size() - 1);
    if (ck_.write_to.empty() || level <= written_ || progress_.seconds() - last_ < ck_.every) return;
    last_ = progress_.seconds();
    CheckpointState state = base_;
    state.level = level;
    state.layers = s.layers;
    state.edges_to_next.clear();
    state.level_counts.clear();
    for (std::uint32_t d = 0; d < level; ++d) {
      state.edges_to_next.push_back(s.moves[d].onward);
      state.level_counts.push_back(s.moves[d].successors);
      state.level_counts.push_back(s.moves[d].within);
    }
    write_checkpoint(ck_.write_to, state, std::span<const BitTable>(tables_.data(), tables_.size()));
    written_ = level;
    progress_.note("checkpoint written: level " + std::to_string(level) + " in " + ck_.write_to.string());
    if (ck_.on_written) ck_.on_written(level);
  }

 private:
  const RankedCheckpoints& ck_;
  CheckpointState base_;
  std::span<BitTable> tables_;
  Progress& progress_;
  std::uint32_t written_;
  double last_ = 0;
};

}  // namespace statespace
