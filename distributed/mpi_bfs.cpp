#include "distributed/mpi_bfs.hpp"

#include <mpi.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include <algorithm>
#include <boost/mpi/environment.hpp>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <span>
#include <string>

#include "analysis/engines/common/checkpoint_seed.hpp"
#include "analysis/engines/common/slices.hpp"
#include "analysis/engines/implicit/implicit_engine.hpp"
#include "analysis/runtime/checkpoint.hpp"
#include "analysis/runtime/progress.hpp"
#include "core/errors.hpp"
#include "distributed/mpi_collectives.hpp"

namespace statespace {

namespace {

// Slices per process, fixed (not per thread) so that a checkpoint's slices do not
// depend on the thread count it was written with.
constexpr unsigned kSlicesPerProcess = 8;
// Up/down targets a source slice queues per round (4 bytes each). The partition
// makes 1 to 2 x kSlicesPerProcess slices per process, so a process sends at most
// 2 x kSlicesPerProcess x (budget + overshoot) x 4 bytes, ~4 MiB, per round.
constexpr std::size_t kRoundBudget = std::size_t{1} << 16;

boost::mpi::environment& environment() {
  // Only the calling thread talks MPI; oneTBB's workers never do.
  static boost::mpi::environment env(boost::mpi::threading::funneled, true);
  return env;
}

int world_int(int (*query)(MPI_Comm, int*)) {
  (void)environment();
  int v = 0;
  query(MPI_COMM_WORLD, &v);
  return v;
}

// Which slices (and so which sequences) each process owns: runs of consecutive
// slices, as even as the slice count allows (an uneven split for np = 3 too).
struct Ownership {
  Ownership(const Tiles& p, int processes)
      : slices(ImplicitEngine::partition(p, std::uint64_t(processes) * kSlicesPerProcess)),
        first(std::size_t(processes) + 1) {
    for (int r = 0; r <= processes; ++r)
      first[r] = unsigned(std::uint64_t(slices.count()) * unsigned(r) / unsigned(processes));
    for (int r = 0; r < processes; ++r) {
      for (unsigned s = first[r]; s < first[r + 1]; ++s) process_of.push_back(r);
    }
  }
  [[nodiscard]] std::uint64_t q_begin(int r) const { return slices.begin(first[r]); }
  [[nodiscard]] std::uint64_t q_end(int r) const {
    return first[r + 1] > first[r] ? slices.end(first[r + 1] - 1) : q_begin(r);
  }
  SlicePartition slices;
  std::vector<unsigned> first;  // first[r]: rank r's first slice; first[np] = count
  std::vector<int> process_of;
};

std::uint64_t all_sum(std::uint64_t v) {
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return v;
}

// One level in rounds: scan own slices, exchange the queues, apply what arrived.
// Returns the level's counts over all processes and the bytes sent between them.
struct LevelTotals {
  LevelCounts counts;
  std::uint64_t exchanged = 0;
};

LevelTotals expand(ImplicitEngine& engine, unsigned depth, const Ownership& own, int rank, int processes) {
  const unsigned mine = own.first[rank], n = own.first[rank + 1] - mine;
  std::vector<ImplicitEngine::Cursor> cursors;
  for (unsigned s = 0; s < n; ++s)
    cursors.push_back(engine.cursor(depth, own.slices.begin(mine + s), own.slices.end(mine + s)));
  std::vector<SliceQueues> queues = ImplicitEngine::queues(n, own.slices.count(), kRoundBudget, kRoundStep);
  std::vector<LevelCounts> scanned(n);
  std::vector<char> done(n, 0);
  std::vector<int> send_counts(processes), send_displs(processes), recv_counts(processes), recv_displs(processes);
  std::vector<std::uint32_t> send, recv;
  std::uint64_t exchanged = 0;
  for (;;) {
    tbb::parallel_for(
        0u, n,
        [&](unsigned s) {
          while (!done[s] && queues[s].size() < kRoundBudget) {
            queues[s].make_room();
            done[s] = engine.scan(depth, cursors[s], own.slices, queues[s],
                                  std::min(queues[s].size() + kRoundStep, kRoundBudget), scanned[s]);
          }
        },
        tbb::simple_partitioner());
    // Messages: per destination process, records (slice, count, offsets...).
    send.clear();
    for (int r = 0; r < processes; ++r) {
      send_displs[r] = int(send.size());
      append_records(send, own.first[r], own.first[r + 1], queues);
      send_counts[r] = int(send.size()) - send_displs[r];
      if (r != rank) exchanged += std::uint64_t(send_counts[r]) * 4;
    }
    for (auto& q : queues) q.clear();
    MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
    std::exclusive_scan(recv_counts.begin(), recv_counts.end(), recv_displs.begin(), 0);
    recv.resize(std::size_t(recv_displs.back()) + std::size_t(recv_counts.back()));
    MPI_Alltoallv(send.data(), send_counts.data(), send_displs.data(), MPI_UINT32_T, recv.data(), recv_counts.data(),
                  recv_displs.data(), MPI_UINT32_T, MPI_COMM_WORLD);
    const auto arrived = records_by_slice(recv, mine, n);
    tbb::parallel_for(
        0u, n,
        [&](unsigned t) {
          for (const auto& targets : arrived[t]) engine.apply(depth, own.slices.begin(mine + t), targets);
        },
        tbb::simple_partitioner());
    const std::uint64_t busy = std::uint64_t(std::count(done.begin(), done.end(), 0));
    if (all_sum(busy) == 0) break;
  }
  LevelCounts local;
  for (const auto& c : scanned) local += c;
  local.claimed = engine.finish(depth);
  std::uint64_t sums[3] = {local.claimed, local.degrees, exchanged};
  MPI_Allreduce(MPI_IN_PLACE, sums, 3, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return {{sums[0], sums[1]}, sums[2]};
}

// A refusal every rank reaches alike (same arguments, same files): rank 0 reports
// it, the others leave quietly, so the user sees one line.
[[noreturn]] void refuse(int rank, const std::string& message) {
  if (rank == 0) throw UsageError(message);
  std::exit(2);
}

std::filesystem::path rank_folder(const std::filesystem::path& dir, int processes, int rank, std::uint32_t level) {
  return dir /
         ("mpi-np" + std::to_string(processes) + "-rank" + std::to_string(rank) + "-level" + std::to_string(level));
}

// Levels of this rank's checkpoints in dir (for `processes`), and the process
// counts of any other checkpoints there.
struct Found {
  std::vector<std::uint32_t> levels;
  std::vector<int> other_counts;
};

Found find_checkpoints(const std::filesystem::path& dir, int processes, int rank) {
  Found f;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    int np = 0, r = 0;
    unsigned level = 0;
    if (std::sscanf(entry.path().filename().c_str(), "mpi-np%d-rank%d-level%u", &np, &r, &level) != 3) continue;
    if (np != processes) {
      f.other_counts.push_back(np);
    } else if (r == rank && std::filesystem::exists(checkpoint_path(entry.path()))) {
      f.levels.push_back(level);
    }
  }
  return f;
}

}  // namespace

int mpi_rank() { return world_int(MPI_Comm_rank); }
int mpi_processes() { return world_int(MPI_Comm_size); }

std::uint64_t mpi_process_bytes(const Tiles& p, int processes, int rank) {
  const Ownership own(p, processes);
  return ImplicitEngine::table_bytes(p, own.q_end(rank) - own.q_begin(rank));
}

std::uint64_t mpi_table_entries(const Tiles& p, int processes, int rank) {
  const Ownership own(p, processes);
  return (own.q_end(rank) - own.q_begin(rank)) * std::uint64_t(p.cells());
}

MpiResult mpi_bfs(const Tiles& p, Board start, const ImplicitOptions& o) {
  const int rank = mpi_rank(), processes = mpi_processes();
  const Ownership own(p, processes);
  const std::string start_text = p.format(start);
  for (int r = 0; r < processes; ++r) {
    const std::uint64_t need = mpi_process_bytes(p, processes, r);
    if (need > o.memory.bytes()) {
      try {
        o.memory.require(need, p.name() + ": implicit BFS tables of MPI process " + std::to_string(r) + " of " +
                                   std::to_string(processes));
      } catch (const UsageError& e) {
        refuse(rank, e.what());
      }
    }
  }

  CheckpointState state;
  std::optional<std::uint32_t> resume_level;
  if (!o.resume.empty()) {
    const Found found = find_checkpoints(o.resume, processes, rank);
    std::uint32_t newest = found.levels.empty() ? 0 : *std::max_element(found.levels.begin(), found.levels.end());
    int have = found.levels.empty() ? 0 : 1;
    MPI_Allreduce(MPI_IN_PLACE, &have, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!have) {
      if (!found.other_counts.empty()) {
        refuse(rank, "checkpoint in " + o.resume.string() + " was written by " + std::to_string(found.other_counts[0]) +
                         " MPI processes, not " + std::to_string(processes) + " (resume with mpirun -np " +
                         std::to_string(found.other_counts[0]) + ")");
      }
      refuse(rank,
             "checkpoint in " + o.resume.string() +
                 ": no MPI checkpoint (expected one written by statespace analyze --engine mpi --checkpoint DIR)");
    }
    // Older levels are deleted only once every rank wrote the newer one, so the
    // oldest rank's newest level is on every rank.
    MPI_Allreduce(MPI_IN_PLACE, &newest, 1, MPI_UINT32_T, MPI_MIN, MPI_COMM_WORLD);
    resume_level = newest;
    state = read_checkpoint_header(rank_folder(o.resume, processes, rank, newest));
    if (state.puzzle != p.name() || state.start != start_text) {
      refuse(rank, "checkpoint in " + o.resume.string() + " is for " + state.puzzle + " from \"" + state.start +
                       "\", not " + p.name() + " from \"" + start_text + "\" (pass the same puzzle and --from)");
    }
  }
  ImplicitEngine engine(p, start, own.q_begin(rank), own.q_end(rank));
  const std::span<BitTable> tables = engine.tables();
  seed_or_resume(engine, tables,
                 resume_level ? rank_folder(o.resume, processes, rank, *resume_level) : std::filesystem::path(), start,
                 p.name(), start_text, state);
  if (!resume_level && o.table) engine.fill_table(0, *o.table);

  MpiResult result;
  Progress progress(p.name() + " mpi bfs (" + std::to_string(processes) + " processes)", o.progress && rank == 0);
  std::uint64_t total = std::accumulate(state.layers.begin(), state.layers.end(), std::uint64_t{0});
  double last_checkpoint = 0;
  for (;; ++state.level) {
    const LevelTotals level = expand(engine, state.level, own, rank, processes);
    if (level.counts.claimed == 0) break;
    state.add_layer(level.counts.claimed, level.counts.degrees);
    result.exchanged_bytes.push_back(level.exchanged);
    if (o.table) engine.fill_table(state.level + 1, *o.table);
    total += level.counts.claimed;
    progress.level(state.level + 1, level.counts.claimed, total, mpi_process_bytes(p, processes, 0), level.exchanged);
    // Every rank decides alike: rank 0's clock.
    int write = !o.checkpoint.empty() && progress.seconds() - last_checkpoint >= o.checkpoint_every;
    MPI_Bcast(&write, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (write) {
      last_checkpoint = progress.seconds();
      CheckpointState next = state;
      ++next.level;
      write_checkpoint(rank_folder(o.checkpoint, processes, rank, next.level), next, tables);
      MPI_Barrier(MPI_COMM_WORLD);  // every rank has level next.level: older ones may go
      for (std::uint32_t old : find_checkpoints(o.checkpoint, processes, rank).levels) {
        if (old < next.level) std::filesystem::remove_all(rank_folder(o.checkpoint, processes, rank, old));
      }
      if (o.on_checkpoint) o.on_checkpoint(next.level);
    }
  }
  if (rank == 0 && o.progress) {
    const std::uint64_t sent =
        std::accumulate(result.exchanged_bytes.begin(), result.exchanged_bytes.end(), std::uint64_t{0});
    std::fprintf(stderr, "%s: %llu bytes exchanged between %d processes over %zu levels\n", p.name().c_str(),
                 static_cast<unsigned long long>(sent), processes, result.exchanged_bytes.size());
  }
  result.bfs.layers = state.layers;
  for (unsigned d = 0; d < state.edges_to_next.size(); ++d) {
    result.bfs.layer_edges.push_back({d, d + 1, state.edges_to_next[d]});
  }

  // The farthest positions: each rank's part to rank 0, which sorts them.
  std::vector<std::uint64_t> mine;
  for (Board b : engine.layer(state.level)) mine.push_back(b.bits);
  const std::vector<std::uint64_t> all = mpi_gather(mine);
  if (rank == 0) {
    std::vector<Board> boards;
    for (std::uint64_t bits : all) {
      Board b;
      b.bits = bits;
      boards.push_back(b);
    }
    result.bfs.farthest = farthest_in_rank_order(boards, p.cells());
  }
  return result;
}

}  // namespace statespace
