#include "analysis/engines/explicit/diameter.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

namespace statespace {

DiameterPair max_eccentricity(const Graph& g, const std::vector<Vertex>& sources) {
  std::vector<Eccentricity> ecc(sources.size());
  struct Scratch {
    std::vector<Distance> dist;
    std::vector<Vertex> queue;
  };
  tbb::enumerable_thread_specific<Scratch> scratch;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, sources.size()), [&](const auto& range) {
    auto& s = scratch.local();
    for (auto i = range.begin(); i != range.end(); ++i) ecc[i] = eccentricity(g, sources[i], s.dist, s.queue);
  });
  DiameterPair best;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    if (i == 0 || ecc[i].distance > best.length) best = {ecc[i].distance, sources[i], ecc[i].farthest};
  }
  return best;
}

}  // namespace statespace
