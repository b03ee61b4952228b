// statespace analyze: runs the analysis pipeline on one or more puzzles and writes
// their reports. Every puzzle name, position, option and destination folder is
// checked before the first analysis starts, so bad input never leaves half a batch
// written.
#include "analysis/analyze.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>

#include "analysis/engines/cluster.hpp"
#include "analysis/pipeline/analyze_puzzle.hpp"
#include "analysis/pipeline/analyze_records.hpp"
#include "cli/args.hpp"
#include "cli/cli.hpp"
#include "core/lookup.hpp"
#include "core/text.hpp"
#include "distributed/enter_mpi_engine.hpp"
#include "puzzles/puzzle_file.hpp"
#include "puzzles/registry.hpp"
#include "puzzles/rush_rows.hpp"
#include "puzzles/tws_file.hpp"
#include "puzzles/xsb_file.hpp"
#include "reports/atomic_file.hpp"
#include "reports/puzzle_report.hpp"
#include "reports/tables.hpp"

namespace statespace::cli {

namespace {

struct Job {
  std::optional<AnyPuzzle> puzzle;  // none for `huge`
  std::string name;                 // the model's name: its report folder, and the duplicate check
  AnyPlan plan;                     // choose_engine()'s
  std::string argument;             // as given: a built-in name or a file, for `serve` to play it again
  // A .tws file past 512 bits (load_huge_tws), run on the sorted levels of records
  // apart from AnyPuzzle's models: no plan, no boards, no play view.
  std::optional<HugePieces> huge;
};

// A level of a collection: its job (an index into the jobs), or its refusal.
struct CollectionLevel {
  std::string file;
  int number = 0;
  std::string title;
  std::string refusal;
  std::optional<std::size_t> job;
  // A Rush Hour row's own numbers, to compare with ours.
  bool row = false;
  std::uint64_t moves = 0, cluster = 0;
};

// Both metrics' optimal solutions of a Sokoban level, by the model's own search.
struct Optima {
  std::string pushes = "-", moves = "-", boxes = "-", floor = "-";
};
template <class P>
Optima optima(const P& p) {
  Optima o;
  if constexpr (requires(P & q) { q.set_metric(SokobanMetric::kMoves); }) {
    P by_pushes = p, by_moves = p;
    by_pushes.set_metric(SokobanMetric::kPushes);
    by_moves.set_metric(SokobanMetric::kMoves);
    int pushes = 0, moves = 0, ignored = 0;
    if (by_pushes.lurd(by_pushes.placed_start(), &pushes, &ignored) &&
        by_moves.lurd(by_moves.placed_start(), &ignored, &moves)) {
      o.pushes = std::to_string(pushes);
      o.moves = std::to_string(moves);
    }
    o.boxes = std::to_string(p.boxes());
    o.floor = std::to_string(p.floor_cells());
  }
  return o;
}

// What our search found for a Rush Hour row.
struct RowCheck {
  std::optional<unsigned> moves;  // to the nearest goal; none when the exit is out of reach
  std::uint64_t cluster = 0;
  double seconds = 0;
};

struct Agreement {
  std::size_t agree = 0, rows = 0;
};

// The table of a file of Rush Hour rows, our moves and cluster against the row's,
// printed when `print`; the rows that agree counted either way.
Agreement print_rows(const std::vector<CollectionLevel>& levels, const std::vector<RowCheck>& checks, bool print) {
  std::ostringstream table;
  table << std::right << std::setw(6) << "row"
        << "  " << std::left << std::setw(38) << "board" << std::right << std::setw(7) << "moves" << std::setw(10)
        << "cluster" << std::setw(8) << "ours" << std::setw(10) << "ours" << std::setw(7) << "agree" << std::setw(10)
        << "seconds"
        << "\n";
  Agreement a;
  for (const auto& l : levels) {
    table << std::right << std::setw(6) << l.number << "  " << std::left << std::setw(38) << l.title.substr(0, 36);
    if (!l.job) {
      table << "refused: " << l.refusal.substr(l.refusal.find(": row ") + 2) << "\n";
      continue;
    }
    const RowCheck& r = checks[*l.job];
    // A plain value and a flag: GCC 12 takes an optional<unsigned> here for uninitialized.
    const bool solved = r.moves.has_value();
    const unsigned moves = solved ? *r.moves : 0;
    const bool same = solved && moves == l.moves && r.cluster == l.cluster;
    a.agree += same;
    ++a.rows;
    table << std::right << std::setw(7) << l.moves << std::setw(10) << with_commas(l.cluster) << std::setw(8)
          << (solved ? std::to_string(moves) : "-") << std::setw(10) << with_commas(r.cluster) << std::setw(7)
          << (same ? "yes" : "NO") << std::setw(10) << std::fixed << std::setprecision(3) << r.seconds << "\n";
  }
  if (print) std::cout << table.str();
  return a;
}

std::string agreement_line(const Agreement& a) {
  return with_commas(a.agree) + " of " + with_commas(a.rows) + " rows agree in moves and cluster size";
}

// The table of a collection: a row per level, refused ones included.
void print_collection(const std::vector<CollectionLevel>& levels, const std::vector<Job>& jobs,
                      const std::vector<AnalysisResult>& results) {
  if (!levels.empty() && levels.front().row) {
    std::vector<RowCheck> checks;
    for (const auto& r : results) checks.push_back({r.goal ? r.goal->shortest : std::nullopt, r.states, r.seconds});
    std::cout << agreement_line(print_rows(levels, checks, true)) << "\n";
    return;
  }
  std::size_t title_width = 7;
  for (const auto& l : levels) title_width = std::max(title_width, std::min<std::size_t>(l.title.size(), 40) + 2);
  std::ostringstream table;
  table << std::right << std::setw(5) << "level"
        << "  " << std::left << std::setw(int(title_width)) << "title" << std::right << std::setw(6) << "boxes"
        << std::setw(6) << "floor" << std::setw(13) << "positions" << std::setw(13) << "live" << std::setw(13) << "dead"
        << std::setw(8) << "pushes" << std::setw(8) << "moves" << std::setw(10) << "seconds"
        << "\n";
  for (const auto& l : levels) {
    table << std::right << std::setw(5) << l.number << "  " << std::left << std::setw(int(title_width))
          << l.title.substr(0, utf8_cut(l.title, 40));
    if (!l.job) {
      table << "refused: " << l.refusal.substr(l.refusal.find(": level ") + 2) << "\n";
      continue;
    }
    const AnalysisResult& r = results[*l.job];
    const Optima o = std::visit([](const auto& p) { return optima(p); }, *jobs[*l.job].puzzle);
    const std::uint64_t dead = r.goal && r.goal->dead_ends ? *r.goal->dead_ends : 0;
    table << std::right << std::setw(6) << o.boxes << std::setw(6) << o.floor << std::setw(13) << with_commas(r.states)
          << std::setw(13) << with_commas(r.states - dead) << std::setw(13) << with_commas(dead) << std::setw(8)
          << o.pushes << std::setw(8) << o.moves << std::setw(10) << std::fixed << std::setprecision(3) << r.seconds
          << "\n";
  }
  std::cout << table.str();
}

// The terminal table: the summary files' facts, counts with thousands separators.
void print_summary(const std::vector<AnalysisResult>& results, const std::filesystem::path& out) {
  const bool diameters = std::any_of(results.begin(), results.end(), [](const auto& r) { return r.diameter; });
  const bool components = std::any_of(results.begin(), results.end(), [](const auto& r) { return r.components; });
  std::size_t name_width = 8;
  // Counts as wide as they come (the 3x3x3's 100,803,036 positions at depth 7) keep
  // two blanks before them.
  std::size_t farthest_width = 10;
  for (const auto& r : results) {
    name_width = std::max(name_width, r.puzzle.size() + 2);
    farthest_width = std::max(farthest_width, with_commas(r.farthest_count()).size() + 2);
  }
  std::ostringstream table;
  table << std::left << std::setw(int(name_width)) << "puzzle" << std::right << std::setw(16) << "states"
        << std::setw(16) << "edges" << std::setw(14) << "eccentricity" << std::setw(int(farthest_width)) << "farthest";
  if (diameters) table << std::setw(10) << "diameter";
  table << std::setw(10) << "seconds";
  if (components) table << "  components";
  table << "\n";
  for (const auto& r : results) {
    table << std::left << std::setw(int(name_width)) << r.puzzle << std::right << std::setw(16) << with_commas(r.states)
          << std::setw(16) << (r.gives(kViewEdges) ? with_commas(r.edges) : "n/a") << std::setw(14) << r.eccentricity()
          << std::setw(int(farthest_width)) << with_commas(r.farthest_count());
    if (diameters) table << std::setw(10) << (r.diameter ? std::to_string(r.diameter->length) : "");
    table << std::setw(10) << std::fixed << std::setprecision(3) << r.seconds;
    // The count, not every size: Klotski's placements fall into 898 components. The
    // sizes are in the report files.
    if (components && r.components) {
      const auto& c = *r.components;
      table << "  " << with_commas(c.sizes.size()) << " of " << with_commas(c.positions) << " positions (largest "
            << with_commas(c.sizes.empty() ? 0 : c.sizes.front()) << "; start's " << with_commas(c.start) << ")";
    }
    table << "\n";
  }
  std::cout << table.str();
  for (const auto& r : results) {
    std::cout << reports::symmetry_summary_text(r);
    std::cout << reports::partial_summary_text(r);
    if (r.directed) {
      std::cout << reports::directed_summary_text(r);
      continue;
    }
    if (!r.goal) continue;
    std::cout << r.puzzle << " goal " << r.goal->goal << ": ";
    if (!r.goal->shortest) {
      std::cout << "not reachable from the start\n";
      continue;
    }
    std::cout << with_commas(r.goal->reached) << " goal positions reached, shortest solution " << *r.goal->shortest
              << " moves; hardest positions " << r.goal->hardest.size() << " at " << r.goal->layers.size() - 1
              << " moves from any goal\n";
  }
  std::cout << "reports written to " << out.string() << "/\n";
}

// What the model predicted for --components (Wilson's theorem for graphs), and
// whether the count agrees.
void print_prediction(const std::string& name, const Components& c, const ComponentPrediction& predicted) {
  std::cout << name << ": " << c.sizes.size() << " components of " << c.positions << " positions; " << predicted.reason;
  if (predicted.components) {
    std::cout << (predicted.components == c.sizes.size() ? ": agrees" : ": DOES NOT AGREE with the count");
  }
  std::cout << "\n";
}

// The puzzle file format, after the options of `analyze --help`: the blocks kind in
// full, the other kinds by name (docs/puzzle-files.md).
void print_puzzle_file_help() {
  std::cout << R"(
Puzzle files: a PUZZLE ending in .toml is read as a file (TOML), one ending in .tws
as a twisty puzzle in twsearch's format (docs/puzzle-files.md; --moves and --metric
choose its moves). Every TOML file has
  name  = "klotski"                 the puzzle's name: its report folder
  title = "Klotski, standard start" optional, one line (statespace list DIR shows it)
  kind  = "blocks"                  one of the kinds below
kind = "blocks", sliding blocks: pieces of any shape on a rectangular board with walls.
  start  required. The board as a picture: one character per cell, rows on lines of
         their own or separated by '/', cells side by side ("BAAC") or separated by
         spaces ("B A A C"). A letter or digit is a cell of the piece of that name
         (every cell of a piece carries its character; the cells touch side by side,
         4-connected; pieces never turn); '.' or '_' an empty cell; '#' a wall. At most
         48 cells.
  same   optional. Groups of interchangeable pieces, one shape per group:
         same = ["BCDE", "GHIJ"]. Positions that differ only by swapping pieces of a
         group are one position, printed with the group's letters in reading order.
         Pieces outside `same` are distinct even when their shapes agree.
  moves  optional. "step" (default): one piece moves one cell; "slide": one piece
         moves any distance in one straight line; "path": one piece moves anywhere it
         reaches by steps while the others stay. --moves overrides it.
  goal   optional. A partial picture of the start's size: '*' any content, '.' or '_'
         an empty cell, '#' a wall of the start, a piece's letter: that piece (or one
         of its group) stands exactly there. analyze then reports the shortest
         solution and the goal-distance view; solve stops at the nearest goal.
  axis   optional. Pieces that move along one axis only (Rush Hour cars):
         axis = { A = "horizontal", B = "vertical" }, or the same as an [axis] table.
  Example (examples/puzzles/klotski.toml: 25,955 positions, 116 step moves):
    name  = "klotski"
    title = "Klotski (Huarong Dao), standard start"
    kind  = "blocks"
    start = """
    B A A C
    B A A C
    D F F E
    D G H E
    I . . J
    """
    same  = ["BCDE", "GHIJ"]
    moves = "step"
    goal  = """
    * * * *
    * * * *
    * * * *
    * A A *
    * A A *
    """
  A broken file is one line, FILE:LINE:COLUMN: what is wrong (what was expected),
  exit code 2, before any work starts.
)";
  for (const auto& k : puzzle_kinds()) {
    if (k.extension == ".toml" && k.name != "blocks") {
      std::cout << "kind = \"" << k.name << "\": " << k.description
                << "; keys and an example in docs/puzzle-files.md.\n";
    }
  }
}

