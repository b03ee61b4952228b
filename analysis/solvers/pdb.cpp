#include "analysis/solvers/pdb.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <cstdlib>
#include <numeric>
#include <ostream>
#include <span>
#include <sstream>
#include <stdexcept>

#include "analysis/engines/implicit/level_bits.hpp"
#include "analysis/engines/slices.hpp"
#include "analysis/runtime/threads.hpp"
#include "core/errors.hpp"

namespace statespace {

namespace {

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
  [[nodiscard]] std::uint32_t neighbours(int cell) const { return neighbours_[std::size_t(cell)]; }
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
  std::vector<std::uint64_t> names_;
  std::vector<std::uint16_t> present_;
  std::vector<std::uint16_t> masks_;
};

// Manhattan distances of the pattern's tiles: [slot * 16 + cell].
std::array<std::uint8_t, Board::kMaxCells * Board::kMaxCells> manhattan_table(const Tiles& t,
                                                                              const std::vector<int>& tiles) {
  std::array<std::uint8_t, Board::kMaxCells * Board::kMaxCells> out{};
  const int cols = t.cols();
  for (std::size_t i = 0; i < tiles.size(); ++i) {
    const int home = tiles[i] - 1;  // tile v's goal cell is v - 1
    for (int c = 0; c < t.cells(); ++c) {
      out[i * Board::kMaxCells + std::size_t(c)] =
          std::uint8_t(std::abs(c / cols - home / cols) + std::abs(c % cols - home % cols));
    }
  }
  return out;
}

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

std::uint64_t words_for(std::uint64_t bits) { return (bits + 63) / 64; }

// A built database's entries, owned the way a mapped file's are: by a shared pointer.
std::shared_ptr<const std::uint8_t> shared_bytes(std::vector<std::uint8_t> bytes) {
  auto owner = std::make_shared<std::vector<std::uint8_t>>(std::move(bytes));
  return {owner, owner->data()};
}

// The search itself: the tables, and the scan and apply of a level.
class PatternSearch {
 public:
  PatternSearch(const Tiles& t, const std::vector<int>& tiles)
      : regions_(t),
        n_(t.cells()),
        k_(int(tiles.size())),
        names_(unsigned(n_ - k_)),
        entries_(placements(n_, k_)),
        manhattan_(manhattan_table(t, tiles)),
        seen_(words_for(entries_ * names_), 0),
        front_(words_for(entries_), 0),
        next_(words_for(entries_), 0),
        packed_(PatternDatabase::packed_bytes(entries_), 0),
        select_((std::size_t{1} << n_) * Board::kMaxCells, 0) {
    for (std::uint32_t free = 0; free < (1u << n_); ++free) {
      unsigned j = 0;
      for (std::uint32_t f = free; f; f &= f - 1)
        select_[free * Board::kMaxCells + j++] = std::uint8_t(std::countr_zero(f));
    }
    std::uint64_t weight = 1;
    for (int i = k_ - 1; i >= 0; --i) {
      weight_[std::size_t(i)] = weight;
      weight *= std::uint64_t(n_ - i);
      magic_[std::size_t(i)] = ((std::uint64_t{1} << kMagicShift) + std::uint64_t(n_ - i) - 1) / std::uint64_t(n_ - i);
    }
    const unsigned threads = worker_threads();
    slices_ = SlicePartition(
        entries_,
        std::max<std::uint64_t>(std::uint64_t(kSlicesPerThread) * threads, (entries_ + kMostSlice - 1) / kMostSlice),
        64);
    chunks_ = SlicePartition(entries_, std::uint64_t(kChunksPerThread) * threads, 64);
    for (unsigned s = 0; s < threads; ++s) {
      lanes_.emplace_back(slices_.count(), round_capacity(threads, kRoundBudget) + kPlacementOvershoot,
                          kRoundStep + kPlacementOvershoot);
    }
    owned_.resize(slices_.count());
  }

  static void clear(std::vector<std::uint64_t>& bits) {
    for_each_chunk(bits.size(), 1 << 16, [&](const auto& range) {
      std::fill(bits.begin() + std::ptrdiff_t(range.begin()), bits.begin() + std::ptrdiff_t(range.end()), 0);
    });
  }

