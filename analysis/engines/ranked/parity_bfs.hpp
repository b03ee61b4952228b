// Breadth-first search over the dense rank space of an undirected uniform space in
// 1.6 bits a rank, where the two planes' 2 (ranked_bfs.hpp) do not fit the budget:
// each rank holds one of three states, five ranks to a byte (3^5 = 243 <= 256):
//   0  not seen yet;
//   1  seen at an even depth;
//   2  seen at an odd depth.
// This is enough because a move joins two positions at most one level apart.
//   Forward (push): the positions of each level are listed as it is found while it
//     holds at most 1/256 of the states' bytes in ranks, and a listed frontier is
//     expanded alone. A larger one cannot be told from the levels two, four ... back,
//     which share its parity: every position of that parity is expanded. Those
//     levels find nothing again, and their moves within (the only ones of the
//     frontier's parity) were counted when they were the frontier and are taken off.
//     The positions found take the other parity, which the scan never expands.
//   Backward (pull): a position not seen yet whose successor has the frontier's parity
//     is in the next level. A seen successor of a position at distance d+1 or more is
//     at distance d at least, so at d: the frontier. The positions joining take the
//     other parity, which the test does not read.
// Every position has the same number of moves (a uniform space), and moves pair with
// their inverses, so a level's moves back are the moves onward of the level before:
// what the two ways do not count follows, as in ranked_bfs.hpp.
//
// The last level listed is the farthest positions. A last level too large to list
// (rare: the farthest positions are few on real puzzles) costs a second search that
// lists that level alone, whatever its size.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <limits>
#include <mutex>
#include <optional>
#include <vector>

#include "analysis/engines/ranked/ranked_bfs.hpp"
#include "analysis/runtime/packed_table.hpp"
#include "analysis/runtime/progress.hpp"
#include "analysis/runtime/threads.hpp"

namespace statespace {

namespace parity_detail {

inline constexpr unsigned kPerByte = 5;
inline constexpr std::array<std::uint8_t, kPerByte> kPower = {1, 3, 9, 27, 81};

// The states of a byte's five ranks, and per state the ranks of a byte in it.
struct Digits {
  std::array<std::array<std::uint8_t, kPerByte>, 256> state{};
  std::array<std::array<std::uint8_t, 256>, 3> in{};
};
inline constexpr Digits kDigits = [] {
  Digits d;
  for (unsigned b = 0; b < 243; ++b) {
    for (unsigned i = 0, v = b; i < kPerByte; ++i, v /= 3) {
      d.state[b][i] = std::uint8_t(v % 3);
      d.in[v % 3][b] = std::uint8_t(d.in[v % 3][b] | (1u << i));
    }
  }
  return d;
}();

// A rank's place: its byte shifted past three bits, its digit there below them.
// Divided once as its successors are made, not again as each is read.
// With the byte q = r / 5 and the digit r - 5q, the place 8q + r - 5q is r + 3q.
inline constexpr unsigned kPlaceShift = 3;
inline constexpr std::uint64_t kDigitMask = (1u << kPlaceShift) - 1;
inline constexpr std::uint64_t place(std::uint64_t r) { return r + (r / kPerByte) * ((1u << kPlaceShift) - kPerByte); }
inline constexpr std::uint64_t rank_of(std::uint64_t p) { return (p >> kPlaceShift) * kPerByte + (p & kDigitMask); }

// What a level does to a digit, looked up by byte and digit together (the byte
// shifted past three bits): a classification costs two loads, not the arithmetic.
struct Step {
  static constexpr unsigned kFrontierShift = 16;
  // A rank's sum of its successors' entries keeps the two apart: a rank has fewer
  // than 2^16 moves (parity_search_fits()).
  static constexpr std::uint32_t kNew = 1, kInFrontier = 1u << kFrontierShift;
  static constexpr std::uint64_t kNewMask = kInFrontier - 1;
  // The byte with the digit marked `next` where it was not seen, else the byte.
  std::array<std::uint8_t, 256 << kPlaceShift> marked{};
  // kNew where the digit was not seen; kInFrontier where it is in state `frontier`.
  std::array<std::uint32_t, 256 << kPlaceShift> found{};
  // What marking each digit `next` adds to a byte.
  std::array<std::uint8_t, kPerByte> adds{};

