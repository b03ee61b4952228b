// The ranked engine (analysis/engines/ranked/) over MPI processes, for any ranked
// model: --engine mpi on nooff, hex6, oshidori, graph files and every model with a
// dense rank.
//
// The rank space is cut into the slices of analysis/engines/common/slices.hpp (8 per
// process, as the tiles' MPI engine cuts its sequences) and each process owns a
// contiguous run of them: its part of the two planes (seen, mark). A
// level runs in rounds. Every process scans its own frontier (oneTBB inside, one
// task per own slice) and queues each successor as a 32-bit offset for the slice
// that owns it, its own slices included; the queues go to their owners in one
// MPI_Alltoallv per round (each slice stops at a fixed budget of queued offsets,
// which bounds the buffers); the owner classifies what arrives where its bits are
// (seen and marked: a move within the level; seen: a move back; else a new position
// of the next level, marked). Level counts are summed with MPI_Allreduce, and the
// level is finished everywhere when any process found a position; the last
// level's ranks gathered to rank 0, which alone writes reports. The goal view runs
// the same rounds from the goals. Results are the one-process engine's, for any
// process and thread count.
#pragma once

#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "analysis/analyze.hpp"
#include "analysis/engines/common/slices.hpp"
#include "analysis/engines/ranked/analyze_ranked.hpp"
#include "analysis/engines/ranked/ranked_bfs.hpp"
#include "analysis/runtime/goal_table.hpp"
#include "distributed/mpi_collectives.hpp"

namespace statespace {

namespace ranked_mpi_detail {

// Slices per process, fixed rather than per thread, like the tiles' MPI engine.
inline constexpr unsigned kSlicesPerProcess = 8;
// Offsets a source slice queues per round (4 bytes each): a process sends at most
// 2 x kSlicesPerProcess x (budget + a step) x 4 bytes, ~4 MiB, per round.
inline constexpr std::size_t kRoundBudget = std::size_t{1} << 16;

// Which slices, and so which ranks, each process owns: runs of consecutive slices.
struct RankOwnership {
  RankOwnership(std::uint64_t space, int processes)
      : slices(ranked_detail::partition(space, std::uint64_t(processes) * kSlicesPerProcess)),
        first(std::size_t(processes) + 1) {
    for (int r = 0; r <= processes; ++r) {
      first[std::size_t(r)] = unsigned(std::uint64_t(slices.count()) * unsigned(r) / unsigned(processes));
    }
    for (int r = 0; r < processes; ++r) {
      for (unsigned s = first[std::size_t(r)]; s < first[std::size_t(r) + 1]; ++s) process_of.push_back(r);
    }
  }
  [[nodiscard]] std::uint64_t begin(int r) const { return slices.begin(first[std::size_t(r)]); }
  [[nodiscard]] std::uint64_t end(int r) const {
    return first[std::size_t(r) + 1] > first[std::size_t(r)] ? slices.end(first[std::size_t(r) + 1] - 1) : begin(r);
  }
  SlicePartition slices;
  std::vector<unsigned> first;  // first[r]: process r's first slice; first[np] = count
  std::vector<int> process_of;
};

// Bytes process `rank` of `processes` allocates: its part of the two planes and
// one queue pool per own slice.
inline std::uint64_t process_bytes(std::uint64_t space, int processes, int rank, int moves) {
  const RankOwnership own(space, processes);
  const unsigned mine = own.first[std::size_t(rank) + 1] - own.first[std::size_t(rank)];
  const std::size_t step = std::max<std::size_t>(kRoundStep, std::size_t(std::max(moves, 1)));
  return 2 * BitTable::bytes_for(own.end(rank) - own.begin(rank)) +
         std::uint64_t(mine) * SliceQueues::pool_bytes(own.slices.count(), kRoundBudget + step, step);
}

}  // namespace ranked_mpi_detail

// RankedLayers over this process's part of the rank space, with the level's
// expansion spread over every process: the `Layers` of analyze_ranked_on().
class RankedMpiLayers {
 public:
  RankedMpiLayers(std::uint64_t space, int moves)
      : rank_(mpi_rank()),
        processes_(mpi_processes()),
        own_(space, processes_),
        local_(own_.end(rank_) - own_.begin(rank_), own_.begin(rank_)),
        step_(std::max<std::size_t>(kRoundStep, std::size_t(std::max(moves, 1)))) {}

