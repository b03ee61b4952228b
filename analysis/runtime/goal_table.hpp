// Distance tables: the distance to the goal of every position an analysis reached,
// kept in a file that a query maps and probes without loading it (docs/tables.md,
// after the Syzygy tablebases). The engines fill a GoalTable level by level while
// they search from the goal; reports/table_file.hpp writes it into the report
// bundle; GoalTableFile maps one back and checks its header before any probe.
//
// File layout (little-endian): a header
//   magic "SSPTABLE", u32 version, u32 header bytes (a multiple of 8),
//   str puzzle, str identity (what else a position's index depends on: the rank
//   space, the moves, a hash of the successors), str goal (the goal position or
//   picture), str index ("rank": the model's rank; "tile-class": a sliding-tile
//   board's index within its reachability class),
//   u32 encoding (1: two bits an index, 2: one byte an index), u32 flags (bit 0:
//   directed), u64 entries (indices), u64 reached, u64 dead,
//   u64 n + n x u64 positions at each distance to the goal,
//   u64 data bytes, u64 data checksum, zero padding to a multiple of 8 bytes,
//   u64 header checksum
// (str = u32 length + bytes), then the data. Checksums are the checkpoints' block
// hashes (analysis/runtime/checkpoint.hpp).
//
// Encodings. Two bits (undirected spaces): index i is bits 2(i%32)..2(i%32)+1 of
// data word i/32; 0 means no distance (not reached), c = 1..3 a distance d with
// d mod 3 = c - 1. Every move changes the distance to the goal by at most one, so
// the neighbour one closer is the one whose code is one lower (mod 3), and a walk
// along such neighbours reaches the goal in exactly d moves, which gives d. One byte
// (directed spaces, where a move may lead any distance farther, so the distance
// modulo 3 no longer tells closer from farther): 0 not reached, 1 dead (reached,
// but no goal can be reached from it), 2 + d a distance d <= 253. Sorted words
// (models without a dense rank, whose positions pack into a 64-bit word): the
// entries words in ascending order, then one byte code per word as above.
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/runtime/packed_table.hpp"

namespace statespace {

inline constexpr std::uint32_t kGoalTableVersion = 1;
inline constexpr std::string_view kGoalTableFile = "goal-distances.table";  // its name in a report bundle

enum class TableEncoding : std::uint32_t { two_bits = 1, byte = 2, words = 3 };

inline constexpr unsigned kByteDead = 1;
inline constexpr unsigned kByteFirstDistance = 2;
inline constexpr unsigned kByteMostDistance = 255 - kByteFirstDistance;

// What the header says of a table.
struct GoalTableHeader {
  std::string puzzle;
  std::string identity;
  std::string goal;
  std::string index = "rank";
  TableEncoding encoding = TableEncoding::two_bits;
  bool directed = false;
  std::uint64_t entries = 0;
  std::uint64_t reached = 0;          // positions with a distance, and the dead ones
  std::uint64_t dead = 0;             // reached positions that cannot reach the goal
  std::vector<std::uint64_t> layers;  // layers[d] = positions at distance d to the goal
  // Bits of a code: two, or a byte (byte tables, and each word's code in a words table).
  [[nodiscard]] unsigned bits() const { return encoding == TableEncoding::two_bits ? 2 : 8; }
  [[nodiscard]] std::uint64_t data_words() const {
    return (encoding == TableEncoding::words ? entries : 0) + (entries * bits() + 63) / 64;
  }
};

// A table being filled: the header and the data words, zero (not reached) until set.
// Fills from different threads write disjoint words.
class GoalTable {
 public:
  explicit GoalTable(GoalTableHeader header) : header_(std::move(header)), data_(header_.data_words() * 64) {}

