#include "cli/optimal.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <numeric>
#include <optional>
#include <sstream>

#include "analysis/generate_plan.hpp"
#include "analysis/runtime/memory.hpp"
#include "analysis/solvers/ida.hpp"
#include "analysis/solvers/pdb.hpp"
#include "analysis/solvers/solve.hpp"
#include "cli/args.hpp"
#include "core/errors.hpp"
#include "puzzles/registry.hpp"

namespace statespace::cli {

namespace {

constexpr int kMaxDistance4x4 = 80;  // the 15-puzzle's diameter (Brüngger et al. 1999; Korf 2008)

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string megabytes(std::uint64_t bytes) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(1) << double(bytes) / 1e6 << " MB";
  return out.str();
}

}  // namespace

std::filesystem::path pdb_dir(const PdbOptions& o) {
  return o.dir.empty() ? default_pdb_dir() : std::filesystem::path(o.dir);
}

// The partition plan_partition() chooses, with one line on stderr naming it and what a
// larger budget would buy when it is not the largest.
PdbHeuristic heuristic_for(const Tiles& t, const PdbOptions& o) {
  const MemoryBudget budget = o.memory.empty() ? MemoryBudget() : MemoryBudget(parse_bytes(o.memory));
  const PartitionPlan plan = plan_partition(t, o.partition, budget);
  if (plan.larger) {
    std::cerr << "statespace: " << t.name() << ": using the " << plan.partition.name << " pattern databases (--memory "
              << megabytes(budget.bytes()) << "); --memory " << megabytes(partition_build_bytes(t, *plan.larger))
              << " would allow " << plan.larger->name << ", whose larger databases prune far more nodes\n";
  }
  const Partition& p = plan.partition;
  PdbHeuristic h = load_heuristic(t, p, pdb_dir(o), std::cerr);
  if (h.built) {
    std::cerr << "statespace: " << t.name() << ": pattern databases " << p.name << " built in " << std::fixed
              << std::setprecision(1) << h.seconds << " s and cached in " << pdb_dir(o).string() << "\n";
  }
  return h;
}

namespace {

std::string describe(const PdbHeuristic& h) {
  return "IDA* over the " + h.partition.name + " pattern databases" +
         (h.heuristic->reflects() ? " with reflection" : "");
}

// An upper bound on the positions at distance lo..hi: the walks of that length from
// the goal that never undo the previous move (an optimal path never does).
double walks_bound(const Tiles& t, int lo, int hi) {
  const int n = t.cells();
  // walks[from][to]: walks whose last move took the blank from `from` to `to`.
  std::vector<double> walks(std::size_t(n * n), 0.0), next(walks.size());
  double total = lo == 0 ? 1.0 : 0.0;
  const int goal = n - 1;
  for (int k = 0; k < t.degree(goal); ++k) walks[std::size_t(goal * n + t.neighbour(goal, k))] = 1.0;
  for (int d = 1; d <= hi; ++d) {
    if (d >= lo) total += std::accumulate(walks.begin(), walks.end(), 0.0);
    std::fill(next.begin(), next.end(), 0.0);
    for (int from = 0; from < n; ++from) {
      for (int to = 0; to < n; ++to) {
        const double w = walks[std::size_t(from * n + to)];
        if (w == 0) continue;
        for (int k = 0; k < t.degree(to); ++k) {
          if (t.neighbour(to, k) != from) next[std::size_t(to * n + t.neighbour(to, k))] += w;
        }
      }
    }
    walks.swap(next);
  }
  return total;
}

// The board row by row, one line per row, as the seeds print their steps.
std::string board_rows(const Tiles& t, Board b) {
  std::string out;
  for (int c = 0; c < t.cells(); ++c) {
    if (c) out += c % t.cols() ? ' ' : '\n';
    out += b.at(c) ? std::to_string(b.at(c)) : std::string("_");
  }
  return out;
}

// Positions of a batch file, all parsed and checked before any is solved: one per
// line; blank lines and # comments skipped; on a line with commas the first field
// (so generate's csv works as input), a header line "position,..." skipped.
std::vector<Board> read_batch(const Tiles& t, const std::string& file) {
  std::ifstream in(file);
  if (!in) throw UsageError("solve: cannot read --batch file '" + file + "' (expected a readable file of positions)");
  std::vector<Board> out;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    std::string text = line.substr(0, line.find(','));
    const auto first = text.find_first_not_of(" \t\r");
    if (first == std::string::npos || text[first] == '#' || text.compare(first, 8, "position") == 0) continue;
    const std::string where = file + ":" + std::to_string(number) + ":" + std::to_string(first + 1) + ": ";
    Board b;
    try {
      b = t.parse(text);
    } catch (const ParseError& e) {
      throw ParseError(where + e.what());
    }
    if (!t.same_class(b, t.goal())) throw UsageError(where + unsolvable_reason(t, b, t.goal(), 0));
    out.push_back(b);
  }
  if (out.empty()) {
    throw UsageError("solve: --batch file '" + file +
                     "' holds no position (expected one position a line, in the puzzle's notation)");
  }
  return out;
}

}  // namespace

