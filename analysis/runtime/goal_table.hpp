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
//   board's index within its reachability class; "words", "wide-words": packed
//   positions),
//   u32 encoding (1: two bits an index, 2: one byte an index, 3: sorted words, 4:
//   wide words), u32 flags (bit 0: directed), u64 entries (indices), u64 reached,
//   u64 dead, on encoding 4 u64 groups and u64 low bytes,
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
// entries words in ascending order, then one byte code per word as above. Wide
// words (positions of 65 to 128 bits): the words grouped by their high part, all
// but the low `low_bytes` bytes (a u64 each), with each group's first entry, then
// each word's low bytes and byte code (WideWords below).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/runtime/packed_table.hpp"

namespace statespace {

inline constexpr std::uint32_t kGoalTableVersion = 1;
inline constexpr std::string_view kGoalTableFile = "goal-distances.table";  // its name in a report bundle

enum class TableEncoding : std::uint32_t { two_bits = 1, byte = 2, words = 3, wide_words = 4 };

// A wide words table's words, as they are 128-bit positions.
using WideWord = unsigned __int128;

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
  // Wide words tables: the groups (distinct high parts) and the low bytes a word keeps.
  std::uint64_t groups = 0;
  unsigned low_bytes = 0;
  // Bits of a code: two, or a byte (byte tables, and each word's code in a words table).
  [[nodiscard]] unsigned bits() const { return encoding == TableEncoding::two_bits ? 2 : 8; }
  [[nodiscard]] std::uint64_t data_words() const {
    if (encoding == TableEncoding::wide_words) return 2 * groups + 1 + (entries * (low_bytes + 1) + 7) / 8;
    return (encoding == TableEncoding::words ? entries : 0) + (entries * bits() + 63) / 64;
  }
};

// The data of a wide words table: `groups` high parts ascending (a word shifted
// right by 8 x low_bytes), the index of each group's first entry and then `entries`
// (groups + 1 u64), each word's low bytes (little-endian, ascending within its
// group), then each word's byte code.
class WideWords {
 public:
  WideWords() = default;
  WideWords(const std::uint64_t* data, const GoalTableHeader& h)
      : highs_(data),
        first_(data + h.groups),
        lows_(reinterpret_cast<const unsigned char*>(data + 2 * h.groups + 1)),
        groups_(h.groups),
        entries_(h.entries),
        low_bytes_(h.low_bytes) {}
  [[nodiscard]] const unsigned char* codes() const { return lows_ + entries_ * low_bytes_; }
  [[nodiscard]] std::uint64_t low(std::uint64_t i) const {
    std::uint64_t v = 0;
    std::memcpy(&v, lows_ + i * low_bytes_, low_bytes_);  // the format and the hosts are little-endian
    return v;
  }
  // The i-th word (i < entries).
  [[nodiscard]] WideWord word(std::uint64_t i) const {
    const std::uint64_t g = std::uint64_t(std::upper_bound(first_, first_ + groups_, i) - first_) - 1;
    return WideWord(highs_[g]) << (8 * low_bytes_) | low(i);
  }
  // The index of `w` among the words, or entries when absent.
  [[nodiscard]] std::uint64_t find(WideWord w) const {
    const WideWord high = w >> (8 * low_bytes_);
    if (high >> 64) return entries_;
    const std::uint64_t* const at = std::lower_bound(highs_, highs_ + groups_, std::uint64_t(high));
    if (at == highs_ + groups_ || *at != std::uint64_t(high)) return entries_;
    const std::uint64_t g = std::uint64_t(at - highs_);
    const std::uint64_t want = std::uint64_t(w) & low_mask();
    std::uint64_t lo = first_[g], hi = first_[g + 1];
    while (lo < hi) {
      const std::uint64_t mid = lo + (hi - lo) / 2;
      if (low(mid) < want) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo < first_[g + 1] && low(lo) == want ? lo : entries_;
  }
  // Whether the groups are what the header says: ascending high parts, and first
  // entries ascending from 0 to entries (a reader checks before the first probe).
  [[nodiscard]] bool consistent() const {
    if (groups_ == 0) return entries_ == 0 && first_[0] == 0;
    if (first_[0] != 0 || first_[groups_] != entries_) return false;
    for (std::uint64_t g = 0; g < groups_; ++g) {
      if (first_[g] >= first_[g + 1] || (g && highs_[g - 1] >= highs_[g])) return false;
    }
    return true;
  }

 private:
  [[nodiscard]] std::uint64_t low_mask() const {
    return low_bytes_ >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * low_bytes_)) - 1;
  }
  const std::uint64_t* highs_ = nullptr;
  const std::uint64_t* first_ = nullptr;
  const unsigned char* lows_ = nullptr;
  std::uint64_t groups_ = 0, entries_ = 0;
  unsigned low_bytes_ = 0;
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
  // Wide words tables: the data as WideWords reads it.
  [[nodiscard]] WideWords wide_words() const { return {data_.words(), header_}; }
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
    return codes_[index];
  }
  // The byte codes (byte, words and wide words tables), one an index.
  [[nodiscard]] const unsigned char* codes() const { return codes_; }
  // The data words (a words table's sorted words first).
  [[nodiscard]] const std::uint64_t* data() const { return data_; }
  // Words tables: the index of `word` among the sorted words, or entries when absent.
  [[nodiscard]] std::uint64_t find(std::uint64_t word) const {
    const std::uint64_t* const end = data_ + header_.entries;
    const std::uint64_t* const at = std::lower_bound(data_, end, word);
    return at != end && *at == word ? std::uint64_t(at - data_) : header_.entries;
  }
  // Wide words tables: the index of `word`, or entries when absent; the i-th word.
  [[nodiscard]] std::uint64_t find(WideWord word) const { return wide_.find(word); }
  [[nodiscard]] WideWord wide_word(std::uint64_t i) const { return wide_.word(i); }

 private:
  GoalTableFile() = default;
  std::filesystem::path path_;
  GoalTableHeader header_;
  const std::uint64_t* data_ = nullptr;
  const unsigned char* codes_ = nullptr;
  WideWords wide_;
  void* map_ = nullptr;
  std::uint64_t map_bytes_ = 0;
};

}  // namespace statespace