// `analyze ROWS --check`: every row of files of Rush Hour rows, our fewest moves and
// cluster size against the row's, and no report. Each row's cluster is small (at
// most a few hundred thousand positions), so the rows, not the positions, are
// spread over the threads: one search a task, on packed words, the table in file
// order whatever the threads. Every row is read and loaded before the first search.
// Exit code 1 when a row disagrees, else 2 when a row was refused (the others still
// checked).
int check_rows(const std::vector<std::string>& names, bool quiet, const Context& context) {
  std::vector<CollectionLevel> levels;
  std::vector<Blocks> models;
  for (const auto& name : names) {
    std::error_code ec;
    const std::string text = std::filesystem::is_regular_file(name, ec) ? read_collection_text(name) : "";
    if (!looks_like_rush_rows(text)) {
      throw UsageError("analyze --check: " + quote_input(name) +
                       " is not a file of Rush Hour rows (expected lines MOVES BOARD CLUSTER, e.g. 51 "
                       "IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 4780)");
    }
    for (const auto& row : read_rush_rows(name, text)) {
      std::string board = row.board;
      std::replace(board.begin(), board.end(), '.', 'o');
      levels.push_back({name, row.number, board, row.error, std::nullopt, true, row.moves, row.cluster});
      if (!row.error.empty()) {
        std::cerr << "statespace: " << row.error << "\n";
        continue;
      }
      levels.back().job = models.size();
      models.push_back(rush_row_model(name, row));
    }
  }
  const auto threads = apply_threads(context);
  const auto started = std::chrono::steady_clock::now();
  std::vector<RowCheck> checks(models.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, models.size(), 1), [&](const auto& range) {
    for (std::size_t i = range.begin(); i != range.end(); ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      const Cluster c = cluster_of(models[i], models[i].goal());
      checks[i] = {c.shortest, c.positions,
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()};
    }
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const Agreement a = print_rows(levels, checks, !quiet);
  std::ostringstream last;
  last << agreement_line(a) << " (" << std::fixed << std::setprecision(3) << seconds << " s, "
       << threads_in_use(context) << (threads_in_use(context) == 1 ? " thread" : " threads") << ")\n";
  std::cout << last.str();
  if (a.agree < a.rows) return 1;
  return a.rows < levels.size() ? 2 : 0;
}

}  // namespace

