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
      [&](unsigned c, SliceQueues& out, std::size_t limit) {
        return scan(level, cursors[c], chunks_.end(c), out, limit);
      },
      [&](unsigned s, std::span<const std::uint32_t> targets) { apply(level, s, targets); });
  std::uint64_t added = 0;
  for (const auto& o : owned_) added += o.added;
  return added;
}

// Expands the frontier placements from `cursor` up to `end`, queueing their
// successors, until `out` holds `limit` targets; true when it reached `end`. Every
// region seen of a frontier placement is expanded: those of earlier levels give
// states seen already. None of this level's new states can be among them, since a
// placement's states all lie at levels of one parity (that of its Manhattan
// distance), and so no frontier placement gains a region in this level.
bool PatternSearch::scan(unsigned level, std::uint64_t& cursor, std::uint64_t end, SliceQueues& out,
                         std::size_t limit) {
  std::size_t held = out.size();
  Cursor c;
  const int next_level = int(level) + 1;
  const SlicePartition slices = slices_;  // a local: the queue stores cannot change it
  cursor = for_each_marked<true>(front_, cursor, end, [&](std::uint64_t p) {
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
      out.push(slices.owner(r), std::uint32_t(slices.within(r) << kOffsetShift) | excess << kNameBits | name);
      ++held;
      return false;
    });
    return held >= limit;
  });
  return cursor >= end;
}

// Marks the targets queued to slice s: a state not seen yet joins the next level,
// and a placement reached for the first time gets its value.
void PatternSearch::apply(unsigned level, unsigned s, std::span<const std::uint32_t> targets) {
  const std::uint64_t first = slices_.begin(s);
  Owned& o = owned_[s];
  std::uint64_t added = 0;
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
    const std::uint64_t p = first + (t >> kOffsetShift);
    const std::uint64_t e = p * names + (t & ((1u << kNameBits) - 1));
    const std::uint64_t bit = std::uint64_t{1} << (e % 64);
    if (seen[e / 64] & bit) continue;
    const bool reached = seen_names(p) != 0;
    seen[e / 64] |= bit;
    next_[p / 64] |= std::uint64_t{1} << (p % 64);
    ++added;
    if (!reached) reach_placement(o, p, (t >> kNameBits) & ((1u << kExcessBits) - 1), level);
  }
  o.added += added;
}

}  // namespace statespace::pdb_search