  Step(std::uint8_t frontier, std::uint8_t next) {
    for (unsigned k = 0; k < kPerByte; ++k) adds[k] = std::uint8_t(next * kPower[k]);
    for (unsigned b = 0; b < 256; ++b) {
      for (unsigned k = 0; k < kPerByte; ++k) {
        const unsigned s = b < 243 ? kDigits.state[b][k] : 3, x = b << kPlaceShift | k;
        marked[x] = std::uint8_t(s == 0 ? b + adds[k] : b);
        found[x] = (s == 0 ? kNew : 0) | (s == frontier ? kInFrontier : 0);
      }
    }
  }
  [[nodiscard]] static unsigned at(std::uint8_t byte, std::uint64_t place) {
    return (unsigned(byte) << kPlaceShift) + unsigned(place & kDigitMask);
  }
};

// The moves of one rank at a time, written into a buffer as places, the bytes of the
// one before still arriving: every successor's byte is fetched ahead, as
// scan_batched() does.
template <class Expand>
class Successors {
 public:
  // Room for `moves` successors a rank: the two ranks' close together, as the caches like.
  Successors(const Expand& e, const std::uint8_t* plane, int moves)
      : expand_(e), plane_(plane), room_(std::size_t(moves)), held_(2 * room_) {}

  // Reads r's successors and hands the rank before it, as a place, with its
  // successors' places, to f(place, t, n).
  template <class F>
  void push(std::uint64_t r, const F& f) {
    std::uint64_t* const t = held_.data() + cur_ * room_;
    int n = 0;
    if constexpr (ranked_detail::BatchedExpand<Expand>) {
      if (expand_.batched()) n = expand_.batch(r, t);
    }
    if (n == 0) expand_(r, [&](std::uint64_t s) { t[n++] = s; });
    for (int j = 0; j < n; ++j) {
      t[j] = place(t[j]);
      __builtin_prefetch(plane_ + (t[j] >> kPlaceShift));
    }
    from_[cur_] = place(r);
    count_[cur_] = n;
    cur_ ^= 1;
    hand(f);
  }
  // Hands the rank still held, if any, to f.
  template <class F>
  void finish(const F& f) {
    cur_ ^= 1;
    hand(f);
  }

 private:
  template <class F>
  void hand(const F& f) {
    if (count_[cur_] >= 0) f(from_[cur_], held_.data() + cur_ * room_, count_[cur_]);
    count_[cur_] = -1;
  }

  const Expand& expand_;
  const std::uint8_t* plane_;
  std::size_t room_;
  std::vector<std::uint64_t> held_;
  std::array<std::uint64_t, 2> from_{};
  std::array<int, 2> count_{-1, -1};
  std::size_t cur_ = 0;
};

}  // namespace parity_detail

// The states of every rank, and the search over them. `loops(r)` counts rank r's
// self-loops where `loops.counted` (a uniform space that is not regular).
class ParityPlanes {
 public:
  // `most_listed`: the largest level listed as it is found (listed_cap() unless a
  // test asks for less).
  explicit ParityPlanes(std::uint64_t space, std::optional<std::uint64_t> most_listed = {})
      : space_(space),
        bytes_(bytes_in(space)),
        most_listed_(most_listed.value_or(listed_cap(space))),
        table_(bytes_ * 8),
        plane_(reinterpret_cast<std::uint8_t*>(table_.words())) {}

  // What a search over `space` ranks allocates: the states, and two levels listed
  // (the one being found and the last).
  static std::uint64_t bytes(std::uint64_t space) {
    return BitTable::bytes_for(bytes_in(space) * 8) + 2 * listed_cap(space) * sizeof(std::uint64_t);
  }

