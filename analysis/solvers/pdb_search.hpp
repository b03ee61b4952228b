// The breadth-first search that builds a pattern database (analysis/solvers/pdb.hpp):
// the tables it shares between its two phases, which live in files of their own.
// The forward phase (pdb_forward.cpp) expands the frontier and queues each successor
// to the owner of its slice; the backward phase (pdb_backward.cpp), for the late
// levels, finds the next level among the states not seen yet. pdb_search.cpp seeds
// the goal, chooses the phase of each level and hands the database over.
#pragma once

#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "analysis/engines/common/slices.hpp"
#include "analysis/runtime/huge_pages.hpp"
#include "analysis/runtime/progress.hpp"
#include "analysis/solvers/pdb.hpp"

namespace statespace::pdb_search {

// The blank's regions on an R x C grid, for every set of free cells: each cell's
// region name (the index, among the free cells, of the region's lowest cell; 16
// four-bit names per set, 512 KiB on 4x4) and each name's region (16 masks per set,
// 2 MiB), so that neither a state's expansion nor a successor floods the grid.
class Regions {
 public:
  explicit Regions(const Tiles& t)
      : n_(t.cells()),
        names_(std::size_t(1) << n_),
        present_(std::size_t(1) << n_),
        masks_((std::size_t(1) << n_) * Board::kMaxCells) {
    for (int c = 0; c < n_; ++c) {
      for (int k = 0; k < t.degree(c); ++k) neighbours_[std::size_t(c)] |= 1u << t.neighbour(c, k);
    }
    tbb::parallel_for(std::uint32_t{0}, std::uint32_t{1} << n_, [&](std::uint32_t free) {
      std::uint64_t names = 0;
      std::uint16_t present = 0;
      for (std::uint32_t left = free; left;) {
        const int lowest = std::countr_zero(left);
        const std::uint32_t region = of(lowest, free);
        const auto name = unsigned(std::popcount(free & ((1u << lowest) - 1)));
        for (std::uint32_t r = region; r; r &= r - 1) names |= std::uint64_t{name} << (4 * std::countr_zero(r));
        masks_[std::size_t(free) * Board::kMaxCells + name] = std::uint16_t(region);
        present |= std::uint16_t(1u << name);
        left &= ~region;
      }
      names_[free] = names;
      present_[free] = present;
    });
  }
  [[nodiscard]] std::uint32_t all() const { return (1u << n_) - 1; }
  // The name of the region of `free` holding `cell`.
  [[nodiscard]] unsigned name(int cell, std::uint32_t free) const {
    return unsigned(names_[free] >> (4 * cell)) & 0xFu;
  }
  // The names of the regions of `free`, as bits.
  [[nodiscard]] std::uint32_t present(std::uint32_t free) const { return present_[free]; }
  // The region of `free` named `name` (empty when no region has that name).
  [[nodiscard]] std::uint32_t region(std::uint32_t free, unsigned name) const {
    return masks_[std::size_t(free) * Board::kMaxCells + name];
  }

 private:
  // The connected region of `free` holding `cell` (which must be free).
  [[nodiscard]] std::uint32_t of(int cell, std::uint32_t free) const {
    std::uint32_t r = 1u << cell, frontier = r;
    while (frontier) {
      std::uint32_t grown = 0;
      for (std::uint32_t f = frontier; f; f &= f - 1) grown |= neighbours_[std::size_t(std::countr_zero(f))];
      frontier = grown & free & ~r;
      r |= frontier;
    }
    return r;
  }

