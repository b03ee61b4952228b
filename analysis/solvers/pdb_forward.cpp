// The forward phase of the pattern search (analysis/solvers/pdb_search.hpp): the
// frontier's successors queued to their slices' owners, who mark them.
#include <algorithm>

#include "analysis/solvers/pdb_search.hpp"

namespace statespace::pdb_search {

std::uint64_t PatternSearch::expand(unsigned level) {
  std::vector<std::uint64_t> cursors(chunks_.count());
  for (unsigned c = 0; c < chunks_.count(); ++c) cursors[c] = chunks_.begin(c);
  for (auto& o : owned_) o.added = 0;
  run_rounds(
      chunks_.count(), slices_.count(), lanes_, kRoundBudget,
      [&](unsigned c, SliceQueues& out, std::size_t limit) { return scan(level, c, cursors[c], out, limit); },
      [&](unsigned s, std::span<const std::uint32_t> targets) { apply(level, s, targets); });
  std::uint64_t added = 0;
  for (const auto& o : owned_) added += o.added;
  return added;
}

// Expands the frontier placements of `chunk` from `cursor` on until `out` holds `limit`
// targets; true when it reached the chunk's end. A successor in the chunk itself
// (most moves of the last tiles, whose digits weigh least) is marked at once, on
// words still in cache: during a scan no one else writes the chunk's words, and the
// scan reads only seen bits of frontier placements, which a level never changes.
// The others are queued to the owners of their slices.
//
// Every region seen of a frontier placement is expanded: those of earlier levels
// give states seen already. None of this level's new states can be among them,
// since a placement's states all lie at levels of one parity (that of its Manhattan
// distance), and so no frontier placement gains a region in this level.
bool PatternSearch::scan(unsigned level, unsigned chunk, std::uint64_t& cursor, SliceQueues& out, std::size_t limit) {
  std::size_t held = out.size();
  Cursor c;
  const int next_level = int(level) + 1;
  const SlicePartition slices = slices_;  // a local: the queue stores cannot change it
  const std::uint64_t begin = chunks_.begin(chunk), length = chunks_.end(chunk) - begin;
  Owned& mine = owned_[slices_.count() + chunk];
  cursor = for_each_marked<true>(front_, cursor, begin + length, [&](std::uint64_t p) {
    seek(c, p);
    const Unranked& u = c.u;
    const std::uint32_t free = regions_.all() & ~u.occupied;
    const std::uint32_t seen = seen_names(p);
    std::uint32_t reach = free;  // the cells of every region expanded
    if (seen != regions_.present(free)) {
      reach = 0;
      for (std::uint32_t names = seen; names; names &= names - 1) {
        reach |= regions_.region(free, unsigned(std::countr_zero(names)));
      }
    }
    for_each_move(p, u, reach, [&](std::uint64_t r, unsigned name, int manhattan) {
      // A successor's Manhattan distance is at most next_level and of its parity.
      const unsigned excess = std::min(unsigned(next_level - manhattan) / 2, (1u << kExcessBits) - 1);
      if (r - begin < length) {
        mark(mine, r, name, excess, level);
      } else {
        out.push(slices.owner(r), std::uint32_t(slices.within(r) << kOffsetShift) | excess << kNameBits | name);
        ++held;
      }
      return false;
    });
    return held >= limit;
  });
  return cursor >= begin + length;
}

// Marks the targets queued to slice s: a state not seen yet joins the next level,
// and a placement reached for the first time gets its value.
void PatternSearch::apply(unsigned level, unsigned s, std::span<const std::uint32_t> targets) {
  const std::uint64_t first = slices_.begin(s);
  Owned& o = owned_[s];
  // Targets land anywhere in the slice: each one's seen word is fetched kAhead
  // targets before it is tested. The words a new state writes besides are denser
  // (a bit or four a placement, not a bit a region) and mostly already at hand.
  constexpr std::size_t kAhead = 16;
  std::uint64_t* const seen = seen_.data();
  const std::uint64_t names = names_;
  const std::size_t size = targets.size();
  for (std::size_t i = 0; i < size; ++i) {
    if (i + kAhead < size) __builtin_prefetch(seen + (first + (targets[i + kAhead] >> kOffsetShift)) * names / 64, 1);
    const std::uint32_t t = targets[i];
    mark(o, first + (t >> kOffsetShift), t & ((1u << kNameBits) - 1), (t >> kNameBits) & ((1u << kExcessBits) - 1),
         level);
  }
}

}  // namespace statespace::pdb_search