  [[nodiscard]] bool owns(std::uint64_t r) const { return local_.owns(r); }
  void seed(std::uint64_t r) { local_.seed(r); }
  [[nodiscard]] bool in_frontier(std::uint64_t r) {
    std::array<std::uint64_t, 1> hit{local_.in_frontier(r) ? 1u : 0u};
    mpi_sum(hit);
    return hit[0] != 0;
  }
  // On rank 0: every process's frontier ranks, ascending (processes own ascending ranges).
  [[nodiscard]] std::vector<std::uint64_t> frontier_ranks() const {
    const std::vector<std::uint64_t> mine = local_.frontier_ranks();
    return mpi_gather(mine);
  }
  // analyze --table: each process fills the table's entries of its own ranks, and
  // rank 0 gathers them into the whole table. A process's ranks start on a slice,
  // at least 64 ranks long, so each part is whole data words of the whole table, in
  // rank order: the bytes are the one-process engine's.
  [[nodiscard]] std::uint64_t table_part() const { return own_.end(rank_) - own_.begin(rank_); }
  [[nodiscard]] const std::uint64_t* frontier_words() const { return local_.frontier_words(); }
  [[nodiscard]] const std::uint64_t* seen_words() const { return local_.seen_words(); }
  [[nodiscard]] std::shared_ptr<GoalTable> gather_table(std::shared_ptr<GoalTable> part) const {
    return mpi_gather_table(std::move(part), own_.slices.units());
  }

  template <class IsGoal>
  std::uint64_t restart_from(const IsGoal& is_goal) {
    std::array<std::uint64_t, 1> goals{local_.restart_from(is_goal)};
    mpi_sum(goals);
    return goals[0];
  }

