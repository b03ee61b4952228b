#include "analysis/engines/implicit/analyze_implicit.hpp"

#include "analysis/engines/implicit/implicit_bfs.hpp"

namespace statespace {

ImplicitOptions implicit_options(const AnalyzeOptions& o) {
  ImplicitOptions io;
  io.memory = o.memory;
  io.progress = o.progress;
  io.checkpoint = o.checkpoint.empty() ? o.resume : o.checkpoint;
  io.resume = o.resume;
  io.checkpoint_every = o.checkpoint_every;
  io.on_checkpoint = o.on_checkpoint;
  return io;
}

AnalysisResult implicit_analysis(const Tiles& p, Board start, const ImplicitResult& im, Engine engine) {
  AnalysisResult r;
  r.puzzle = p.name();
  r.start = p.format(start);
  r.engine = engine_name(engine);
  r.lookup = lookup_name(LookupKind::kRanked);  // the two-bit table is indexed by rank
  r.states = im.states();
  r.edges = im.edges();
  r.layers = im.layers;
  for (Board b : im.farthest) r.farthest.push_back(p.format(b));
  r.layer_edges = im.layer_edges;
  return r;
}

AnalysisResult analyze_implicit(const Tiles& p, const AnalyzeOptions& o) {
  const Board start = resolve_start(p, o);
  return implicit_analysis(p, start, implicit_bfs(p, start, implicit_options(o)), Engine::implicit);
}

}  // namespace statespace
