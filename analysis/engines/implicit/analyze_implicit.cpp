#include "analysis/engines/implicit/analyze_implicit.hpp"

#include <memory>
#include <numeric>
#include <string>

#include "analysis/engines/implicit/implicit_bfs.hpp"
#include "analysis/engines/implicit/tile_index.hpp"
#include "analysis/runtime/goal_table.hpp"

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

std::string tiles_table_identity(const Tiles& p) {
  const TileIndex index(p.rows(), p.cols());
  return std::to_string(index.class_size()) + " positions of class " + std::to_string(index.class_of(p.goal()));
}

GoalTableHeader tiles_table_header(const Tiles& p) {
  GoalTableHeader h;
  h.puzzle = p.name();
  h.goal = p.format(p.goal());
  h.index = std::string(kTileClassIndex);
  h.entries = TileIndex(p.rows(), p.cols()).class_size();
  h.identity = tiles_table_identity(p);
  return h;
}

std::shared_ptr<GoalTable> new_tiles_table(const Tiles& p) {
  return std::make_shared<GoalTable>(tiles_table_header(p));
}

AnalysisResult implicit_run(const Tiles& p, Board start, const AnalyzeOptions& o, ImplicitOptions io) {
  std::shared_ptr<GoalTable> table;
  // The search from the goal fills the table as it goes; one from elsewhere, or a
  // resumed one (its earlier levels are gone), is followed by a search from the goal
  // for the table alone.
  const bool from_goal = start == p.goal() && io.resume.empty();
  if (o.table) {
    table = new_tiles_table(p);
    if (from_goal) io.table = table.get();
  }
  const ImplicitResult im = implicit_bfs(p, start, io);
  AnalysisResult r = implicit_analysis(p, start, im, Engine::implicit);
  if (!table) return r;
  std::vector<std::uint64_t> layers = im.layers;
  if (!from_goal) {
    ImplicitOptions again;
    again.memory = o.memory;
    again.progress = o.progress;
    again.memory_checked = true;
    again.table = table.get();
    layers = implicit_bfs(p, p.goal(), again).layers;
  }
  GoalTableHeader& h = table->header();
  h.reached = std::accumulate(layers.begin(), layers.end(), std::uint64_t{0});
  h.layers = std::move(layers);
  r.table = std::move(table);
  return r;
}

AnalysisResult analyze_implicit(const Tiles& p, const AnalyzeOptions& o) {
  return implicit_run(p, resolve_start(p, o), o, implicit_options(o));
}

}  // namespace statespace