  int n_;
  std::array<std::uint32_t, Board::kMaxCells> neighbours_{};
  BigVector<std::uint64_t> names_;
  BigVector<std::uint16_t> present_;
  BigVector<std::uint16_t> masks_;
};

// Manhattan distances of the pattern's tiles: [slot * 16 + cell].
[[nodiscard]] std::array<std::uint8_t, Board::kMaxCells * Board::kMaxCells> manhattan_table(
    const Tiles& t, const std::vector<int>& tiles);

// Destination slices and scan chunks per worker, and the targets a round queues per
// lane: the implicit engine's choices (analysis/engines/implicit/implicit_bfs.cpp).
constexpr unsigned kSlicesPerThread = 16;
constexpr unsigned kChunksPerThread = 32;
constexpr std::size_t kRoundBudget = std::size_t{1} << 17;
// A queued target is a 32-bit word: its placement's offset in the destination slice,
// its excess over the Manhattan distance if first reached now (clamped to 31), and
// its region name.
constexpr unsigned kNameBits = 4, kExcessBits = 5, kOffsetShift = kNameBits + kExcessBits;
constexpr std::uint64_t kMostSlice = std::uint64_t{1} << (32 - kOffsetShift);
// Most targets one placement adds: each pattern tile moves to at most four cells.
constexpr std::size_t kPlacementOvershoot = 4 * Board::kMaxCells;

constexpr std::uint64_t words_for(std::uint64_t bits) { return (bits + 63) / 64; }

// The search itself: the tables, and the two ways of finding a level.
class PatternSearch {
 public:
  PatternSearch(const Tiles& t, const std::vector<int>& tiles);
  // Seeds the goal, then level by level until a level adds nothing.
  void run(const std::vector<int>& tiles, const std::string& name, Progress* progress);
  [[nodiscard]] PatternDatabase release(const Tiles& t, const std::vector<int>& tiles) &&;
  // The tables, the region and select tables and the lanes' queues.
  [[nodiscard]] static std::uint64_t pattern_build_bytes_for(int n, int k);

 private:
  static constexpr unsigned kMostValue = 255;

  // What a slice's owner keeps, written by it alone in the apply phase; and what a
  // chunk's scanner keeps of the successors it marks itself (owned_[slices +
  // chunk]).
  struct alignas(64) Owned {
    std::uint64_t added = 0;
    std::vector<std::uint64_t> counts;                   // placements first reached, by value
    std::vector<PatternDatabase::Exception> exceptions;  // excess 15 or more
  };

  // What the moves from a placement need besides its cells: the cells occupied, the
  // Manhattan distance, for each slot the cells of the slots before it, and for
  // each occupied cell its slot.
  struct Unranked {
    std::uint32_t occupied = 0;
    int base = 0;
    std::array<std::uint32_t, Board::kMaxCells> earlier{};
    std::array<std::uint8_t, Board::kMaxCells> slot{};
  };

  // A placement decoded, kept between the placements a scan visits in rank order:
  // the next one usually shares its leading digits, whose cells stay, so only the
  // slots from the first digit that changed are decoded again.
  struct Cursor {
    std::uint64_t rank = 0;
    bool held = false;
    std::array<unsigned, Board::kMaxCells> digit{};
    std::array<int, Board::kMaxCells> base_before{};  // Manhattan distance of the slots before each
    Unranked u;
  };

  // Moves `c` to placement r (at or after the one it holds), decoding the slots
  // from the first digit that changed. A step shorter than the last digit's radix
  // adds in mixed radix, with at most one carry per digit; otherwise the digits come
  // from placement_unrank's divisions, below 2^32 ranks a multiply and a shift each
  // (exact for dividends below 2^32 and divisors up to 16).
  void seek(Cursor& c, std::uint64_t r) const {
    int i = 0;
    if (c.held && r - c.rank < unsigned(n_ - k_ + 1)) {
      i = k_ - 1;
      unsigned d = c.digit[std::size_t(i)] + unsigned(r - c.rank);
      while (d >= unsigned(n_ - i)) {
        c.digit[std::size_t(i)] = d - unsigned(n_ - i);
        --i;
        d = c.digit[std::size_t(i)] + 1;
      }
      c.digit[std::size_t(i)] = d;
    } else {
      std::array<unsigned, Board::kMaxCells> digit{};
      std::uint64_t q = r;
      for (int j = k_ - 1; j >= 0; --j) {
        const auto d = std::uint64_t(n_ - j);
        const std::uint64_t next =
            small_ ? std::uint64_t((static_cast<unsigned __int128>(q) * magic_[std::size_t(j)]) >> kMagicShift) : q / d;
        digit[std::size_t(j)] = unsigned(q - next * d);
        q = next;
      }
      if (c.held) {
        while (i < k_ && digit[std::size_t(i)] == c.digit[std::size_t(i)]) ++i;
      }
      c.digit = digit;
    }
    std::uint32_t occupied = i < k_ ? c.u.earlier[std::size_t(i)] : c.u.occupied;
    int base = i < k_ ? c.base_before[std::size_t(i)] : c.u.base;
    for (; i < k_; ++i) {
      const std::uint8_t cell = select_[(regions_.all() & ~occupied) * Board::kMaxCells + c.digit[std::size_t(i)]];
      c.u.earlier[std::size_t(i)] = occupied;
      c.base_before[std::size_t(i)] = base;
      c.u.slot[cell] = std::uint8_t(i);
      occupied |= 1u << cell;
      base += manhattan_[std::size_t(i * Board::kMaxCells + cell)];
    }
    c.u.occupied = occupied;
    c.u.base = base;
    c.rank = r;
    c.held = true;
  }

