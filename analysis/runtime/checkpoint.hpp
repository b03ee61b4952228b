// Checkpoints of the bitset engines: after each level the engine's whole state goes
// to DIR/implicit-bfs.ckpt, so a killed multi-hour run continues from its last
// finished level. The implicit engine keeps the last layer of each blank colour, the
// ranked engine the positions seen and its frontier; both the layer and edge counts
// so far. One format for both, the engine named in the header, so that a resume
// under another engine is refused rather than misread.
//
// File layout (little-endian): a header
//   magic "SSPCKPT\0", u32 version, u32 header bytes,
//   str engine ("implicit", "ranked"), str puzzle, str identity (what else the
//   engine must match: the ranked engine's rank space and moves),
//   str start (the start position in the shared notation),
//   u32 level (the next level to expand), u64 n + n x u64 layer sizes,
//   u64 n + n x u64 edges between consecutive layers,
//   u64 n + n x u64 further per-level counts of the engine's own,
//   u32 tables + per table u64 entries, u64 data checksum, zero padding to a
//   multiple of 8 bytes, u64 header checksum
// (str = u32 length + bytes), then each table's words. The checksums are
// block-wise 64-bit hashes (xxHash64's round and avalanche, Collet 2012) over the
// header bytes and the table words. Written to a temporary file (all-zero 1 MiB
// blocks left as holes, so early levels of a big run cost little disk), fsync'ed,
// renamed over the previous checkpoint: a kill at any moment leaves the old or the
// new one.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/runtime/packed_table.hpp"

namespace statespace {

struct CheckpointState {
  std::string engine = "implicit";
  std::string puzzle;
  std::string identity;  // empty for the implicit engine: the puzzle's name says it all
  std::string start;
  std::uint32_t level = 0;                   // the level to expand next
  std::vector<std::uint64_t> layers;         // layers[0..level]
  std::vector<std::uint64_t> edges_to_next;  // edges between layer d and d+1, d < level
  std::vector<std::uint64_t> level_counts;   // the engine's own per-level figures
  std::vector<std::uint64_t> table_entries;  // entries of each table

  // Records the layer a level's expansion found and the moves to it. The graph is
  // bipartite, so every move from layer d goes to layer d-1 or d+1: the moves
  // between d and d+1 are layer d's degrees less those between d-1 and d.
  void add_layer(std::uint64_t claimed, std::uint64_t degrees) {
    layers.push_back(claimed);
    edges_to_next.push_back(degrees - (edges_to_next.empty() ? 0 : edges_to_next.back()));
  }
};

inline constexpr std::uint32_t kCheckpointVersion = 3;  // 1: two-bit tables; 2: no engine, identity, counts

// DIR/implicit-bfs.ckpt.
std::filesystem::path checkpoint_path(const std::filesystem::path& dir);

// Writes state and tables atomically (creating DIR); throws std::runtime_error on I/O errors.
void write_checkpoint(const std::filesystem::path& dir, const CheckpointState& state, std::span<const BitTable> tables);

// Reads and validates the header; throws UsageError when the file is missing, not a
// checkpoint, of another version, or its header checksum does not match.
CheckpointState read_checkpoint_header(const std::filesystem::path& dir);

// Throws UsageError unless `state` (read from DIR) is a checkpoint of `engine` on
// `puzzle` (of that `identity`) from `start`: resuming another run's tables would
// report a wrong space.
void require_checkpoint_of(const CheckpointState& state, const std::filesystem::path& dir, const std::string& puzzle,
                           const std::string& start, const std::string& engine = "implicit",
                           const std::string& identity = {});

// The header read_checkpoint_header finds at the start of `bytes` (`path` names the
// file in messages); throws UsageError as it does.
CheckpointState decode_checkpoint_header(std::string_view bytes, const std::filesystem::path& path);

// Fills tables (allocated with state.table_entries) from the checkpoint and checks
// the data checksum; throws UsageError on a mismatch or a truncated file.
void read_checkpoint_tables(const std::filesystem::path& dir, std::span<BitTable> tables);

// The block-wise hashes the checkpoint uses, exposed for the tests: over the tables,
// and over a header's bytes before its trailing checksum.
std::uint64_t table_checksum(std::span<const BitTable> tables);
std::uint64_t header_checksum(std::string_view bytes);
// The same block-wise hash over `count` words (distance tables' data).
std::uint64_t words_checksum(const std::uint64_t* words, std::uint64_t count);

}  // namespace statespace
