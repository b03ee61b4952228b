#include "analysis/engines/implicit/implicit_bfs.hpp"

#include <numeric>
#include <span>
#include <string>

#include "analysis/engines/common/checkpoint_seed.hpp"
#include "analysis/engines/common/slices.hpp"
#include "analysis/engines/implicit/implicit_engine.hpp"
#include "analysis/runtime/checkpoint.hpp"
#include "analysis/runtime/progress.hpp"
#include "analysis/runtime/threads.hpp"
#include "core/errors.hpp"
#include "core/ranking.hpp"

namespace statespace {

namespace {

// Destination slices per worker thread: many, so that the apply phase evens out
// where the targets are unevenly spread (a round's targets crowd into the slices
// near the chunks scanned). 16 rather than 4 cut the apply phase's waiting by
// about 40% on tiles:3x4 at 2 threads.
constexpr unsigned kSlicesPerThread = 16;
// Scan chunks per worker thread: many, so that lanes share a level's work to its end.
constexpr unsigned kChunksPerThread = 32;
// Up/down targets a round queues per lane (4 bytes each). A round ends with two
// barriers (scan, apply), so bigger rounds waste less time waiting: 2^17 runs
// tiles:3x4 about 10% faster on 2 threads than 2^15. The queues' pools take the
// round's offsets, round_capacity() per lane: 1 MiB on one thread, 2 MiB per lane
// on more, touched only as filled.
constexpr std::size_t kRoundBudget = std::size_t{1} << 17;

// One level: chunks of the scan shared by the lanes, targets applied by slice owners.
LevelCounts expand(ImplicitEngine& engine, unsigned depth, const SlicePartition& chunks, const SlicePartition& slices,
                   std::vector<SliceQueues>& lanes) {
  const unsigned n = chunks.count();
  std::vector<ImplicitEngine::Cursor> cursors;
  cursors.reserve(n);
  for (unsigned s = 0; s < n; ++s) cursors.push_back(engine.cursor(depth, chunks.begin(s), chunks.end(s)));
  std::vector<LevelCounts> scanned(n);
  run_rounds(
      n, slices.count(), lanes, kRoundBudget,
      [&](unsigned s, SliceQueues& out, std::size_t limit) {
        return engine.scan(depth, cursors[s], slices, out, limit, scanned[s]);
      },
      [&](unsigned t, std::span<const std::uint32_t> targets) { engine.apply(depth, slices.begin(t), targets); });
  LevelCounts total;
  for (const auto& c : scanned) total += c;
  total.claimed = engine.finish(depth);
  return total;
}

}  // namespace

std::uint64_t ImplicitResult::states() const { return std::accumulate(layers.begin(), layers.end(), std::uint64_t{0}); }

std::uint64_t ImplicitResult::edges() const {
  std::uint64_t total = 0;
  for (const auto& e : layer_edges) total += e.count;
  return total;
}

std::uint64_t implicit_bytes(const Tiles& p) { return ImplicitEngine::table_bytes(p, ImplicitEngine::sequences(p)); }

ImplicitResult implicit_bfs(const Tiles& p, Board start, const ImplicitOptions& o) {
  const std::string start_text = p.format(start);
  CheckpointState state;
  if (o.resumed) {
    state = *o.resumed;
  } else if (!o.resume.empty()) {
    state = read_checkpoint_header(o.resume);
    require_checkpoint_of(state, o.resume, p.name(), start_text);
  }
  if (!o.memory_checked) o.memory.require(implicit_bytes(p), p.name() + ": implicit BFS tables");
  ImplicitEngine engine(p, start, 0, ImplicitEngine::sequences(p));
  const std::span<BitTable> tables = engine.tables();
  const unsigned threads = worker_threads();
  const SlicePartition slices = ImplicitEngine::partition(p, std::uint64_t(kSlicesPerThread) * threads);
  const SlicePartition chunks = ImplicitEngine::partition(p, std::uint64_t(kChunksPerThread) * threads);
  std::vector<SliceQueues> lanes =
      ImplicitEngine::queues(threads, slices.count(), round_capacity(threads, kRoundBudget), kRoundStep);
  seed_or_resume(engine, tables, o.resume, start, p.name(), start_text, state);
  if (o.resume.empty() && o.table) engine.fill_table(0, *o.table);

  Progress progress(p.name() + " implicit bfs", o.progress);
  if (!o.resume.empty())
    progress.note("resumed at level " + std::to_string(state.level) + " from " + o.resume.string());
  std::uint64_t total = std::accumulate(state.layers.begin(), state.layers.end(), std::uint64_t{0});
  double last_checkpoint = 0;
  for (;; ++state.level) {
    const LevelCounts level = expand(engine, state.level, chunks, slices, lanes);
    if (level.claimed == 0) break;
    state.add_layer(level.claimed, level.degrees);
    if (o.table) engine.fill_table(state.level + 1, *o.table);
    total += level.claimed;
    progress.level(state.level + 1, level.claimed, total, implicit_bytes(p));
    if (!o.checkpoint.empty() && progress.seconds() - last_checkpoint >= o.checkpoint_every) {
      last_checkpoint = progress.seconds();
      CheckpointState next = state;
      ++next.level;
      write_checkpoint(o.checkpoint, next, tables);
      progress.note("checkpoint written: level " + std::to_string(next.level) + " in " + o.checkpoint.string());
      if (o.on_checkpoint) o.on_checkpoint(next.level);
    }
  }
  ImplicitResult r;
  r.layers = state.layers;
  for (unsigned d = 0; d < state.edges_to_next.size(); ++d) r.layer_edges.push_back({d, d + 1, state.edges_to_next[d]});
  r.farthest = farthest_in_rank_order(engine.layer(state.level), p.cells());
  return r;
}

}  // namespace statespace
