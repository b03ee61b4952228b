// solve by a distance table: when analyze --table left one for the puzzle (or
// --table names one), a solution is a walk of best moves, each a few table probes,
// instead of a search. The table's header is checked against the puzzle first.
#pragma once

#include <filesystem>
#include <iostream>
#include <optional>
#include <string>

#include "analysis/pipeline/pipeline_instances.hpp"
#include "analysis/solvers/solve.hpp"
#include "analysis/tables/table_probe.hpp"
#include "cli/table_args.hpp"
#include "core/errors.hpp"

namespace statespace::cli {

// The solution from `start` along the table `table_option` names, or the one in the
// default report folder when it exists; none when there is no table, or the start
// has no distance in it (then the caller searches). A table named by --table that
// is not p's is refused (UsageError); one found in the report folder is passed over
// with a note.
template <Puzzle P>
std::optional<Solution<P>> solve_by_table(const P& p, const std::string& table_option, const typename P::State& start) {
  const bool named = !table_option.empty();
  const std::filesystem::path path =
      named ? std::filesystem::path(table_option) : bundle_table_path("reports-out", p.name());
  std::error_code ec;
  if (!named && !std::filesystem::exists(path, ec)) return std::nullopt;
  try {
    const GoalTableFile table = GoalTableFile::open(path);
    const TableProbe<P> probe(p, table);
    const TableEntry e = probe.entry(start);
    if (e.standing != Standing::distance) return std::nullopt;
    Solution<P> sol;
    sol.path = real_path(p, probe.line(start, e.distance));
    return sol;
  } catch (const UsageError& error) {
    if (named) throw;
    std::cerr << "statespace: solving without the table: " << error.what() << "\n";
    return std::nullopt;
  }
}

}  // namespace statespace::cli