  // Calls f(rank, region name, Manhattan distance) for each move from placement p
  // (decoded in u) into the cells `reach`: a pattern tile next to them moves in, and
  // its old cell becomes the blank's. Stops when f returns true. The moves come by
  // direction, each direction's movers found at once from the bits of `reach`: a
  // sideways move changes only the mover's digit, by one; an upward or downward one
  // also passes the cells between (vertical_step).
  template <class F>
  void for_each_move(std::uint64_t p, const Unranked& u, std::uint32_t reach, F&& f) const {
    const std::uint32_t occupied = u.occupied;
    const std::uint32_t free = regions_.all() & ~occupied;
    const auto move = [&](int from, int to, std::uint64_t r) {
      const std::size_t row = std::size_t(u.slot[std::size_t(from)]) * Board::kMaxCells;
      const int manhattan = u.base - manhattan_[row + std::size_t(from)] + manhattan_[row + std::size_t(to)];
      return f(r, regions_.name(from, free ^ (1u << from) ^ (1u << to)), manhattan);
    };
    for (std::uint32_t m = occupied & (reach << 1) & not_first_column_; m; m &= m - 1) {
      const int from = std::countr_zero(m);
      if (move(from, from - 1, p - weight_[u.slot[std::size_t(from)]])) return;
    }
    for (std::uint32_t m = occupied & (reach >> 1) & not_last_column_; m; m &= m - 1) {
      const int from = std::countr_zero(m);
      if (move(from, from + 1, p + weight_[u.slot[std::size_t(from)]])) return;
    }
    for (std::uint32_t m = occupied & (reach << cols_); m; m &= m - 1) {
      const int from = std::countr_zero(m);
      if (move(from, from - cols_, p - vertical_step(u, from, from - cols_))) return;
    }
    for (std::uint32_t m = occupied & (reach >> cols_); m; m &= m - 1) {
      const int from = std::countr_zero(m);
      if (move(from, from + cols_, p + vertical_step(u, from, from))) return;
    }
  }

  // The rank change of the tile in `from` moving one row, `low` being the lower of
  // its two cells: its digit changes by the cells it passes less the earlier tiles
  // among them, and each later tile among them changes sides of it, its digit by one.
  [[nodiscard]] std::uint64_t vertical_step(const Unranked& u, int from, int low) const {
    const unsigned i = u.slot[std::size_t(from)];
    const std::uint32_t between = u.occupied & between_[std::size_t(low)];
    const std::uint32_t earlier = u.earlier[i];
    std::uint64_t step = weight_[i] * std::uint64_t(cols_ - std::popcount(between & earlier));
    for (std::uint32_t b = between & ~earlier; b; b &= b - 1) step += weight_[u.slot[std::size_t(std::countr_zero(b))]];
    return step;
  }

  // Calls f(p) for each p in [begin, end) whose bit in `bits` is `kSet`, in order,
  // until f returns true (f may set bits of p's word); returns the rank after the
  // last one visited then, else `end`.
  template <bool kSet, class F>
  static std::uint64_t for_each_marked(const BigVector<std::uint64_t>& bits, std::uint64_t begin, std::uint64_t end,
                                       F&& f) {
    for (std::uint64_t p = begin; p < end;) {
      const std::uint64_t w = (kSet ? bits[p / 64] : ~bits[p / 64]) >> (p % 64);
      if (w == 0) {
        p = (p | 63) + 1;
        continue;
      }
      p += std::uint64_t(std::countr_zero(w));
      if (p >= end) break;
      if (f(p++)) return p;
    }
    return end;
  }

  // The names of the regions of placement p seen so far, as bits.
  [[nodiscard]] std::uint32_t seen_names(std::uint64_t p) const {
    const std::uint64_t e = p * names_;
    const unsigned shift = unsigned(e % 64);
    std::uint64_t bits = seen_[e / 64] >> shift;
    if (shift + names_ > 64) bits |= seen_[e / 64 + 1] << (64 - shift);
    return std::uint32_t(bits & ((std::uint64_t{1} << names_) - 1));
  }