int run_analyze(const Args& args, Context& context) {
  std::vector<std::string> names;
  std::string out = "reports-out", lookup, moves, metric, symmetry;
  std::string engine = "auto", dot_limit = "300", all_pairs_limit = "20000", checkpoint_every, max_depth;
  std::string comparisons_limit(kComparisonsLimitDefault);
  MemoryOption memory;
  AnalyzeOptions o;
  bool all = false, quiet = false, check = false;
  po::options_description options("Options");
  options.add_options()("puzzle", po::value(&names)->multitoken()->value_name("PUZZLE"),
                        "puzzles to analyse (see statespace list)")(
      "all", po::bool_switch(&all), "analyse every seed puzzle: nooff hex6 oshidori tiles:3x3")(
      "out", po::value(&out)->default_value(out)->value_name("DIR"), "report folder; each puzzle gets OUT/<puzzle>/")(
      "from", po::value(&o.from)->value_name("POSITION"),
      "start the BFS from this position (default: the goal); one puzzle only")(
      "goal", po::value(&o.goal)->value_name("POSITION"),
      "start the BFS from this goal position instead of the puzzle's own; one puzzle, not with --from")(
      "all-pairs", po::bool_switch(&o.all_pairs),
      "also compute the true diameter (max eccentricity over all positions)")(
      "all-pairs-limit", po::value(&all_pairs_limit)->default_value(all_pairs_limit)->value_name("N"),
      "refuse --all-pairs by brute force above this many positions")("components", po::bool_switch(&o.components),
                                                                     "connected components of the whole rank space")(
      "dot-limit", po::value(&dot_limit)->default_value(dot_limit)->value_name("N"),
      "write graph.dot only up to this many positions (larger pictures are unreadable; raise it for the whole "
      "graph)")(
      "lookup", po::value(&lookup)->default_value(lookup)->value_name("NAME"),
      ("visited-set strategy for enumeration: " + lookup_names() + " (linear ones also count comparisons)").c_str())(
      "comparisons-limit", po::value(&comparisons_limit)->default_value(comparisons_limit)->value_name("N"),
      "refuse a linear --lookup that may compare states more often than this")(
      "engine", po::value(&engine)->default_value(engine)->value_name("NAME"), engine_help().c_str());
  memory.add_to(options);
  options.add_options()("max-depth", po::value(&max_depth)->value_name("D"),
                        "the first levels of a space too large to finish: stop with the positions at distance D "
                        "(sorted-levels engine); the reports say the space was not exhausted")(
      "partial", po::bool_switch(&o.partial),
      "sorted-levels engine: when the next level would pass --memory, stop and report the levels found (as "
      "--max-depth does) rather than refuse")(
      "checkpoint", po::value(&o.checkpoint)->value_name("DIR"),
      "implicit and ranked engines: save the BFS state in DIR after each level")(
      "checkpoint-every", po::value(&checkpoint_every)->value_name("SECONDS"),
      "with --checkpoint: only when this long has passed since the last one (default 0: every level)")(
      "resume", po::value(&o.resume)->value_name("DIR"),
      "implicit and ranked engines: continue the run checkpointed in DIR")(
      "moves", po::value(&moves)->value_name("MOVES"),
      "sliding-block files: step, slide or path, overriding the file's moves; .tws files: the moves to use, "
      "e.g. U,F,R")("metric", po::value(&metric)->value_name("METRIC"),
                    ".tws files: all-powers (default: R, R2, R' one move each), quarter (R, R') or given (the moves "
                    "as written; directed when not closed under inverses); Sokoban levels: pushes (default) or "
                    "moves")("symmetry", po::value(&symmetry)->value_name("GROUP"),
                             ".tws files: rotations (count positions up to the rotations of the whole puzzle the "
                             "file gives, reporting classes and positions) or none (default)")(
      "quiet,q", po::bool_switch(&quiet), "no progress lines and no summary table")(
      "check", po::bool_switch(&check),
      "files of Rush Hour rows: check every row's moves and cluster size against our search, rows in parallel, "
      "no reports written; the table and one line of totals; exit code 1 when a row disagrees")(
      "table", po::bool_switch(&o.table),
      "also write the distance to the goal of every position reached into the report folder, for statespace "
      "query and solve (docs/tables.md)");
  po::positional_options_description positional;
  positional.add("puzzle", -1);
  po::variables_map vm;
  if (!parse_command(command("analyze"), options, positional, args, vm, context)) {
    if (vm.count("help")) print_puzzle_file_help();
    return 0;
  }

  if (check) {
    // Only --threads and --quiet mean something to a check: anything else given is
    // refused rather than silently ignored.
    for (const auto& [option, value] : vm) {
      if (!value.defaulted() && option != "puzzle" && option != "check" && option != "quiet" && option != "threads") {
        throw UsageError("analyze: --check writes no report and runs no analysis option; --" + option +
                         " does not go with it");
      }
    }
    if (names.empty()) throw UsageError("analyze: --check needs a file of Rush Hour rows");
    return check_rows(names, quiet, context);
  }

  // Options first, each on its own.
  require_nonempty("--out", out, "a folder");
  for (const char* option : {"from", "goal"}) {
    if (vm.count(option)) require_nonempty(std::string("--") + option, vm[option].as<std::string>(), "a position");
  }
  for (const char* option : {"checkpoint", "resume"}) {
    if (vm.count(option)) require_nonempty(std::string("--") + option, vm[option].as<std::string>(), "a folder");
  }
  constexpr auto kMax = std::numeric_limits<std::uint64_t>::max();
  o.dot_limit = parse_whole("--dot-limit", dot_limit, 0, kMax);
  o.all_pairs_limit = parse_whole("--all-pairs-limit", all_pairs_limit, 0, kMax);
  const std::uint64_t most_comparisons = parse_whole("--comparisons-limit", comparisons_limit, 0, kMax);
  if (vm.count("checkpoint-every")) {
    if (o.checkpoint.empty() && o.resume.empty()) {
      throw UsageError("analyze: --checkpoint-every needs --checkpoint DIR (or --resume DIR) to write to");
    }
    o.checkpoint_every = parse_seconds("--checkpoint-every", checkpoint_every);
  }
  if (vm.count("max-depth")) o.max_depth = unsigned(parse_whole("--max-depth", max_depth, 0, 1'000'000));
  if (!lookup.empty()) o.lookup = parse_lookup(lookup);
  o.engine = parse_engine(engine);
  // Only an explicit --engine mpi runs the MPI engine (auto never plans it): the
  // binary without it hands the whole command to statespace-mpi here, before a puzzle
  // is read or anything is written.
  if (o.engine == Engine::mpi) enter_mpi_engine();
  o.memory = memory.budget();
  o.progress = !quiet;
  o.threads = threads_in_use(context);
  if (!o.from.empty() && !o.goal.empty()) {
    throw UsageError("analyze: --from and --goal both set the BFS start; give one of them");
  }

  // Then the puzzles, their positions and engines, and duplicates.
  if (all) {
    const auto seeds = seed_puzzles();
    names.insert(names.end(), seeds.begin(), seeds.end());
  }
  if (names.empty()) throw UsageError("analyze: name at least one puzzle, or --all (see statespace list)");
  if ((!o.from.empty() || !o.goal.empty() || !o.checkpoint.empty() || !o.resume.empty()) && names.size() != 1) {
    throw UsageError("analyze: --from, --goal, --checkpoint and --resume need exactly one puzzle, got " +
                     std::to_string(names.size()));
  }
  // A collection of several levels is every level: its refused ones are listed now,
  // its good ones run as FILE:N.
  std::vector<CollectionLevel> collection;
  std::vector<std::string> expanded;
  for (const auto& name : names) {
    const bool xsb = name.ends_with(".xsb") || name.ends_with(".sok") || name.ends_with(".txt");
    std::error_code ec;
    const bool other = !xsb && name.find(':') == std::string::npos && !name.ends_with(".toml") &&
                       !name.ends_with(".tws") && std::filesystem::is_regular_file(name, ec);
    const std::string text = xsb || other ? read_collection_text(name) : "";
    if ((xsb || other) && looks_like_rush_rows(text)) {
      const auto rows = read_rush_rows(name, text);
      if (rows.size() < 2) {
        expanded.push_back(name);
        continue;
      }
      for (const auto& row : rows) {
        std::string board = row.board;
        std::replace(board.begin(), board.end(), '.', 'o');
        collection.push_back({name, row.number, board, row.error, std::nullopt, true, row.moves, row.cluster});
        if (!row.error.empty()) {
          std::cerr << "statespace: " << row.error << "\n";
          continue;
        }
        collection.back().job = expanded.size();
        expanded.push_back(name + ":" + std::to_string(row.number));
      }
      continue;
    }
    const auto levels = xsb ? read_xsb(name, text) : std::vector<XsbEntry>{};
    if (levels.size() < 2) {
      expanded.push_back(name);
      continue;
    }
    for (const auto& level : levels) {
      collection.push_back({name, level.number, level.title, level.error, std::nullopt});
      if (!level.level) {
        std::cerr << "statespace: " << level.error << "\n";
        continue;
      }
      collection.back().job = expanded.size();
      expanded.push_back(name + ":" + std::to_string(level.number));
    }
  }
  names = expanded;
  const bool refused_levels =
      std::any_of(collection.begin(), collection.end(), [](const CollectionLevel& l) { return !l.job; });
  std::vector<Job> jobs;
  for (const auto& name : names) {
    Job job{std::nullopt, {}, {}, name, name.ends_with(".tws") ? load_huge_tws(name) : std::nullopt};
    if (job.huge) {
      apply_piece_move_options(*job.huge, moves, metric);
      apply_symmetry_to(*job.huge, symmetry);
      job.name = job.huge->name();
    } else {
      job.puzzle = make_puzzle(name);
      apply_move_options(*job.puzzle, moves, metric);
      apply_symmetry_option(*job.puzzle, symmetry);
      apply_start_option(*job.puzzle, o.from);
      job.name = std::visit([](const auto& p) { return p.name(); }, *job.puzzle);
    }
    for (const auto& earlier : jobs) {
      if (earlier.name == job.name) {
        std::string why = "analyze: " + quote_input(job.name) + " is named twice";
        if (all) {
          why += " (--all includes";
          for (const auto& seed : seed_puzzles()) why += " " + seed;
          why += ")";
        }
        throw UsageError(why + "; name each puzzle once");
      }
    }
    if (job.huge) {
      plan_huge_pieces(*job.huge, o);
      jobs.push_back(std::move(job));
      continue;
    }
    job.plan = plan_puzzle(*job.puzzle, o);
    std::visit(
        [&](const auto& p) {
          check_comparisons(p, o.lookup.value_or(default_lookup<std::decay_t<decltype(p)>>()), most_comparisons);
        },
        *job.puzzle);
    jobs.push_back(std::move(job));
  }
  const bool mpi = std::any_of(jobs.begin(), jobs.end(), [](const Job& j) {
    return !j.huge && std::visit([](const auto& plan) { return plan.engine == Engine::mpi; }, j.plan);
  });

  // Last, every destination, so that an unwritable one is found before any work.
  // A puzzle's folder is not created here: it appears whole when its bundle is done.
  std::vector<reports::Destination> folders = {{out, "--out"}};
  for (const auto& job : jobs)
    reports::check_folder_destination({std::filesystem::path(out) / reports::folder_name(job.name), "--out"});
  if (!o.checkpoint.empty()) folders.push_back({o.checkpoint, "--checkpoint"});
  // Under MPI every process runs this; rank 0 alone writes.
  const auto created = mpi ? std::vector<std::filesystem::path>{} : reports::prepare_folders(folders);

  const auto threads = apply_threads(context);
  std::vector<AnalysisResult> results;
  // A refusal only the engine can make (an MPI process's share of --memory) leaves
  // nothing behind when it comes before the first report.
  struct UndoFolders {
    const std::vector<std::filesystem::path>& created;
    const std::vector<AnalysisResult>& results;
    ~UndoFolders() {
      if (!results.empty() || std::uncaught_exceptions() == 0) return;
      std::error_code ec;
      for (const auto& f : created) std::filesystem::remove_all(f, ec);
    }
  } undo{created, results};
  // A collection's levels are many small runs: one progress line each, not the
  // engine's lines of every level.
  const bool level_lines = !collection.empty() && o.progress;
  if (level_lines) o.progress = false;
  for (const auto& job : jobs) {
    Progress clock(job.name, false);
    const bool per_run_peak = reset_peak_rss();
    PuzzleRun run;
    if (job.huge) {
      run.result = analyze_huge_pieces(*job.huge, o);
    } else {
      run = analyze_puzzle(*job.puzzle, o, job.plan);
    }
    if (!run.writes_reports) continue;  // rank 0 writes them
    run.result.threads = o.threads;
    run.result.seconds = clock.seconds();
    run.result.peak_bytes = peak_rss_bytes();
    run.result.peak_per_run = per_run_peak;
    std::optional<reports::GraphView> view;
    if (run.graph)
      view = reports::GraphView{&run.space_graph, std::move(run.labels), &run.distance, run.result.directed};
    if (run.result.goal && !run.result.goal->shortest) {
      std::cerr << "statespace: " << job.name << ": the goal " << run.result.goal->goal
                << " is not reachable from the start (analysed anyway)\n";
    }
    if (job.huge) {
      // Positions in their notation; no play view (serve loads AnyPuzzle's models).
      reports::publish_puzzle_report(out, run.result, view, seed_puzzles(), nullptr);
    } else {
      auto boards = std::visit([&](const auto& p) { return reports::draw_bundle_boards(p, run.result); }, *job.puzzle);
      reports::set_play_source(boards, job.argument, moves, metric, symmetry);
      reports::publish_puzzle_report(out, run.result, view, seed_puzzles(), &boards);
      run.result.table.reset();  // written: its memory goes before the next puzzle's run
      std::visit(
          [&](const auto& p) {
            if constexpr (ComponentPredictingPuzzle<std::decay_t<decltype(p)>>) {
              if (run.result.components && !quiet)
                print_prediction(p.name(), *run.result.components, p.predicted_components());
            }
          },
          *job.puzzle);
    }
    if (level_lines) {
      std::ostringstream line;
      line << "statespace: [" << results.size() + 1 << "/" << jobs.size() << "] " << job.argument << " (" << job.name
           << "): " << with_commas(run.result.states) << " positions, " << std::fixed << std::setprecision(3)
           << run.result.seconds << " s\n";
      std::cerr << line.str();
    }
    results.push_back(std::move(run.result));
  }
  if (results.empty()) return refused_levels ? 2 : 0;  // an MPI rank other than 0, or no good level
  if (quiet) return refused_levels ? 2 : 0;
  if (!collection.empty()) {
    print_collection(collection, jobs, results);
  } else {
    print_summary(results, out);
  }
  return refused_levels ? 2 : 0;
}

}  // namespace statespace::cli
