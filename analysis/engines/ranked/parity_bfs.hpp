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
#include <cassert>
#include <cstdint>
#include <limits>
#include <mutex>
#include <optional>
#include <vector>

#include "analysis/engines/ranked/parity_bytes.hpp"
#include "analysis/engines/ranked/ranked_bfs.hpp"
#include "analysis/runtime/packed_table.hpp"
#include "analysis/runtime/progress.hpp"
#include "analysis/runtime/threads.hpp"

namespace statespace {

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
        plane_(reinterpret_cast<std::uint8_t*>(table_.words())),
        listed_(space) {}

  // What a search over `space` ranks allocates: the states, and two levels listed
  // (the one being found and the last).
  static std::uint64_t bytes(std::uint64_t space) {
    return BitTable::bytes_for(bytes_in(space) * 8) +
           2 * listed_cap(space) * parity_detail::RankList::bytes_a_rank(space);
  }

  // The levels from `start` until none is found. `farthest` receives the last
  // level's ranks, ascending, and is empty when the level was too large to list;
  // `list_level` lists that level whatever its size (and no other). The states are
  // freed when it returns: a search runs once.
  template <class Expand, class Loops>
  RankedSearch search(std::uint64_t start, int moves, const Expand& expand, const Loops& loops, Progress* progress,
                      std::vector<std::uint64_t>& farthest, std::optional<std::size_t> list_level = {}) {
    // A rank's sum of its successors' Step entries keeps its two counts apart.
    assert(moves < 1 << parity_detail::Step::kFrontierShift);
    set(start, 1);
    moves_ = moves;
    RankedSearch s;
    s.layers.push_back(1);
    parity_detail::RankList last(space_);
    last.start(1);
    last.push(start);
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
        // Every rank seen: the frontier is the last level, with no move onward.
        if (unseen != 0) {
          pass = with_loops(loops, [&]<bool kLoops> { return pull<kLoops>(frontier, unseen, expand, cap); });
        }
        m.onward = pass.arcs;
        m.within = m.successors - level_loops - m.onward - back;
        frontier_loops = loops.counted ? pass.loops : 0;
      } else {
        const std::uint64_t work = listed ? size : at_parity[c];
        const parity_detail::RankList* from = listed ? &last : nullptr;
        pass = with_loops(loops, [&]<bool kLoops> { return push<kLoops>(frontier, work, expand, cap, from); });
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
      if (pass.listed) {
        std::swap(last, listed_);
        last.sort();
      } else {
        last.release();
      }
      listed_.release();
      s.layers.push_back(pass.found);
      at_parity[1 - c] += pass.found;
      unseen -= pass.found;
      total += pass.found;
      if (progress) progress->level(unsigned(d + 1), pass.found, total);
    }
    // Freed first: the widened copy of the farthest ranks is then no addition to the
    // peak.
    listed_.release();
    table_ = BitTable();
    plane_ = nullptr;
    farthest = last.wide();
    return s;
  }

 private:
  static std::uint64_t bytes_in(std::uint64_t space) {
    return (space + parity_detail::kPerByte - 1) / parity_detail::kPerByte;
  }
  // Ranks a level may list as it is found: as many as 1/256 of the states' bytes
  // (the 2x2x2's 64,736 farthest positions among 88,179,840 fit).
  static std::uint64_t listed_cap(std::uint64_t space) { return std::max<std::uint64_t>(4096, bytes_in(space) / 256); }
  [[nodiscard]] std::uint8_t load(std::uint64_t i) const {
    return std::atomic_ref<std::uint8_t>(plane_[i]).load(std::memory_order_relaxed);
  }
  void set(std::uint64_t r, unsigned s) {
    plane_[r / parity_detail::kPerByte] += std::uint8_t(s * parity_detail::kPower[r % parity_detail::kPerByte]);
  }
  // f(r) for each rank r in state s in the bytes [begin, end). Another state than 0
  // passes over eight bytes of ranks not seen yet at once (the early levels' whole
  // plane, nearly).
  template <class F>
  void each_in_state(std::uint64_t begin, std::uint64_t end, unsigned s, const F& f) const {
    const auto& in = parity_detail::kDigits.in[s];
    const auto each = [&](std::uint64_t i, unsigned m) {
      for (; m; m &= m - 1) f(i * parity_detail::kPerByte + unsigned(std::countr_zero(m)));
    };
    // The last byte alone may hold ranks past the space: they are none.
    const std::uint64_t whole = std::min(end, bytes_ - 1);
    for (std::uint64_t i = begin; i < whole; ++i) {
      // A loop of its own over the bytes with no rank in state s, most bytes of most
      // passes: f's work keeps no register from it.
      unsigned m = 0;
      for (; i < whole; ++i) {
        if (s != 0 && i % 8 == 0 && i + 8 <= whole) {
          const auto* word = reinterpret_cast<std::uint64_t*>(plane_ + i);  // the table's own words
          if (std::atomic_ref<std::uint64_t>(*const_cast<std::uint64_t*>(word)).load(std::memory_order_relaxed) == 0) {
            i += 7;
            continue;
          }
        }
        m = in[load(i)];
        if (m != 0) break;
      }
      if (m != 0) each(i, m);
    }
    if (begin < end && end == bytes_) {
      unsigned m = in[load(bytes_ - 1)];
      if (space_ % parity_detail::kPerByte) m &= (1u << (space_ % parity_detail::kPerByte)) - 1;
      each(bytes_ - 1, m);
    }
  }

  // What one pass over the states found: its new positions and the moves it counted
  // (forward: the moves to the frontier's parity; backward: from the new positions
  // into the frontier), with the self-loops of the positions it expanded (forward)
  // or joined (backward).
  struct Pass {
    std::uint64_t found = 0, arcs = 0, loops = 0;
    bool listed = true;
  };

  // f.operator()<kLoops>() with kLoops = loops.counted: self-loops are looked for only
  // in a space that has them.
  template <class Loops, class F>
  static Pass with_loops(const Loops& loops, const F& f) {
    return loops.counted ? f.template operator()<true>() : f.template operator()<false>();
  }

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
    listed_.push(r);
  }

  // Expands the frontier, listed (`from`), or else every position of its parity,
  // marking the positions not seen yet with the other. Self-loops are looked for
  // where `kLoops` (loops.counted), as in pull().
  template <bool kLoops, class Expand>
  Pass push(std::uint8_t frontier, std::uint64_t work, const Expand& expand, std::uint64_t cap,
            const parity_detail::RankList* from) {
    const parity_detail::Step step(frontier, std::uint8_t(3 - frontier));
    start_list(cap);
    Pass pass =
        over(from ? from->size() : bytes_, work, [&]<bool kShared>(std::uint64_t begin, std::uint64_t end, Pass& p) {
          parity_detail::Successors<Expand> held(expand, plane_, moves_);
          // Without a branch on the state where one thread marks: whether a successor is
          // new is close to random, and mispredictions would cost more than the stores.
          // Counted in locals, and the states and the step read into locals once: a byte
          // store may alias anything the compiler cannot see, this closure's fields too.
          // A loop that lists and one that does not: whether a successor is new is no
          // branch where the level is not listed, which is where most are made.
          const auto classify_as = [&]<bool kListing>(std::uint64_t r, const std::uint64_t* t, int n) {
            std::uint8_t* const states = plane_;
            const parity_detail::Step& st = step;
            std::uint64_t loops = 0, sum = 0;
#pragma GCC unroll 4
            for (int j = 0; j < n; ++j) {
              const std::uint64_t u = t[j];
              if constexpr (kLoops) loops += u == r;
              std::uint8_t* const byte = states + (u >> parity_detail::kPlaceShift);
              std::uint8_t b = kShared ? std::atomic_ref<std::uint8_t>(*byte).load(std::memory_order_relaxed) : *byte;
              std::uint32_t c = st.found_at(b, u);
              if constexpr (kShared) {
                if (c & parity_detail::Step::kNew) {
                  // Another thread may mark the byte's other digits, or this one, meanwhile.
                  std::atomic_ref<std::uint8_t> at(*byte);
                  while (!at.compare_exchange_weak(b, st.marked_at(b, u))) {
                    if (!(st.found_at(b, u) & parity_detail::Step::kNew)) {
                      c &= ~parity_detail::Step::kNew;
                      break;
                    }
                  }
                }
              } else {
                *byte = st.marked_at(b, u);
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
          each_in_state(begin, end, frontier, [&](std::uint64_t r) { held.push(r, classify); });
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
#pragma GCC unroll 4
        for (int j = 0; j < n; ++j) {
          in += step.found_at(load(t[j] >> parity_detail::kPlaceShift), t[j]);
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
      each_in_state(begin, end, 0, [&](std::uint64_t r) { held.push(r, test); });
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
                  each_in_state(begin, end, s, [&](std::uint64_t r) { p.arcs += std::uint64_t(f(r)); });
                })
        .arcs;
  }

  void start_list(std::uint64_t cap) {
    listed_.start(std::min(cap, most_listed_));
    listed_count_.store(0, std::memory_order_relaxed);
  }

  std::uint64_t space_, bytes_, most_listed_;
  BitTable table_;
  std::uint8_t* plane_;
  int moves_ = 0;
  parity_detail::RankList listed_;
  std::atomic<std::uint64_t> listed_count_{0};
  std::mutex list_lock_;
};

}  // namespace statespace