  template <class Expand>
  RankedLevelMoves expand(std::uint64_t, int moves, const Expand& expand_rank, std::uint64_t& found) {
    const unsigned mine = own_.first[std::size_t(rank_)], n = own_.first[std::size_t(rank_) + 1] - mine;
    const SlicePartition& slices = own_.slices;
    std::vector<Cursor> cursors(n);
    for (unsigned s = 0; s < n; ++s) {
      cursors[s].word = (slices.begin(mine + s) - own_.begin(rank_)) / 64;
      cursors[s].end = (slices.end(mine + s) - own_.begin(rank_) + 63) / 64;
    }
    if (queues_.size() != n) {
      queues_.clear();
      for (unsigned s = 0; s < n; ++s)
        queues_.emplace_back(slices.count(), ranked_mpi_detail::kRoundBudget + step_, step_);
    }
    std::vector<RankedLevelMoves> applied(n);
    std::vector<char> done(n, 0);
    const std::size_t per_call = step_ - std::size_t(std::max(moves, 1));
    // The frontier is seen & mark: the marks an earlier round made are of ranks not seen.
    const std::uint64_t* const seen = local_.seen_words();
    const std::uint64_t* const mark = local_.mark_words();
    const std::uint64_t base = own_.begin(rank_);
    for (;;) {
      tbb::parallel_for(
          0u, n,
          [&](unsigned s) {
            SliceQueues& out = queues_[s];
            Cursor& c = cursors[s];
            while (!done[s] && out.size() < ranked_mpi_detail::kRoundBudget) {
              out.make_room();
              const std::size_t stop = out.size() + per_call;
              std::size_t queued = out.size();
              bool first = true;
              bool paused = false;
              for (; c.word < c.end && !paused; ++c.word, c.loaded = false) {
                if (!c.loaded) c.rest = seen[c.word] & mark[c.word], c.loaded = true;
                while (c.rest) {
                  if (!first && queued >= stop) {
                    paused = true;
                    break;
                  }
                  first = false;
                  const std::uint64_t r = base + c.word * 64 + unsigned(std::countr_zero(c.rest));
                  c.rest &= c.rest - 1;
                  expand_rank(r, [&](std::uint64_t t) {
                    ++c.successors;
                    if (t == r) return;  // a self-loop joins no two positions
                    out.push(slices.owner(t), std::uint32_t(slices.within(t)));
                    ++queued;
                  });
                }
                if (paused) break;
              }
              if (!paused) done[s] = 1;
            }
          },
          tbb::simple_partitioner());
      std::vector<std::vector<std::uint32_t>> send(static_cast<std::size_t>(processes_));
      for (int r = 0; r < processes_; ++r) {
        append_records(send[std::size_t(r)], own_.first[std::size_t(r)], own_.first[std::size_t(r) + 1], queues_);
      }
      for (auto& q : queues_) q.clear();
      const std::vector<std::uint32_t> recv = mpi_exchange(send);
      const auto arrived = records_by_slice(recv, mine, n);
      tbb::parallel_for(
          0u, n,
          [&](unsigned t) {
            for (const auto& offsets : arrived[t]) local_.mark_arrived(slices.begin(mine + t), offsets, applied[t]);
          },
          tbb::simple_partitioner());
      std::array<std::uint64_t, 1> busy{std::uint64_t(std::count(done.begin(), done.end(), 0))};
      mpi_sum(busy);
      if (busy[0] == 0) break;
    }
    std::array<std::uint64_t, 3> sums{0, 0, 0};
    for (unsigned s = 0; s < n; ++s) {
      sums[0] += cursors[s].successors;
      sums[1] += applied[s].within;
      sums[2] += applied[s].onward;
    }
    mpi_sum(sums);
    // A move onward on any process found a position: every process finishes the
    // level then (one with none found empties its frontier); otherwise every
    // frontier stays, the farthest positions.
    std::array<std::uint64_t, 1> finished{sums[2] ? local_.finish() : 0};
    mpi_sum(finished);
    found = finished[0];
    return {sums[0], sums[1], sums[2]};
  }

 private:
  struct alignas(64) Cursor {
    std::uint64_t word = 0, end = 0, rest = 0;
    bool loaded = false;
    std::uint64_t successors = 0;
  };

  int rank_, processes_;
  ranked_mpi_detail::RankOwnership own_;
  RankedLayers local_;
  std::size_t step_;
  std::vector<SliceQueues> queues_;  // one per own slice, kept across levels
};

// The analysis of p from `start` over every MPI process (one without mpirun): a
// collective, every rank calls it alike. Every process checks every process's share
// against o.memory before allocating; rank 0 alone formats positions and writes.
template <RankedPuzzle P>
MpiAnalysis analyze_mpi_ranked(const P& p, const typename P::State& start, const AnalyzeOptions& o) {
  require_mpi_engine(p.name());
  const int rank = mpi_rank(), processes = mpi_processes();
  for (int r = 0; r < processes; ++r) {
    const std::uint64_t need = ranked_mpi_detail::process_bytes(p.rank_space(), processes, r, p.max_moves());
    if (need > o.memory.bytes()) {
      try {
        o.memory.require(need, p.name() + ": ranked BFS tables of MPI process " + std::to_string(r) + " of " +
                                   std::to_string(processes));
      } catch (const UsageError& e) {
        mpi_refuse(e.what());
      }
    }
  }
  AnalyzeOptions here = o;
  here.progress = o.progress && rank == 0;
  RankedMpiLayers tables(p.rank_space(), p.max_moves());
  return {analyze_ranked_on(p, here, start, tables, Engine::mpi), rank == 0};
}

}  // namespace statespace
