// statespace query: one position's distance to the goal and every move's, from a
// distance table that analyze --table wrote (docs/tables.md). The table is mapped,
// its header checked against the puzzle, and a handful of entries read: no search.
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/pipeline/pipeline_instances.hpp"
#include "analysis/tables/table_probe.hpp"
#include "cli/args.hpp"
#include "cli/cli.hpp"
#include "cli/table_args.hpp"
#include "core/notation.hpp"
#include "core/text.hpp"
#include "puzzles/puzzle_file.hpp"
#include "puzzles/registry.hpp"

namespace statespace::cli {

namespace {

// n moves, or n of the puzzle's own unit (Sokoban's pushes).
template <Puzzle P>
std::string moves_text(const P& p, std::uint64_t n) {
  if constexpr (MoveUnitPuzzle<P>) {
    return count_of(n, p.move_unit(false), p.move_unit(true));
  }
  return count_of(n, "move", "moves");
}

template <Puzzle P>
std::string entry_text(const P& p, const TableEntry& e) {
  if (e.standing == Standing::distance) return moves_text(p, e.distance) + " to the goal";
  if (e.standing == Standing::dead) return "dead (no goal can be reached from it)";
  return "not reachable in this table";
}

struct QueryRequest {
  std::string position;
  bool json = false;
  std::optional<std::uint64_t> line;
};

template <Puzzle P>
int query_model(const P& p, bool from_file, const GoalTableFile& table, const QueryRequest& q) {
  const TableProbe<P> probe(p, table);
  typename P::State s = p.goal();
  if (!q.position.empty()) {
    s = p.parse(q.position);
  } else if (from_file) {
    if constexpr (requires { p.start(); }) s = p.start();
  }
  const TableEntry here = probe.entry(s);
  const auto moves = probe.moves(s, here);
  const auto name_of = [&](const typename P::State& from, const typename P::State& to) -> std::string {
    if constexpr (MoveNamingPuzzle<P>) return p.move_name(from, to);
    return p.format(to);
  };
  std::vector<typename P::State> line;
  if (q.line) line = probe.line(s, *q.line);
  if (q.json) {
    nlohmann::ordered_json out;
    out["puzzle"] = p.name();
    out["position"] = p.format(s);
    out["standing"] = standing_name(here.standing);
    if (here.standing == Standing::distance) out["distance"] = here.distance;
    out["moves"] = nlohmann::ordered_json::array();
    for (const auto& m : moves) {
      nlohmann::ordered_json move;
      move["move"] = name_of(s, m.to);
      move["position"] = p.format(m.to);
      move["standing"] = standing_name(m.entry.standing);
      if (m.entry.standing == Standing::distance) move["distance"] = m.entry.distance;
      move["change"] = change_name(here, m.entry);
      out["moves"].push_back(std::move(move));
    }
    if (q.line) {
      out["line"] = nlohmann::ordered_json::array();
      for (std::size_t i = 1; i < line.size(); ++i) {
        out["line"].push_back({{"move", name_of(line[i - 1], line[i])}, {"position", p.format(line[i])}});
      }
    }
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  std::cout << p.name() << ": " << p.format(s) << ": " << entry_text(p, here) << "\n";
  for (const auto& m : moves) {
    const std::string how = change_name(here, m.entry);
    std::cout << "  " << name_of(s, m.to);
    if constexpr (MoveNamingPuzzle<P>) std::cout << " -> " << p.format(m.to);
    std::cout << ": "
              << (m.entry.standing == Standing::distance ? std::to_string(m.entry.distance) : entry_text(p, m.entry))
              << (how.empty() || m.entry.standing != Standing::distance ? "" : " (" + how + ")") << "\n";
  }
  if (q.line) {
    std::cout << "line of " << moves_text(p, line.size() - 1) << ":\n";
    for (std::size_t i = 1; i < line.size(); ++i) {
      std::cout << "  " << i << ". ";
      if constexpr (MoveNamingPuzzle<P>) std::cout << p.move_name(line[i - 1], line[i]) << " -> ";
      std::cout << p.format(line[i]) << "\n";
    }
  }
  return 0;
}

}  // namespace

int run_query(const Args& args, Context& context) {
  std::string name, out = "reports-out", table_file, format = "text", line, moves, metric, symmetry;
  QueryRequest q;
  po::options_description options("Options");
  options.add_options()("puzzle", po::value(&name)->required()->value_name("PUZZLE"),
                        "the puzzle (see statespace list)")(
      "position", po::value(&q.position)->value_name("POSITION"),
      "the position, quoted (default: a puzzle file's start, else the goal)")(
      "table", po::value(&table_file)->value_name("FILE"),
      "the distance table (default: OUT/<puzzle>/goal-distances.table, as analyze --table writes it)")(
      "out", po::value(&out)->default_value(out)->value_name("DIR"), "the report folder analyze --table wrote to")(
      "format", po::value(&format)->default_value(format)->value_name("FORMAT"), "text or json")(
      "line", po::value(&line)->value_name("N"), "also walk N best moves from the position and print them")(
      "moves", po::value(&moves)->value_name("MOVES"), "as analyze's --moves")(
      "metric", po::value(&metric)->value_name("METRIC"), "as analyze's --metric")(
      "symmetry", po::value(&symmetry)->value_name("GROUP"), "as analyze's --symmetry (a table of classes)");
  po::positional_options_description positional;
  positional.add("puzzle", 1).add("position", 1);
  po::variables_map vm;
  if (!parse_command(command("query"), options, positional, args, vm, context)) return 0;
  if (format != "text" && format != "json") {
    throw ParseError("query: unknown --format " + quote_input(format) + " (expected text or json)");
  }
  q.json = format == "json";
  if (vm.count("line")) q.line = parse_whole("--line", line, 0, std::numeric_limits<std::uint64_t>::max());
  require_nonempty("--out", out, "a folder");
  if (vm.count("table")) require_nonempty("--table", table_file, "a file");
  AnyPuzzle puzzle = make_puzzle(name);
  apply_move_options(puzzle, moves, metric);
  apply_symmetry_option(puzzle, symmetry);
  const std::string model = std::visit([](const auto& p) { return p.name(); }, puzzle);
  const std::filesystem::path path =
      table_file.empty() ? bundle_table_path(out, model) : std::filesystem::path(table_file);
  std::error_code ec;
  if (table_file.empty() && !std::filesystem::exists(path, ec)) {
    throw UsageError("query: no distance table for " + model + " at " + path.string() +
                     " (write one with statespace analyze " + name + " --table, or pass --table FILE)");
  }
  const auto threads = apply_threads(context);
  const GoalTableFile table = GoalTableFile::open(path);
  const bool from_file = is_puzzle_file_name(name);
  return std::visit([&](const auto& p) { return query_model(p, from_file, table, q); }, puzzle);
}

}  // namespace statespace::cli