int solve_optimal(const OptimalSolveOptions& o, Context& context) {
  const Tiles t = tiles_named(o.puzzle, "solve --method ida");
  if (o.format != "boards" && o.format != "csv") {
    throw ParseError("solve: unknown --format '" + o.format + "' (expected boards or csv)");
  }
  std::vector<Board> problems;
  if (!o.batch.empty()) {
    if (!o.position.empty()) throw UsageError("solve: give a POSITION or --batch FILE, not both");
    problems = read_batch(t, o.batch);
  } else {
    if (o.position.empty())
      throw ParseError("solve: missing the position (statespace solve PUZZLE POSITION, or --batch FILE)");
    const Board b = t.parse(o.position);
    if (!t.same_class(b, t.goal())) throw UsageError(unsolvable_reason(t, b, t.goal(), 0));
    problems.push_back(b);
  }
  const auto threads = apply_threads(context);
  const PdbHeuristic h = heuristic_for(t, o.pdb);
  const bool csv = o.format == "csv";
  if (!o.batch.empty() && csv) std::cout << "position,length,seconds,nodes\n";
  const auto print = [&](std::size_t i, const IdaResult& r, double seconds) {
    if (!o.batch.empty() && csv) {
      std::cout << t.format(problems[i]) << "," << r.length() << "," << std::fixed << std::setprecision(3) << seconds
                << "," << r.nodes << "\n"
                << std::flush;
      return;
    }
    if (csv) {
      std::cout << "step,position\n";
      for (std::size_t s = 0; s < r.path.size(); ++s) std::cout << s << "," << t.format(r.path[s]) << "\n";
      return;
    }
    if (i) std::cout << "\n";
    std::cout << t.name() << ": " << r.length() << (r.length() == 1 ? " move" : " moves") << " from "
              << t.format(problems[i]) << " to " << t.format(t.goal()) << " (optimal: " << describe(h) << ", "
              << r.nodes << " nodes)\n";
    for (std::size_t s = 0; s < r.path.size(); ++s) {
      std::cout << "\nstep " << s << "\n" << board_rows(t, r.path[s]) << "\n";
    }
    std::cout << std::flush;
    std::cerr << "statespace: solved in " << std::fixed << std::setprecision(3) << seconds << " s, "
              << std::setprecision(0) << (seconds > 0 ? double(r.nodes) / seconds : 0.0) << " nodes/s\n";
  };
  // Problems run side by side, each search on the workers the others leave idle
  // (its own subtrees are tasks too): a single search keeps two cores only about
  // three-quarters busy, between its iterations and at their ends. Results are
  // printed in input order as soon as all before them are done.
  struct Solved {
    IdaResult result;
    double seconds = 0;
  };
  std::vector<std::optional<Solved>> done(problems.size());
  std::size_t printed = 0;
  std::mutex printing;
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, problems.size(), 1),
      [&](const tbb::blocked_range<std::size_t>& range) {
        for (std::size_t i = range.begin(); i != range.end(); ++i) {
          const auto start = std::chrono::steady_clock::now();
          IdaResult r = solve_ida(*h.heuristic, problems[i]);
          const double seconds = seconds_since(start);
          const std::lock_guard lock(printing);
          done[i] = Solved{std::move(r), seconds};
          for (; printed < done.size() && done[printed]; ++printed) {
            print(printed, done[printed]->result, done[printed]->seconds);
            done[printed].reset();
          }
        }
      },
      tbb::simple_partitioner());
  return 0;
}

