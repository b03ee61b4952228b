#include "reports/tables.hpp"

#include <sstream>

#include "analysis/engines/directed.hpp"

namespace statespace::reports {

namespace {

std::string components_text(const AnalysisResult& r, const char* separator) {
  if (!r.components) return "";
  std::string out;
  for (std::size_t i = 0; i < r.components->sizes.size(); ++i) {
    if (i) out += separator;
    out += std::to_string(r.components->sizes[i]);
  }
  return out;
}

bool any_symmetric(const std::vector<AnalysisResult>& results) {
  for (const auto& r : results) {
    if (!r.layer_positions.empty()) return true;
  }
  return false;
}

bool any_directed(const std::vector<AnalysisResult>& results) {
  for (const auto& r : results) {
    if (r.directed) return true;
  }
  return false;
}

// The positions as the CSV files write them (AnalysisResult::table_positions).
const std::string& table_start(const AnalysisResult& r) {
  return r.table_positions ? r.table_positions->start : r.start;
}
const std::vector<std::string>& table_farthest(const AnalysisResult& r) {
  return r.table_positions ? r.table_positions->farthest : r.farthest;
}

std::optional<std::uint64_t> shortest_of(const AnalysisResult& r) {
  if (r.goal && r.goal->shortest) return *r.goal->shortest;
  return std::nullopt;
}

std::optional<std::uint64_t> hardest_of(const AnalysisResult& r) {
  if (r.goal && !r.goal->layers.empty()) return r.goal->layers.size() - 1;
  return std::nullopt;
}

std::optional<std::uint64_t> dead_ends_of(const AnalysisResult& r) {
  if (r.goal) return r.goal->dead_ends;
  return std::nullopt;
}

// The edge count as `count` writes it, or "n/a" where the engine did not count edges.
std::string edges_cell(const AnalysisResult& r, std::string count) { return r.gives(kViewEdges) ? count : "n/a"; }

// The directed columns' cells; `numbers` formats a count (plain or with commas).
template <class Numbers>
std::vector<std::string> directed_cells(const AnalysisResult& r, Numbers numbers) {
  const auto fact = [&](const char* view, const std::optional<std::uint64_t>& v) {
    return v ? numbers(*v) : goal_fact(r, view, std::nullopt);
  };
  // A goal the start never reaches has no shortest solution: an empty cell, not "n/a".
  const std::string shortest =
      r.goal ? (shortest_of(r) ? numbers(*shortest_of(r)) : std::string()) : fact(kViewDistanceToGoal, std::nullopt);
  return {r.directed ? "yes" : "no", shortest, fact(kViewDistanceToGoal, hardest_of(r)),
          fact(kViewDeadEnds, dead_ends_of(r))};
}

}  // namespace

bool has_directed_goal_layers(const AnalysisResult& r) { return r.directed && r.goal && r.goal->dead_ends; }

std::string goal_fact(const AnalysisResult& r, const char* view, const std::optional<std::uint64_t>& value) {
  if (value) return std::to_string(*value);
  return r.gives(view) ? "" : "n/a";
}

std::string goal_distribution_csv(const AnalysisResult& r) {
  std::string out = "distance_to_goal,count,cumulative\n";
  if (!r.goal) return out;
  std::uint64_t cumulative = 0;
  for (std::size_t d = 0; d < r.goal->layers.size(); ++d) {
    cumulative += r.goal->layers[d];
    out += std::to_string(d) + "," + std::to_string(r.goal->layers[d]) + "," + std::to_string(cumulative) + "\n";
  }
  if (r.goal->dead_ends) {
    out += "dead_ends," + std::to_string(*r.goal->dead_ends) + "," + std::to_string(cumulative + *r.goal->dead_ends) +
           "\n";
  }
  return out;
}

std::string hardest_csv(const AnalysisResult& r) {
  std::string out = "distance_to_goal,position\n";
  if (!r.goal || r.goal->layers.empty()) return out;
  const std::string d = std::to_string(r.goal->layers.size() - 1);
  for (const auto& p : r.table_positions ? r.table_positions->hardest : r.goal->hardest) {
    out += d + "," + csv_field(p) + "\n";
  }
  return out;
}

std::string directed_summary_text(const AnalysisResult& r) {
  std::ostringstream out;
  out << r.puzzle
      << ": directed (moves cannot always be undone): depths, eccentricity and farthest count from the start\n";
  if (r.goal) {
    const GoalView& g = *r.goal;
    out << r.puzzle << " goal " << g.goal << ": " << with_commas(g.reached) << " goal positions reached";
    if (g.shortest) {
      out << ", shortest solution " << *g.shortest << (*g.shortest == 1 ? " move" : " moves");
    } else {
      out << ", none from the start";
    }
    if (g.dead_ends) {
      std::uint64_t solvable = 0;
      for (auto n : g.layers) solvable += n;
      out << "; " << with_commas(solvable) << " positions can reach the goal, " << with_commas(*g.dead_ends)
          << " dead ends";
      if (!g.layers.empty()) {
        out << "; hardest solvable " << with_commas(g.hardest.size()) << " at " << g.layers.size() - 1
            << " moves to the goal; distance to the goal:";
        for (std::size_t d = 0; d < g.layers.size(); ++d) out << (d ? ", " : " ") << with_commas(g.layers[d]);
      }
    }
    out << "\n";
  }
  for (const auto& u : r.unavailable) out << r.puzzle << ": not available: " << u.view << " (" << u.reason << ")\n";
  return out.str();
}

std::string distribution_csv(const AnalysisResult& r) {
  // Up to symmetry, count is classes and positions what they stand for.
  const bool symmetric = !r.layer_positions.empty();
  std::string out = symmetric ? "depth,count,cumulative,positions,positions_cumulative\n" : "depth,count,cumulative\n";
  std::uint64_t cumulative = 0, positions = 0;
  for (std::size_t d = 0; d < r.layers.size(); ++d) {
    cumulative += r.layers[d];
    std::string row = std::to_string(d) + "," + std::to_string(r.layers[d]) + "," + std::to_string(cumulative);
    if (symmetric) {
      positions += r.layer_positions[d];
      row.append(",").append(std::to_string(r.layer_positions[d])).append(",").append(std::to_string(positions));
    }
    out.append(row).append("\n");
  }
  return out;
}

std::string partial_summary_text(const AnalysisResult& r) {
  if (r.complete) return "";
  std::ostringstream out;
  out << r.puzzle << ": NOT EXHAUSTED: the search stopped at depth " << r.eccentricity()
      << "; the counts are exact to there: ";
  for (std::size_t d = 0; d < r.layers.size(); ++d) out << (d ? ", " : "") << with_commas(r.layers[d]);
  out << "\n";
  return out.str();
}

std::string symmetry_summary_text(const AnalysisResult& r) {
  if (r.layer_positions.empty()) {
    return r.symmetry.empty() ? ""
                              : r.puzzle + ": symmetry: " + r.symmetry + ", so the positions are counted one by one\n";
  }
  std::ostringstream out;
  out << r.puzzle << ": counted up to " << (r.symmetry.empty() ? "the board's symmetries" : r.symmetry) << ": "
      << with_commas(r.states) << " classes stand for " << with_commas(r.positions())
      << " positions; positions by depth:";
  for (std::size_t d = 0; d < r.layer_positions.size(); ++d)
    out << (d ? ", " : " ") << with_commas(r.layer_positions[d]);
  out << "; the farthest positions are one a class\n";
  return out.str();
}

std::string farthest_csv(const AnalysisResult& r) {
  std::string out = "distance,position\n";
  // Room for every row at once (quotes aside): grown by doubling, the text would
  // pass through twice its size.
  std::size_t room = out.size();
  for (const auto& p : table_farthest(r)) room += p.size() + 8;
  out.reserve(room);
  const std::string distance = std::to_string(r.eccentricity()) + ",";
  for (const auto& p : table_farthest(r)) out += distance + csv_field(p) + "\n";
  return out;
}

std::string summary_csv(const std::vector<AnalysisResult>& results) {
  const bool directed = any_directed(results);
  const bool symmetric = any_symmetric(results);
  std::string out = "puzzle,start,states,";
  out += symmetric ? "positions,edges" : "edges";
  out += ",eccentricity,farthest,diameter,components,start_component";
  out += directed ? ",directed,shortest,hardest_to_goal,dead_ends\n" : "\n";
  for (const auto& r : results) {
    out += csv_field(r.puzzle) + "," + csv_field(table_start(r)) + "," + std::to_string(r.states) + "," +
           (symmetric ? std::to_string(r.positions()) + "," : "") + edges_cell(r, std::to_string(r.edges)) + "," +
           std::to_string(r.eccentricity()) + "," + std::to_string(r.farthest_count()) + "," +
           (r.diameter ? std::to_string(r.diameter->length) : "") + "," + components_text(r, " ") + "," +
           (r.components ? std::to_string(r.components->start) : "");
    if (directed) {
      for (const auto& cell : directed_cells(r, [](std::uint64_t n) { return std::to_string(n); })) out += "," + cell;
    }
    out += "\n";
  }
  return out;
}

std::string summary_markdown(const std::vector<AnalysisResult>& results) {
  const bool directed = any_directed(results);
  const bool symmetric = any_symmetric(results);
  // Up to symmetry, states are classes and positions what they stand for.
  std::string out = "| puzzle | start | states |";
  out += symmetric ? " positions | edges |" : " edges |";
  out += " eccentricity | farthest positions | diameter | components |";
  out += directed ? " directed | shortest solution | hardest to the goal | dead ends |\n" : "\n";
  out += symmetric ? "|---|---|--:|--:|--:|--:|--:|--:|---|" : "|---|---|--:|--:|--:|--:|--:|---|";
  out += directed ? "---|--:|--:|--:|\n" : "\n";
  for (const auto& r : results) {
    out += "| " + markdown_escape(r.puzzle) + " | " + markdown_code(r.start) + " | " + with_commas(r.states) + " | " +
           (symmetric ? with_commas(r.positions()) + " | " : "") + edges_cell(r, with_commas(r.edges)) + " | " +
           std::to_string(r.eccentricity()) + " | " + with_commas(r.farthest_count()) + " | " +
           (r.diameter ? std::to_string(r.diameter->length) : "") + " | " + components_text(r, " + ") + " |";
    if (directed) {
      for (const auto& cell : directed_cells(r, [](std::uint64_t n) { return with_commas(n); }))
        out += " " + cell + " |";
    }
    out += "\n";
  }
  return out;
}

}  // namespace statespace::reports