  // Placement p's value: level + 1, `excess` over its Manhattan distance.
  void reach_placement(Owned& o, std::uint64_t p, unsigned excess, unsigned level) {
    if (excess >= PatternDatabase::kEscape) {
      o.exceptions.push_back({p, level + 1});
      excess = PatternDatabase::kEscape;
    }
    packed_[p / 2] |= std::uint8_t(excess << (4 * (p % 2)));
    if (o.counts.size() <= level + 1) o.counts.resize(level + 2, 0);
    ++o.counts[level + 1];
  }

  // State (p, name) found in the level after `level`, unless seen; `excess` is
  // p's entry, (value - Manhattan distance) / 2, should this be p's first state.
  void mark(Owned& o, std::uint64_t p, unsigned name, unsigned excess, unsigned level) {
    const std::uint64_t e = p * names_ + name;
    const std::uint64_t bit = std::uint64_t{1} << (e % 64);
    if (seen_[e / 64] & bit) return;
    const bool reached = seen_names(p) != 0;
    seen_[e / 64] |= bit;
    next_[p / 64] |= std::uint64_t{1} << (p % 64);
    ++o.added;
    if (!reached) reach_placement(o, p, excess, level);
  }

  // The forward phase (pdb_forward.cpp): the level after `level` from the frontier's
  // successors.
  std::uint64_t expand(unsigned level);
  bool scan(unsigned level, unsigned chunk, std::uint64_t& cursor, SliceQueues& out, std::size_t limit);
  void apply(unsigned level, unsigned s, std::span<const std::uint32_t> targets);

  // The backward phase (pdb_backward.cpp): the level after `level` from the states
  // not seen yet.
  std::uint64_t pull(unsigned level);
  void pull_slice(unsigned level, unsigned s);
  [[nodiscard]] std::uint64_t load_seen(std::uint64_t word) {
    return std::atomic_ref<std::uint64_t>(seen_[word]).load(std::memory_order_relaxed);
  }
  [[nodiscard]] std::uint32_t load_seen_names(std::uint64_t p) {
    const std::uint64_t e = p * names_;
    const unsigned shift = unsigned(e % 64);
    std::uint64_t bits = load_seen(e / 64) >> shift;
    if (shift + names_ > 64) bits |= load_seen(e / 64 + 1) << (64 - shift);
    return std::uint32_t(bits & ((std::uint64_t{1} << names_) - 1));
  }

  static void clear(BigVector<std::uint64_t>& bits);
  [[nodiscard]] static bool pull_now(unsigned level, std::uint64_t previous, std::uint64_t last);

  Regions regions_;
  int n_, k_;
  std::uint64_t names_;  // region names per placement: its free cells
  std::uint64_t entries_;
  std::array<std::uint8_t, Board::kMaxCells * Board::kMaxCells> manhattan_;
  BigVector<std::uint64_t> seen_;                 // [placement * names + name]
  BigVector<std::uint64_t> front_;                // placements with a state in the level expanded
  BigVector<std::uint64_t> next_;                 // placements with a state in the level found
  std::array<BigVector<std::uint64_t>, 2> skip_;  // backwards, by parity: placements not to visit
  BigVector<std::uint8_t> packed_;
  BigVector<std::uint8_t> select_;  // [free * 16 + j]: the j-th cell of `free`
  static constexpr unsigned kMagicShift = 36;
  bool small_ = entries_ <= std::uint64_t{1} << 32;
  std::array<std::uint64_t, Board::kMaxCells> weight_{};  // a unit of digit i in the rank
  std::array<std::uint64_t, Board::kMaxCells> magic_{};   // ceil(2^36 / (n - i))
  int cols_;
  std::uint32_t not_first_column_ = 0, not_last_column_ = 0;  // cells with a neighbour left, right
  std::array<std::uint32_t, Board::kMaxCells> between_{};     // [c]: the cells c + 1 .. c + cols - 1
  std::vector<std::uint64_t> counts_;
  SlicePartition slices_, chunks_;
  std::vector<SliceQueues> lanes_;
  std::vector<Owned> owned_;
};

}  // namespace statespace::pdb_search
