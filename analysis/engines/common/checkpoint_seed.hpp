// Where a checkpointed search over bit tables begins: the tables a checkpoint left,
// or the start position alone in fresh tables. The implicit engine on one machine
// and over MPI processes (one checkpoint per process) start the same way, so a
// checkpoint either wrote is resumed by the same steps and carries the same header.
#pragma once

#include <filesystem>
#include <span>
#include <string>

#include "analysis/runtime/checkpoint.hpp"
#include "analysis/runtime/packed_table.hpp"

namespace statespace {

// A search whose tables a checkpoint can hold: seed() marks the start in fresh
// tables, resumed() rebuilds what the engine derives from tables read back.
template <class Engine, class State>
concept CheckpointedSearch = requires(Engine& e, const State& s) {
  e.seed(s);
  e.resumed();
};

// Fills `tables` from the checkpoint in `resume_from` (state holds its header, read
// and checked by the caller), or, when resume_from is empty, seeds `start` and makes
// `state` the header of a search at level 0: puzzle, start, one position in layer 0.
// Either way state.table_entries ends as the tables' sizes.
template <class State, CheckpointedSearch<State> Engine>
void seed_or_resume(Engine& engine, std::span<BitTable> tables, const std::filesystem::path& resume_from,
                    const State& start, const std::string& puzzle, const std::string& start_text,
                    CheckpointState& state) {
  if (!resume_from.empty()) {
    read_checkpoint_tables(resume_from, tables);
    engine.resumed();
  } else {
    engine.seed(start);
    state.puzzle = puzzle;
    state.start = start_text;
    state.layers = {1};
  }
  state.table_entries.clear();
  for (const auto& t : tables) state.table_entries.push_back(t.entries());
}

}  // namespace statespace