  // Whether to find the level after `level` backwards, given the sizes of the two
  // levels before: once the levels stop growing fast, the states not yet seen are
  // fewer than the successors the frontier would queue (each state has about
  // seven), and every later level is smaller still.
  static bool pull_now(unsigned level, std::uint64_t previous, std::uint64_t last) {
    return level > 2 && 10 * last < 11 * previous;
  }

  // Seeds the goal, then level by level until a level adds nothing.
  void run(const std::vector<int>& tiles, const std::string& name, Progress* progress) {
    std::array<std::uint8_t, Board::kMaxCells> home{};
    std::uint32_t occupied = 0;
    for (int i = 0; i < k_; ++i) {
      home[std::size_t(i)] = std::uint8_t(tiles[std::size_t(i)] - 1);
      occupied |= 1u << home[std::size_t(i)];
    }
    const std::uint64_t goal = placement_rank(home.data(), k_, n_);
    const std::uint64_t e = goal * names_ + regions_.name(n_ - 1, regions_.all() & ~occupied);
    seen_[e / 64] |= std::uint64_t{1} << (e % 64);
    front_[goal / 64] |= std::uint64_t{1} << (goal % 64);
    counts_.assign(1, 1);
    std::uint64_t total = 1, previous = 0, last = 1;
    bool pulling = false;
    const std::uint64_t bytes = pattern_build_bytes_for(n_, k_);
    for (unsigned level = 0;; ++level) {
      if (level + 1 > kMostValue)
        throw std::length_error(name + ": pattern depth exceeds " + std::to_string(kMostValue));
      if (!pulling && pull_now(level, previous, last)) {
        pulling = true;
        clear(front_);
      }
      const std::uint64_t added = pulling ? pull(level) : expand(level);
      if (added == 0) break;
      if (!pulling) {
        std::swap(front_, next_);
        clear(next_);
      }
      previous = last;
      last = added;
      total += added;
      if (progress) progress->level(level + 1, added, total, bytes);
    }
    std::uint64_t reached = 0;
    for (auto& o : owned_) {
      if (counts_.size() < o.counts.size()) counts_.resize(o.counts.size(), 0);
      for (std::size_t v = 0; v < o.counts.size(); ++v) counts_[v] += o.counts[v];
    }
    for (const auto c : counts_) reached += c;
    // At least two free cells leave no parity constraint: every placement is reached.
    if (reached != entries_) throw std::logic_error(name + ": the pattern search left placements unreached");
  }

  PatternDatabase release(const Tiles& t, const std::vector<int>& tiles) && {
    std::vector<PatternDatabase::Exception> exceptions;
    for (auto& o : owned_) {
      std::sort(o.exceptions.begin(), o.exceptions.end(), [](const auto& a, const auto& b) { return a.rank < b.rank; });
      exceptions.insert(exceptions.end(), o.exceptions.begin(), o.exceptions.end());
    }
    // The search's bitsets go before the caller saves the database.
    std::vector<std::uint64_t>().swap(seen_);
    std::vector<std::uint64_t>().swap(front_);
    std::vector<std::uint64_t>().swap(next_);
    return PatternDatabase(t, tiles, std::move(packed_), std::move(exceptions), std::move(counts_));
  }

  // The tables, the region and select tables and the lanes' queues.
  static std::uint64_t pattern_build_bytes_for(int n, int k) {
    const std::uint64_t entries = placements(n, k);
    const std::uint64_t regions = (std::uint64_t{1} << n) * (10 + 3 * Board::kMaxCells);
    const std::uint64_t threads = worker_threads();
    const std::uint64_t slices = 2 * std::max<std::uint64_t>(kSlicesPerThread * threads, entries / kMostSlice + 1);
    const std::uint64_t step = kRoundStep + kPlacementOvershoot;
    const std::uint64_t blocks =
        (round_capacity(threads, kRoundBudget) + kPlacementOvershoot + SliceQueues::kBlock - step - 1) /
            (SliceQueues::kBlock - step) +
        slices;
    return 8 * (words_for(entries * std::uint64_t(n - k)) + 2 * words_for(entries)) +
           PatternDatabase::packed_bytes(entries) + regions + threads * blocks * SliceQueues::kBlock * 4;
  }