int generate_optimal(const Tiles& t, const OptimalGenerateOptions& o, Context& context) {
  const bool by_distance = !o.distance.empty() || !o.min.empty() || !o.max.empty();
  // The 15-puzzle's diameter bounds its distances; other boards get the byte range.
  const int limit = t.rows() == 4 && t.cols() == 4 ? kMaxDistance4x4 : 254;
  int lo = 0, hi = limit;
  if (by_distance) {
    if (!o.distance.empty()) {
      lo = hi = int(parse_whole("--distance", o.distance, 0, limit));
    } else {
      if (!o.min.empty()) lo = int(parse_whole("--min", o.min, 0, limit));
      if (!o.max.empty()) hi = int(parse_whole("--max", o.max, 0, limit));
      if (lo > hi) {
        throw UsageError("generate: --min " + std::to_string(lo) + " exceeds --max " + std::to_string(hi) +
                         " (expected --min A --max B with A at most B)");
      }
    }
  }
  const std::uint64_t max_tries = o.max_tries ? o.max_tries : 1000 * o.count;
  if (by_distance) {
    // Refused before any work when even an upper bound on the positions at these
    // distances makes `count` of them unlikely within max_tries uniform draws.
    const double share = walks_bound(t, lo, hi) / double(t.reachable_bound());
    if (share * double(max_tries) < double(o.count)) {
      const std::string asked = lo == hi ? std::to_string(lo) : std::to_string(lo) + ".." + std::to_string(hi);
      std::ostringstream why;
      why << "generate: " << t.name() << ": at most " << std::setprecision(3) << share * 100
          << "% of solvable positions lie at distance " << asked << ", too few for rejection sampling to find "
          << o.count << " in " << max_tries << " uniform draws (--max-tries); ask for distances nearer the middle";
      throw UsageError(why.str());
    }
  }
  const auto threads = apply_threads(context);
  const PdbHeuristic h = heuristic_for(t, o.pdb);

  std::ostringstream out;
  if (o.format == ProblemFormat::kCsv) out << kProblemCsvHeader << "\n";
  ProblemGenerator generator(t, by_distance ? GenerateMethod::kUniform : o.method, o.walk_length, o.seed);
  std::uint64_t kept = 0, tried = 0, solved = 0;
  const auto start = std::chrono::steady_clock::now();
  // Draws are taken in batches whose searches run side by side, then judged in draw
  // order exactly as one at a time would: the output, and the counts of draws and
  // searches, do not depend on the threads; a batch's searches past the last problem
  // kept are the price of using every core.
  const std::size_t batch = std::size_t(8) * std::size_t(threads_in_use(context));
  const bool solving = by_distance || o.format == ProblemFormat::kCsv;
  const int home = t.cells() - 1;
  // A move changes the blank's colour, so a distance has the parity of the blank's
  // distance to its goal cell: the other half need no search.
  const auto needs_search = [&](Board b) {
    if (!solving) return false;
    if (!(by_distance && lo == hi)) return true;
    const int blank = find_blank(b, t.cells());
    const int parity =
        (std::abs(blank / t.cols() - home / t.cols()) + std::abs(blank % t.cols() - home % t.cols())) % 2;
    return lo % 2 == parity;
  };
  std::vector<Board> drawn;
  std::vector<int> distance;
  while (kept < o.count) {
    if (tried == max_tries) {
      const std::string asked = lo == hi ? std::to_string(lo) : std::to_string(lo) + ".." + std::to_string(hi);
      throw UsageError("generate: " + std::to_string(kept) + " of " + std::to_string(o.count) +
                       " problems at distance " + asked + " after " + std::to_string(tried) +
                       " uniform draws (too rare for rejection sampling; --max-tries raises the limit)");
    }
    drawn.clear();
    const std::uint64_t take = std::min<std::uint64_t>(solving ? batch : 1, max_tries - tried);
    for (std::uint64_t i = 0; i < take; ++i) drawn.push_back(generator.next());
    distance.assign(drawn.size(), -1);
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, drawn.size(), 1),
        [&](const tbb::blocked_range<std::size_t>& range) {
          for (std::size_t i = range.begin(); i != range.end(); ++i) {
            if (needs_search(drawn[i])) distance[i] = solve_ida(*h.heuristic, drawn[i]).length();
          }
        },
        tbb::simple_partitioner());
    for (std::size_t i = 0; i < drawn.size() && kept < o.count; ++i) {
      const Board b = drawn[i];
      ++tried;
      if (by_distance && lo == hi && distance[i] < 0) continue;
      if (solving) {
        ++solved;
        const int d = distance[i];
        if (by_distance && (d < lo || d > hi)) continue;
        if (o.format == ProblemFormat::kPaiza && kept > 0) out << "\n";
        out << format_problem(t, b, o.format, d) << "\n";
      } else {
        if (o.format == ProblemFormat::kPaiza && kept > 0) out << "\n";
        out << format_problem(t, b, o.format, std::nullopt) << "\n";
      }
      ++kept;
      // Rejection sampling keeps everything until the end, so that a run that gives
      // up writes nothing; a plain csv run streams.
      if (!by_distance) {
        std::cout << out.str();
        out.str({});
      }
    }
  }
  std::cout << out.str();
  std::cerr << "statespace: " << t.name() << ": drew " << tried << " uniform positions and solved " << solved
            << " optimally for " << kept << " problems (" << std::fixed << std::setprecision(2)
            << double(solved) / double(kept) << " solved per kept) in " << std::setprecision(1) << seconds_since(start)
            << " s\n";
  return 0;
}

}  // namespace statespace::cli
