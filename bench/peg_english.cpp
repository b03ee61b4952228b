// The whole English peg solitaire from the standard start (33 holes, centre empty):
// every position reachable by single jumps, 187,636,299 of them, by the sorted-levels
// engine on bench/peg_solitaire.hpp's model. Prints the positions after each jump
// and the total, for /usr/bin/time -v (docs/benchmarks.md).
//   statespace_peg_english [THREADS] [--goal]
// --goal adds the distance to the goal (one peg, in the centre) by predecessors.
#include <tbb/global_control.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "analysis/engines/levels/analyze_levels.hpp"
#include "bench/peg_solitaire.hpp"

int main(int argc, char** argv) {
  using namespace statespace;
  const int threads = argc > 1 ? std::stoi(argv[1]) : 2;
  const bool goal = argc > 2 && std::strcmp(argv[2], "--goal") == 0;
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
  const PegSolitaire p = english_peg_solitaire();
  const auto packing = p.packing(p.goal());
  std::uint64_t total = 0;
  if (goal) {
    AnalyzeOptions o;
    const AnalysisResult r = analyze_levels(p, o);
    for (const auto n : r.layers) std::printf("%llu\n", static_cast<unsigned long long>(n));
    total = r.states;
    if (r.goal && r.goal->dead_ends) {
      std::printf("reached goal %llu, dead ends %llu\n", static_cast<unsigned long long>(r.goal->reached),
                  static_cast<unsigned long long>(*r.goal->dead_ends));
    }
  } else {
    Progress progress(p.name() + " levels", true);
    const auto r = sorted_levels_bfs(*packing, p.goal(), p.name(), MemoryBudget(), &progress, SortedLevelsMode{true});
    for (const auto n : r.layers) std::printf("%llu\n", static_cast<unsigned long long>(n));
    total = r.states();
  }
  std::printf("total %llu\n", static_cast<unsigned long long>(total));
  return total == 187'636'299 ? 0 : 1;
}