 private:
  static constexpr unsigned kMostValue = 255;

  // What a slice's owner keeps: written by it alone in the apply phase.
  struct alignas(64) Owned {
    std::uint64_t added = 0;
    std::vector<std::uint64_t> counts;                   // placements first reached, by value
    std::vector<PatternDatabase::Exception> exceptions;  // excess 15 or more
  };

  std::uint64_t expand(unsigned level) {
    std::vector<std::uint64_t> cursors(chunks_.count());
    for (unsigned c = 0; c < chunks_.count(); ++c) cursors[c] = chunks_.begin(c);
    for (auto& o : owned_) o.added = 0;
    run_rounds(
        chunks_.count(), slices_.count(), lanes_, kRoundBudget,
        [&](unsigned c, SliceQueues& out, std::size_t limit) {
          return scan(level, cursors[c], chunks_.end(c), out, limit);
        },
        [&](unsigned s, std::span<const std::uint32_t> targets) { apply(level, s, targets); });
    std::uint64_t added = 0;
    for (const auto& o : owned_) added += o.added;
    return added;
  }

  // The names of the regions of placement p seen so far, as bits.
  [[nodiscard]] std::uint32_t seen_names(std::uint64_t p) const {
    const std::uint64_t e = p * names_;
    const unsigned shift = unsigned(e % 64);
    std::uint64_t bits = seen_[e / 64] >> shift;
    if (shift + names_ > 64) bits |= seen_[e / 64 + 1] << (64 - shift);
    return std::uint32_t(bits & ((std::uint64_t{1} << names_) - 1));
  }

  // Expands the frontier placements from `cursor` up to `end`, queueing their
  // successors, until `out` holds `limit` targets; true when it reached `end`. Every
  // region seen of a frontier placement is expanded: those of earlier levels give
  // states seen already. None of this level's new states can be among them, since a
  // placement's states all lie at levels of one parity (that of its Manhattan
  // distance), and so no frontier placement gains a region in this level.
  bool scan(unsigned level, std::uint64_t& cursor, std::uint64_t end, SliceQueues& out, std::size_t limit) {
    std::size_t held = out.size();
    std::uint64_t p = cursor;
    std::array<std::uint8_t, Board::kMaxCells> cells{};
    const int next_level = int(level) + 1;
    while (p < end) {
      const std::uint64_t w = front_[p / 64] >> (p % 64);
      if (w == 0) {
        p = (p | 63) + 1;
        continue;
      }
      p += std::uint64_t(std::countr_zero(w));
      if (p >= end) break;
      const Unranked u = unrank(p, cells.data());
      const std::uint32_t free = regions_.all() & ~u.occupied;
      std::uint32_t reach = 0;  // the cells of every region expanded
      for (std::uint32_t names = seen_names(p); names; names &= names - 1) {
        reach |= regions_.region(free, unsigned(std::countr_zero(names)));
      }
      for_each_move(p, cells.data(), u, reach, [&](std::uint64_t r, unsigned name, int manhattan) {
        const int excess = (next_level - manhattan) / 2;
        out.push(slices_.owner(r), std::uint32_t(slices_.within(r) << kOffsetShift) |
                                       std::uint32_t(std::clamp(excess, 0, 31) << kNameBits) | name);
        ++held;
        return false;
      });
      ++p;
      if (held >= limit) {
        cursor = p;
        return p >= end;
      }
    }
    cursor = end;
    return true;
  }

  // What the moves from a placement need besides its cells: the cells occupied, the
  // Manhattan distance, for each slot the cells of the slots before it, and for
  // each occupied cell its slot.
  struct Unranked {
    std::uint32_t occupied = 0;
    int base = 0;
    std::array<std::uint32_t, Board::kMaxCells> earlier{};
    std::array<std::uint8_t, Board::kMaxCells> slot{};
  };

