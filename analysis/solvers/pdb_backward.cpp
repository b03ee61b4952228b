// The backward phase of the pattern search (analysis/solvers/pdb_search.hpp).
#include <tbb/parallel_for.h>

#include "analysis/solvers/pdb_search.hpp"

namespace statespace::pdb_search {

// The next level found backwards, for the late levels, where the states not yet
// seen are fewer than the frontier's successors: a state not seen lies at level
// + 1 exactly when one of its neighbours has been seen (the neighbours of a state
// at level d + 1 or more lie at level d or more, and moves flip the parity of the
// level). Each slice's owner visits its placements of the right parity and writes
// only their bits, while the neighbours it reads are of the other parity, so no bit
// read changes during the level; words shared with other slices' placements are
// read and written through atomic_ref.
//
// A placement's states all lie at levels of one parity, so a level visits half of
// them at most: skip_[parity] marks the placements a level of that parity never
// needs again, those of the other parity and those whose regions have all been
// seen; the first level of each parity finds them.
std::uint64_t PatternSearch::pull(unsigned level) {
  for (auto& o : owned_) o.added = 0;
  tbb::parallel_for(
      0u, slices_.count(), [&](unsigned s) { pull_slice(level, s); }, tbb::simple_partitioner());
  std::uint64_t added = 0;
  for (const auto& o : owned_) added += o.added;
  return added;
}

void PatternSearch::pull_slice(unsigned level, unsigned s) {
  Owned& o = owned_[s];
  const unsigned parity = (level + 1) % 2;
  BigVector<std::uint64_t>& skip = skip_[parity];
  Cursor c;
  for_each_marked<false>(skip, slices_.begin(s), slices_.end(s), [&](std::uint64_t p) {
    seek(c, p);
    const Unranked& u = c.u;
    const std::uint32_t free = regions_.all() & ~u.occupied;
    const std::uint32_t present = regions_.present(free);
    const std::uint32_t seen = load_seen_names(p);
    const std::uint64_t bit = std::uint64_t{1} << (p % 64);
    if (seen == present) {
      skip_[0][p / 64] |= bit;
      skip_[1][p / 64] |= bit;
      return false;
    }
    if (unsigned(u.base) % 2 != parity) {
      skip[p / 64] |= bit;
      return false;
    }
    std::uint32_t found = 0;
    for (std::uint32_t names = present & ~seen; names; names &= names - 1) {
      const unsigned name = unsigned(std::countr_zero(names));
      bool reached = false;
      // A placement whose free cells form one region needs no lookup of it.
      const std::uint32_t region = (present & (present - 1)) == 0 ? free : regions_.region(free, name);
      for_each_move(p, u, region, [&](std::uint64_t r, unsigned n2, int) {
        const std::uint64_t e = r * names_ + n2;
        reached = (load_seen(e / 64) >> (e % 64)) & 1;
        return reached;
      });
      if (reached) found |= 1u << name;
    }
    if (found == 0) return false;
    for (std::uint32_t f = found; f; f &= f - 1) {
      const std::uint64_t e = p * names_ + unsigned(std::countr_zero(f));
      std::atomic_ref<std::uint64_t> word(seen_[e / 64]);
      word.store(word.load(std::memory_order_relaxed) | std::uint64_t{1} << (e % 64), std::memory_order_relaxed);
    }
    o.added += std::uint64_t(std::popcount(found));
    if ((seen | found) == present) {
      skip_[0][p / 64] |= bit;
      skip_[1][p / 64] |= bit;
    }
    if (seen == 0) reach_placement(o, p, unsigned(int(level + 1) - u.base) / 2, level);
    return false;
  });
}

}  // namespace statespace::pdb_search