  [[nodiscard]] GoalTableHeader& header() { return header_; }
  [[nodiscard]] const GoalTableHeader& header() const { return header_; }
  [[nodiscard]] std::uint64_t* words() { return data_.words(); }
  [[nodiscard]] const std::uint64_t* words() const { return data_.words(); }
  [[nodiscard]] std::uint64_t word_count() const { return data_.word_count(); }
  [[nodiscard]] static std::uint64_t bytes(std::uint64_t entries, TableEncoding e) {
    GoalTableHeader h;
    h.entries = entries;
    h.encoding = e;
    return h.data_words() * 8;
  }

  // Sets every index whose bit is set in `bits` (a bitset over the indices: word w
  // holds indices 64 w .. 64 w + 63) to distance d, for the bitset's words
  // [first, last). Each bitset word fills data words of its own, so calls on
  // disjoint word ranges may run in parallel.
  void set_distance(const std::uint64_t* bits, std::uint64_t first, std::uint64_t last, unsigned d);
  // The same over the whole bitset, in parallel.
  void set_distance(const std::uint64_t* bits, unsigned d);
  // Byte tables: marks as dead every index whose bit is clear in `seen` (the
  // positions a search from the goal never met, and those never reached, set).
  void set_dead_where_clear(const std::uint64_t* seen);
  // One index (tests, and engines that find distances one at a time).
  void set(std::uint64_t index, unsigned code);
  // Words tables: the sorted words, and their byte codes after them.
  [[nodiscard]] std::uint64_t* sorted_words() { return data_.words(); }
  [[nodiscard]] unsigned char* word_codes() {
    return reinterpret_cast<unsigned char*>(data_.words() + header_.entries);
  }
  // Two-bit tables: ORs distance d's code into an index not set yet.
  void or_distance(std::uint64_t index, unsigned d) {
    data_.words()[index >> 5] |= std::uint64_t(d % 3 + 1) << (2 * (index & 31));
  }

 private:
  GoalTableHeader header_;
  BitTable data_;
};

// The bytes of a table's header, ending with its checksum (data checksum included).
std::string encode_goal_table_header(const GoalTableHeader& h, std::uint64_t data_checksum);

// The checksum of a table's data words.
std::uint64_t goal_table_checksum(const std::uint64_t* words, std::uint64_t count);

// A table file mapped read-only. open() checks the magic, version, header checksum,
// the size and the data checksum, and throws UsageError with one line naming the
// file otherwise.
class GoalTableFile {
 public:
  static GoalTableFile open(const std::filesystem::path& path);
  GoalTableFile(GoalTableFile&&) noexcept;
  GoalTableFile& operator=(GoalTableFile&&) noexcept;
  GoalTableFile(const GoalTableFile&) = delete;
  GoalTableFile& operator=(const GoalTableFile&) = delete;
  ~GoalTableFile();

  [[nodiscard]] const GoalTableHeader& header() const { return header_; }
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  // The code stored at `index` (< entries): two bits, or one byte (the byte of the
  // index-th word in a words table).
  [[nodiscard]] unsigned code(std::uint64_t index) const {
    if (header_.encoding == TableEncoding::two_bits) return unsigned(data_[index >> 5] >> (2 * (index & 31))) & 3u;
    const std::uint64_t* codes = header_.encoding == TableEncoding::words ? data_ + header_.entries : data_;
    return unsigned(codes[index >> 3] >> (8 * (index & 7))) & 0xFFu;
  }
  // The data words (a words table's sorted words first).
  [[nodiscard]] const std::uint64_t* data() const { return data_; }
  // Words tables: the index of `word` among the sorted words, or entries when absent.
  [[nodiscard]] std::uint64_t find(std::uint64_t word) const {
    const std::uint64_t* const end = data_ + header_.entries;
    const std::uint64_t* const at = std::lower_bound(data_, end, word);
    return at != end && *at == word ? std::uint64_t(at - data_) : header_.entries;
  }

 private:
  GoalTableFile() = default;
  std::filesystem::path path_;
  GoalTableHeader header_;
  const std::uint64_t* data_ = nullptr;
  void* map_ = nullptr;
  std::uint64_t map_bytes_ = 0;
};

}  // namespace statespace