  [[nodiscard]] Unranked describe(const std::uint8_t* cells) const {
    Unranked u;
    for (int i = 0; i < k_; ++i) {
      const std::uint8_t c = cells[i];
      u.earlier[std::size_t(i)] = u.occupied;
      u.occupied |= 1u << c;
      u.base += manhattan_[std::size_t(i * Board::kMaxCells + c)];
      u.slot[c] = std::uint8_t(i);
    }
    return u;
  }

  // placement_unrank without its divisions: below 2^32 ranks, the quotient by
  // n - i is a multiply and a shift (exact for dividends below 2^32 and divisors up
  // to 16), and the digit-th free cell is a table lookup.
  Unranked unrank(std::uint64_t r, std::uint8_t* cells) const {
    std::array<unsigned, Board::kMaxCells> digit{};
    for (int i = k_ - 1; i >= 0; --i) {
      const auto d = std::uint64_t(n_ - i);
      const std::uint64_t q =
          small_ ? std::uint64_t((static_cast<unsigned __int128>(r) * magic_[std::size_t(i)]) >> kMagicShift) : r / d;
      digit[std::size_t(i)] = unsigned(r - q * d);
      r = q;
    }
    std::uint32_t free = regions_.all();
    for (int i = 0; i < k_; ++i) {
      cells[i] = select_[free * Board::kMaxCells + digit[std::size_t(i)]];
      free &= ~(1u << cells[i]);
    }
    return describe(cells);
  }

  // The placement of the next rank: the last slot that can move to a higher cell not
  // held by the slots before it does, and the slots after it take the lowest cells
  // left. The cells of the last rank stay.
  void advance(std::uint8_t* cells) const {
    std::uint32_t used = 0;
    for (int i = 0; i < k_; ++i) used |= 1u << cells[i];
    for (int i = k_ - 1; i >= 0; --i) {
      used &= ~(1u << cells[i]);
      const std::uint32_t above = regions_.all() & ~used & ~((2u << cells[i]) - 1);
      if (above == 0) continue;
      cells[i] = std::uint8_t(std::countr_zero(above));
      used |= 1u << cells[i];
      for (int j = i + 1; j < k_; ++j) {
        cells[j] = std::uint8_t(std::countr_zero(regions_.all() & ~used));
        used |= 1u << cells[j];
      }
      return;
    }
  }

  // Calls f(rank, region name, Manhattan distance) for each move from placement p
  // (cells, u) into the cells `reach`: a pattern tile next to them moves in, and its
  // old cell becomes the blank's. Stops when f returns true.
  template <class F>
  void for_each_move(std::uint64_t p, const std::uint8_t* cells, const Unranked& u, std::uint32_t reach, F&& f) const {
    const std::uint32_t free = regions_.all() & ~u.occupied;
    for (int i = 0; i < k_; ++i) {
      const int from = cells[i];
      const int moved = u.base - manhattan_[std::size_t(i * Board::kMaxCells + from)];
      const std::uint32_t earlier = u.earlier[std::size_t(i)];
      const auto w = std::int64_t(weight_[std::size_t(i)]);
      for (std::uint32_t targets = regions_.neighbours(from) & reach; targets; targets &= targets - 1) {
        const int to = std::countr_zero(targets);
        // Only the digits of tile i and of the later tiles between its two cells
        // change: tile i's by the cells it passes less the earlier tiles among
        // them, each later one's by one (the moved tile changes sides of it).
        const int lo = std::min(from, to), hi = std::max(from, to);
        const std::uint32_t between = u.occupied & ((1u << hi) - 1) & ~((2u << lo) - 1);
        std::int64_t later = 0;
        for (std::uint32_t b = between & ~earlier; b; b &= b - 1) {
          later += std::int64_t(weight_[u.slot[std::size_t(std::countr_zero(b))]]);
        }
        const std::int64_t step = w * (hi - lo - std::popcount(between & earlier)) + later;
        const std::uint64_t r = to > from ? p + std::uint64_t(step) : p - std::uint64_t(step);
        const std::uint32_t free2 = (free | (1u << from)) & ~(1u << to);
        if (f(r, regions_.name(from, free2), moved + manhattan_[std::size_t(i * Board::kMaxCells + to)])) return;
      }
    }
  }