  // The levels from `start` until none is found. `farthest` receives the last
  // level's ranks, ascending, and is empty when the level was too large to list;
  // `list_level` lists that level whatever its size (and no other).
  template <class Expand, class Loops>
  RankedSearch search(std::uint64_t start, int moves, const Expand& expand, const Loops& loops, Progress* progress,
                      std::vector<std::uint64_t>& farthest, std::optional<std::size_t> list_level = {}) {
    set(start, 1);
    moves_ = moves;
    RankedSearch s;
    s.layers.push_back(1);
    std::vector<std::uint64_t> last{start};
    std::uint64_t unseen = space_ - 1, total = 1;
    // Per parity, over the levels of that parity before the frontier: their self-loops
    // and moves within; and over those and the frontier, their positions.
    std::array<std::uint64_t, 2> loops_at{}, within_at{}, at_parity{1, 0};
    // The frontier's self-loops, where known: a backward pass counts them as it
    // finds a level, a forward one does not.
    std::optional<std::uint64_t> frontier_loops = loops.counted ? std::uint64_t(loops(start)) : 0;
    while (true) {
      const std::size_t d = s.layers.size() - 1, c = d % 2;
      const std::uint8_t frontier = std::uint8_t(1 + c);
      const std::uint64_t size = s.layers.back();
      const std::uint64_t back = d == 0 ? 0 : s.moves.back().onward;
      std::uint64_t cap = most_listed_;
      if (list_level) cap = *list_level == d + 1 ? std::numeric_limits<std::uint64_t>::max() : 0;
      RankedLevelMoves m;
      m.successors = size * std::uint64_t(moves);
      Pass pass;
      std::uint64_t level_loops = 0;
      // The frontier listed is expanded alone; else every position of its parity.
      const bool listed = !last.empty();
      if (unseen < (listed ? size : at_parity[c])) {
        if (!frontier_loops) frontier_loops = parity_sum(frontier, at_parity[c], loops) - loops_at[c];
        level_loops = *frontier_loops;
        pass = loops.counted ? pull<true>(frontier, unseen, expand, cap) : pull<false>(frontier, unseen, expand, cap);
        m.onward = pass.arcs;
        m.within = m.successors - level_loops - m.onward - back;
        frontier_loops = loops.counted ? pass.loops : 0;
      } else {
        const std::uint64_t work = listed ? size : at_parity[c];
        const std::vector<std::uint64_t>* from = listed ? &last : nullptr;
        pass = loops.counted ? push<true>(frontier, work, expand, cap, from)
                             : push<false>(frontier, work, expand, cap, from);
        level_loops = pass.loops - (listed ? 0 : loops_at[c]);
        m.within = pass.arcs - (listed ? 0 : within_at[c]);
        m.onward = m.successors - level_loops - m.within - back;
        frontier_loops.reset();
        if (!loops.counted) frontier_loops = 0;
      }
      loops_at[c] += level_loops;
      within_at[c] += m.within;
      s.moves.push_back(m);
      if (pass.found == 0) break;
      last.clear();
      if (pass.listed) {
        std::swap(last, listed_);
        std::sort(last.begin(), last.end());
      } else {
        last.shrink_to_fit();
      }
      listed_ = {};
      s.layers.push_back(pass.found);
      at_parity[1 - c] += pass.found;
      unseen -= pass.found;
      total += pass.found;
      if (progress) progress->level(unsigned(d + 1), pass.found, total);
    }
    farthest = std::move(last);
    listed_ = {};
    return s;
  }

 private:
  static std::uint64_t bytes_in(std::uint64_t space) {
    return (space + parity_detail::kPerByte - 1) / parity_detail::kPerByte;
  }
  // Ranks a level may list as it is found: 8 bytes each, 1/256 of the states' bytes
  // (the 2x2x2's 64,736 farthest positions among 88,179,840 fit).
  static std::uint64_t listed_cap(std::uint64_t space) { return std::max<std::uint64_t>(4096, bytes_in(space) / 256); }
  [[nodiscard]] std::uint8_t load(std::uint64_t i) const {
    return std::atomic_ref<std::uint8_t>(plane_[i]).load(std::memory_order_relaxed);
  }
  void set(std::uint64_t r, unsigned s) {
    plane_[r / parity_detail::kPerByte] += std::uint8_t(s * parity_detail::kPower[r % parity_detail::kPerByte]);
  }
  // The ranks of byte i in state s: the last byte's ranks past the space are none.
  [[nodiscard]] unsigned in_state(std::uint64_t i, unsigned s) const {
    unsigned m = parity_detail::kDigits.in[s][load(i)];
    if (i + 1 == bytes_ && space_ % parity_detail::kPerByte) m &= (1u << (space_ % parity_detail::kPerByte)) - 1;
    return m;
  }

  // What one pass over the states found: its new positions and the moves it counted
  // (forward: the moves to the frontier's parity; backward: from the new positions
  // into the frontier), with the self-loops of the positions it expanded (forward)
  // or joined (backward).
  struct Pass {
    std::uint64_t found = 0, arcs = 0, loops = 0;
    bool listed = true;
  };

