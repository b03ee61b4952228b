// The implicit BFS (analysis/engines/implicit/implicit_bfs.hpp) over MPI processes, for boards whose
// layer bitsets outgrow one machine (tiles:3x5 at 131 GB, 4x4 at 2.0 TB).
//
// The sequence range is cut into the slices of analysis/engines/common/slices.hpp and each process
// owns a contiguous run of them: its part of the three layer bitsets, and so of the
// frontier. A level runs in rounds: every process scans its slices (oneTBB inside),
// marking left/right neighbours itself and queueing up/down neighbours per
// destination slice; the queues go to their owners in one MPI_Alltoallv per round
// (each source stops at a fixed budget of queued entries, which bounds the buffers);
// the owners mark what they received, and each process finishes the level on its
// own part. Level counts are summed with MPI_Allreduce,
// the farthest positions gathered to rank 0, which alone writes reports. The results
// are the single-process engine's, for any process count and thread count.
//
// Why Alltoallv rather than point-to-point: a round's messages are all-to-all by
// nature (random up/down neighbours), the collective lets Open MPI pick the
// algorithm, and the round is a barrier anyway (owners must not apply while a
// source still scans the same words).
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/engines/implicit/implicit_bfs.hpp"

namespace statespace {

// MPI_COMM_WORLD's rank and size, initialising MPI on first use: without mpirun the
// program runs as one process (MPI singleton).
int mpi_rank();
int mpi_processes();

struct MpiResult {
  ImplicitResult bfs;                          // farthest filled on rank 0 only
  std::vector<std::uint64_t> exchanged_bytes;  // per level d -> d+1: bytes sent between processes
};

// Bytes of both tables that process `rank` of `processes` allocates for p.
std::uint64_t mpi_process_bytes(const Tiles& p, int processes, int rank);

// Indices of the tiles table (TileIndex::class_rank) that process `rank` of
// `processes` fills with analyze --table: those of its own sequences, a run of whole
// data words of the table (its first sequence is a multiple of 64).
std::uint64_t mpi_table_entries(const Tiles& p, int processes, int rank);

// The BFS from `start` over all processes (a collective: every rank calls it with the
// same arguments). Before allocating, every process checks every process's share
// against o.memory; the first that does not fit is refused. Checkpoints go to
// o.checkpoint/mpi-np<N>-rank<R>-level<L>/ (o.on_checkpoint runs on every rank once all
// have written one), and o.resume needs the same process count. o.table, when set,
// is this process's part of the table (mpi_table_entries).
MpiResult mpi_bfs(const Tiles& p, Board start, const ImplicitOptions& o);

}  // namespace statespace