  // The next level found backwards, for the late levels, where the states not yet
  // seen are fewer than the frontier's successors: a state not seen lies at level
  // + 1 exactly when one of its neighbours has been seen (the neighbours of a state
  // at level d + 1 or more lie at level d or more, and moves flip the parity of the
  // level). Each slice's owner visits its placements of the right parity and writes
  // only their bits, while the neighbours it reads are of the other parity, so no bit
  // read changes during the level; words shared with other slices' placements are
  // read and written through atomic_ref. front_ marks the placements whose regions
  // have all been seen, which no later level visits.
  std::uint64_t pull(unsigned level) {
    for (auto& o : owned_) o.added = 0;
    tbb::parallel_for(
        0u, slices_.count(), [&](unsigned s) { pull_slice(level, s); }, tbb::simple_partitioner());
    std::uint64_t added = 0;
    for (const auto& o : owned_) added += o.added;
    return added;
  }

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

  void pull_slice(unsigned level, unsigned s) {
    Owned& o = owned_[s];
    const unsigned parity = (level + 1) % 2;
    std::array<std::uint8_t, Board::kMaxCells> cells{};
    bool held = false;     // whether `cells` holds a placement yet
    std::uint64_t at = 0;  // the rank of the placement it holds
    const std::uint64_t end = slices_.end(s);
    for (std::uint64_t p = slices_.begin(s); p < end; ++p) {
      const std::uint64_t w = ~front_[p / 64] >> (p % 64);
      if (w == 0) {
        p |= 63;
        continue;
      }
      p += std::uint64_t(std::countr_zero(w));
      if (p >= end) break;
      if (held && p == at + 1) {
        advance(cells.data());
      } else {
        unrank(p, cells.data());
      }
      held = true;
      at = p;
      const Unranked u = describe(cells.data());
      const std::uint32_t free = regions_.all() & ~u.occupied;
      const std::uint32_t present = regions_.present(free);
      const std::uint32_t seen = load_seen_names(p);
      if (seen == present) {
        front_[p / 64] |= std::uint64_t{1} << (p % 64);
        continue;
      }
      if (unsigned(u.base) % 2 != parity) continue;
      std::uint32_t found = 0;
      for (std::uint32_t names = present & ~seen; names; names &= names - 1) {
        const unsigned name = unsigned(std::countr_zero(names));
        bool reached = false;
        for_each_move(p, cells.data(), u, regions_.region(free, name), [&](std::uint64_t r, unsigned n2, int) {
          const std::uint64_t e = r * names_ + n2;
          reached = (load_seen(e / 64) >> (e % 64)) & 1;
          return reached;
        });
        if (reached) found |= 1u << name;
      }
      if (found == 0) continue;
      for (std::uint32_t f = found; f; f &= f - 1) {
        const std::uint64_t e = p * names_ + unsigned(std::countr_zero(f));
        std::atomic_ref<std::uint64_t> word(seen_[e / 64]);
        word.store(word.load(std::memory_order_relaxed) | std::uint64_t{1} << (e % 64), std::memory_order_relaxed);
      }
      o.added += std::uint64_t(std::popcount(found));
      if ((seen | found) == present) front_[p / 64] |= std::uint64_t{1} << (p % 64);
      if (seen == 0) reach_placement(o, p, unsigned(int(level + 1) - u.base) / 2, level);
    }
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

  // Marks the targets queued to slice s: a state not seen yet joins the next level,
  // and a placement reached for the first time gets its value.
  void apply(unsigned level, unsigned s, std::span<const std::uint32_t> targets) {
    const std::uint64_t first = slices_.begin(s);
    Owned& o = owned_[s];
    std::uint64_t added = 0;
    constexpr std::size_t kAhead = 16;  // targets prefetched ahead: they land anywhere in the slice
    for (std::size_t i = 0; i < targets.size(); ++i) {
      if (i + kAhead < targets.size()) {
        const std::uint64_t ahead = (first + (targets[i + kAhead] >> kOffsetShift)) * names_;
        __builtin_prefetch(seen_.data() + ahead / 64, 1);
      }
      const std::uint32_t t = targets[i];
      const std::uint64_t p = first + (t >> kOffsetShift);
      const std::uint64_t e = p * names_ + (t & ((1u << kNameBits) - 1));
      const std::uint64_t bit = std::uint64_t{1} << (e % 64);
      if (seen_[e / 64] & bit) continue;
      const bool reached = seen_names(p) != 0;
      seen_[e / 64] |= bit;
      next_[p / 64] |= std::uint64_t{1} << (p % 64);
      ++added;
      if (!reached) reach_placement(o, p, (t >> kNameBits) & ((1u << kExcessBits) - 1), level);
    }
    o.added += added;
  }

  Regions regions_;
  int n_, k_;
  std::uint64_t names_;  // region names per placement: its free cells
  std::uint64_t entries_;
  std::array<std::uint8_t, Board::kMaxCells * Board::kMaxCells> manhattan_;
  std::vector<std::uint64_t> seen_;   // [placement * names + name]
  std::vector<std::uint64_t> front_;  // placements with a state in the level expanded
  std::vector<std::uint64_t> next_;   // placements with a state in the level found
  std::vector<std::uint8_t> packed_;
  std::vector<std::uint8_t> select_;  // [free * 16 + j]: the j-th cell of `free`
  static constexpr unsigned kMagicShift = 36;
  bool small_ = entries_ <= std::uint64_t{1} << 32;
  std::array<std::uint64_t, Board::kMaxCells> weight_{};  // a unit of digit i in the rank
  std::array<std::uint64_t, Board::kMaxCells> magic_{};   // ceil(2^36 / (n - i))
  std::vector<std::uint64_t> counts_;
  SlicePartition slices_, chunks_;
  std::vector<SliceQueues> lanes_;
  std::vector<Owned> owned_;
};

}  // namespace

void check_pattern(const Tiles& t, const std::vector<int>& tiles) {
  if (tiles.empty() || int(tiles.size()) >= t.cells() - 1) {
    throw UsageError(t.name() + ": a pattern holds 1 to " + std::to_string(t.cells() - 2) + " tiles");
  }
}

PatternDatabase::PatternDatabase(const Tiles& t, std::vector<int> tiles, std::vector<std::uint8_t> packed,
                                 std::vector<Exception> exceptions, std::vector<std::uint64_t> counts)
    : PatternDatabase(t, std::move(tiles), shared_bytes(std::move(packed)), std::move(exceptions), std::move(counts)) {}

PatternDatabase::PatternDatabase(const Tiles& t, std::vector<int> tiles, std::shared_ptr<const std::uint8_t> packed,
                                 std::vector<Exception> exceptions, std::vector<std::uint64_t> counts)
    : tiles_(std::move(tiles)),
      n_(t.cells()),
      k_(int(tiles_.size())),
      manhattan_(manhattan_table(t, tiles_)),
      packed_(std::move(packed)),
      data_(packed_.get()),
      entries_(placements(n_, k_)),
      exceptions_(std::move(exceptions)),
      counts_(std::move(counts)) {}

int PatternDatabase::manhattan(const std::uint8_t* cells) const {
  int base = 0;
  for (int i = 0; i < k_; ++i) base += manhattan_[std::size_t(i * Board::kMaxCells + cells[i])];
  return base;
}

int PatternDatabase::at(std::uint64_t rank) const {
  std::array<std::uint8_t, Board::kMaxCells> cells{};
  placement_unrank(rank, cells.data(), k_, n_);
  return value(cells.data());
}

int PatternDatabase::escaped(std::uint64_t rank) const {
  const auto it = std::lower_bound(exceptions_.begin(), exceptions_.end(), rank,
                                   [](const Exception& e, std::uint64_t r) { return e.rank < r; });
  if (it == exceptions_.end() || it->rank != rank)
    throw std::logic_error("pattern database: an escape without its value");
  return int(it->value);
}

std::uint64_t pattern_build_bytes(const Tiles& t, int k) {
  return PatternSearch::pattern_build_bytes_for(t.cells(), k);
}

PatternDatabase build_pattern_database(const Tiles& t, const std::vector<int>& tiles, Progress* progress) {
  check_pattern(t, tiles);
  PatternSearch search(t, tiles);
  search.run(tiles, t.name(), progress);
  return std::move(search).release(t, tiles);
}

// ---- partitions ----

std::vector<Partition> standard_partitions(const Tiles& t) {
  if (t.rows() == 4 && t.cols() == 4) {
    // The goal is 1..15 in reading order with the blank last: 7-8 splits the board
    // into its bottom and top halves (Korf & Felner's split, turned to our goal);
    // the smaller ones use compact blocks.
    return {
        {"7-8", {{9, 10, 11, 12, 13, 14, 15}, {1, 2, 3, 4, 5, 6, 7, 8}}},
        {"6-6-3", {{1, 2, 5, 6, 9, 13}, {3, 4, 7, 8, 11, 12}, {10, 14, 15}}},
        {"5-5-5", {{1, 2, 5, 6, 9}, {3, 4, 7, 8, 12}, {10, 11, 13, 14, 15}}},
    };
  }
  const int tiles = t.cells() - 1;
  const int groups = (tiles + 5) / 6;
  Partition p;
  for (int g = 0, next = 1; g < groups; ++g) {
    const int size = tiles / groups + (g < tiles % groups ? 1 : 0);
    std::vector<int> group;
    for (int i = 0; i < size; ++i) group.push_back(next++);
    if (g) p.name += '-';
    p.name += std::to_string(size);
    p.groups.push_back(std::move(group));
  }
  return {p};
}

Partition parse_partition(const Tiles& t, std::string_view text) {
  for (auto& p : standard_partitions(t)) {
    if (p.name == text) return p;
  }
  std::string names;
  for (const auto& p : standard_partitions(t)) names += p.name + ", ";
  const auto bad = [&](const std::string& why) {
    return ParseError("bad --partition '" + std::string(text) + "' for " + t.name() + ": " + why + " (expected " +
                      names + "or tile groups such as 1,2,3/4,5,6/7,8 covering every tile once)");
  };
  Partition p{std::string(text), {}};
  std::vector<int> seen(std::size_t(t.cells()), 0);
  std::stringstream groups{std::string(text)};
  std::string group;
  while (std::getline(groups, group, '/')) {
    std::vector<int> tiles;
    std::stringstream items(group);
    std::string item;
    while (std::getline(items, item, ',')) {
      int v = 0;
      const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
      if (ec != std::errc{} || end != item.data() + item.size() || v < 1 || v >= t.cells()) {
        throw bad("'" + item + "' is not a tile");
      }
      if (seen[std::size_t(v)]++) throw bad("tile " + std::to_string(v) + " appears twice");
      tiles.push_back(v);
    }
    if (tiles.empty()) throw bad("an empty group");
    if (int(tiles.size()) > t.cells() - 2)
      throw bad("a group of more than " + std::to_string(t.cells() - 2) + " tiles");
    std::sort(tiles.begin(), tiles.end());
    p.groups.push_back(std::move(tiles));
  }
  for (int v = 1; v < t.cells(); ++v) {
    if (!seen[std::size_t(v)]) throw bad("tile " + std::to_string(v) + " is in no group");
  }
  return p;
}

std::uint64_t partition_table_bytes(const Tiles& t, const Partition& p) {
  std::uint64_t bytes = 0;
  for (const auto& g : p.groups) bytes += PatternDatabase::packed_bytes(placements(t.cells(), int(g.size())));
  return bytes;
}

std::uint64_t partition_build_bytes(const Tiles& t, const Partition& p) {
  std::uint64_t most = 0;
  for (const auto& g : p.groups) {
    const int k = int(g.size());
    most = std::max(most, pattern_build_bytes(t, k) - PatternDatabase::packed_bytes(placements(t.cells(), k)));
  }
  return partition_table_bytes(t, p) + most;
}

Partition choose_partition(const Tiles& t, const MemoryBudget& budget) {
  const auto all = standard_partitions(t);
  for (const auto& p : all) {
    if (partition_build_bytes(t, p) <= budget.bytes()) return p;
  }
  budget.require(partition_build_bytes(t, all.back()), t.name() + ": pattern databases " + all.back().name);
  return all.back();
}

}  // namespace statespace