  // Runs visit(begin, end, pass) over [0, n) (the bytes, or a level's list), on the
  // threads when `work` ranks to expand are worth it.
  template <class Visit>
  Pass over(std::uint64_t n, std::uint64_t work, const Visit& visit) {
    if (worker_threads() == 1 || work < ranked_detail::kParallelLevel) {
      Pass p;
      visit.template operator()<false>(0, n, p);
      return p;
    }
    return tbb::parallel_reduce(
        tbb::blocked_range<std::uint64_t>(0, n, 1 << 12), Pass{},
        [&](const tbb::blocked_range<std::uint64_t>& range, Pass p) {
          visit.template operator()<true>(range.begin(), range.end(), p);
          return p;
        },
        [](Pass a, const Pass& b) {
          a.found += b.found;
          a.arcs += b.arcs;
          a.loops += b.loops;
          a.listed = a.listed && b.listed;
          return a;
        });
  }

  // Lists rank r of a new level unless the level has outgrown `cap`.
  void list(std::uint64_t r, std::uint64_t cap, Pass& p) {
    if (!p.listed) return;
    if (listed_count_.fetch_add(1, std::memory_order_relaxed) >= cap) {
      p.listed = false;
      return;
    }
    const std::lock_guard<std::mutex> hold(list_lock_);
    listed_.push_back(r);
  }

  // Expands the frontier, listed (`from`), or else every position of its parity,
  // marking the positions not seen yet with the other. Self-loops are looked for
  // where `kLoops` (loops.counted), as in pull().
  template <bool kLoops, class Expand>
  Pass push(std::uint8_t frontier, std::uint64_t work, const Expand& expand, std::uint64_t cap,
            const std::vector<std::uint64_t>* from) {
    const parity_detail::Step step(frontier, std::uint8_t(3 - frontier));
    start_list(cap);
    Pass pass =
        over(from ? from->size() : bytes_, work, [&]<bool kShared>(std::uint64_t begin, std::uint64_t end, Pass& p) {
          parity_detail::Successors<Expand> held(expand, plane_, moves_);
          // Without a branch on the state where one thread marks: whether a successor is
          // new is close to random, and mispredictions would cost more than the stores.
          // Counted in locals: a byte store may alias anything the compiler cannot see.
          // A loop that lists and one that does not: whether a successor is new is no
          // branch where the level is not listed, which is where most are made.
          std::uint8_t* const plane = plane_;
          const auto classify_as = [&, plane]<bool kListing>(std::uint64_t r, const std::uint64_t* t, int n) {
            std::uint64_t loops = 0, sum = 0;
            for (int j = 0; j < n; ++j) {
              const std::uint64_t u = t[j];
              if constexpr (kLoops) loops += u == r;
              std::uint8_t* const byte = plane + (u >> parity_detail::kPlaceShift);
              std::uint8_t b = kShared ? std::atomic_ref<std::uint8_t>(*byte).load(std::memory_order_relaxed) : *byte;
              std::uint32_t c = step.found[parity_detail::Step::at(b, u)];
              if constexpr (kShared) {
                if (c & parity_detail::Step::kNew) {
                  // Another thread may mark the byte's other digits, or this one, meanwhile.
                  std::atomic_ref<std::uint8_t> at(*byte);
                  while (!at.compare_exchange_weak(b, step.marked[parity_detail::Step::at(b, u)])) {
                    if (!(step.found[parity_detail::Step::at(b, u)] & parity_detail::Step::kNew)) {
                      c &= ~parity_detail::Step::kNew;
                      break;
                    }
                  }
                }
              } else {
                *byte = step.marked[parity_detail::Step::at(b, u)];
              }
              sum += c;
              if constexpr (kListing) {
                if ((c & parity_detail::Step::kNew) && p.listed) list(parity_detail::rank_of(u), cap, p);
              }
            }
            // A self-loop is in the frontier, and no move within.
            const std::uint64_t arcs = sum >> parity_detail::Step::kFrontierShift;
            p.loops += loops;
            p.arcs += arcs - loops;
            p.found += sum & parity_detail::Step::kNewMask;
          };
          const auto classify = [&](std::uint64_t r, const std::uint64_t* t, int n) {
            if (cap != 0 && p.listed) {
              classify_as.template operator()<true>(r, t, n);
            } else {
              classify_as.template operator()<false>(r, t, n);
            }
          };
          if (from) {
            for (std::uint64_t i = begin; i < end; ++i) held.push((*from)[i], classify);
            held.finish(classify);
            return;
          }
          for (std::uint64_t i = begin; i < end; ++i) {
            // Eight bytes of positions not seen yet (the early levels' whole plane, nearly)
            // hold no frontier.
            if (i % 8 == 0 && i + 8 <= end) {
              const auto* word = reinterpret_cast<std::uint64_t*>(plane + i);  // the table's own words
              if (std::atomic_ref<std::uint64_t>(*const_cast<std::uint64_t*>(word)).load(std::memory_order_relaxed) ==
                  0) {
                i += 7;
                continue;
              }
            }
            for (unsigned m = in_state(i, frontier); m; m &= m - 1) {
              held.push(i * parity_detail::kPerByte + unsigned(std::countr_zero(m)), classify);
            }
          }
          held.finish(classify);
        });
    pass.listed = pass.listed && cap != 0;
    return pass;
  }

  // Finds the next level backwards: the positions not seen yet with a successor in
  // the frontier. Each byte is written by the thread visiting it alone.
  template <bool kLoops, class Expand>
  Pass pull(std::uint8_t frontier, std::uint64_t work, const Expand& expand, std::uint64_t cap) {
    const parity_detail::Step step(frontier, std::uint8_t(3 - frontier));
    start_list(cap);
    Pass pass = over(bytes_, work, [&]<bool kShared>(std::uint64_t begin, std::uint64_t end, Pass& p) {
      parity_detail::Successors<Expand> held(expand, plane_, moves_);
      // The joins made to byte `at`, stored once its ranks are all visited.
      std::uint64_t at = begin;
      std::uint8_t add = 0;
      const auto flush = [&] {
        if (add)
          std::atomic_ref<std::uint8_t>(plane_[at]).store(std::uint8_t(load(at) + add), std::memory_order_relaxed);
        add = 0;
      };
      const auto test = [&](std::uint64_t u, const std::uint64_t* t, int n) {
        std::uint64_t in = 0, loops = 0;
        for (int j = 0; j < n; ++j) {
          in += step.found[parity_detail::Step::at(load(t[j] >> parity_detail::kPlaceShift), t[j])];
          if constexpr (kLoops) loops += t[j] == u;
        }
        in >>= parity_detail::Step::kFrontierShift;
        if (!in) return;
        const std::uint64_t i = u >> parity_detail::kPlaceShift;
        if (i != at) {
          flush();
          at = i;
        }
        add = std::uint8_t(add + step.adds[u & parity_detail::kDigitMask]);
        p.arcs += in;
        p.loops += loops;
        ++p.found;
        if (cap) list(parity_detail::rank_of(u), cap, p);
      };
      for (std::uint64_t i = begin; i < end; ++i) {
        for (unsigned m = in_state(i, 0); m; m &= m - 1) {
          held.push(i * parity_detail::kPerByte + unsigned(std::countr_zero(m)), test);
        }
      }
      held.finish(test);
      flush();
    });
    pass.listed = pass.listed && cap != 0;
    return pass;
  }

  // The sum of f(r) over the ranks in state s.
  template <class F>
  std::uint64_t parity_sum(std::uint8_t s, std::uint64_t work, const F& f) {
    return over(bytes_, work,
                [&]<bool>(std::uint64_t begin, std::uint64_t end, Pass& p) {
                  for (std::uint64_t i = begin; i < end; ++i) {
                    for (unsigned m = in_state(i, s); m; m &= m - 1) {
                      p.arcs += std::uint64_t(f(i * parity_detail::kPerByte + unsigned(std::countr_zero(m))));
                    }
                  }
                })
        .arcs;
  }

  void start_list(std::uint64_t cap) {
    listed_.clear();
    if (cap) listed_.reserve(std::size_t(std::min<std::uint64_t>(cap, 1024)));
    listed_count_.store(0, std::memory_order_relaxed);
  }

  std::uint64_t space_, bytes_, most_listed_;
  BitTable table_;
  std::uint8_t* plane_;
  int moves_ = 0;
  std::vector<std::uint64_t> listed_;
  std::atomic<std::uint64_t> listed_count_{0};
  std::mutex list_lock_;
};

}  // namespace statespace
