// The optimal sliding-tile solver on the command line: `solve` on tiles:4x4 (or with
// --method ida, or --batch), `generate` on tiles:4x4 with exact distances, and the
// `pdb` command. The search itself lives in analysis/solvers/ida.hpp and analysis/solvers/pdb.hpp.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "analysis/problems/generate.hpp"
#include "analysis/solvers/ida.hpp"
#include "cli/cli.hpp"
#include "puzzles/sliding_tiles.hpp"

namespace statespace::cli {

// Where the databases come from: --pdb-dir, --partition (empty: chosen by --memory).
struct PdbOptions {
  std::string dir;
  std::string partition;
  std::string memory;
};

// The cache folder of these options, and the heuristic of plan_partition()'s choice
// (analysis/generate_plan.hpp) from it (built and cached when missing); names the
// partition chosen on stderr.
std::filesystem::path pdb_dir(const PdbOptions& options);
PdbHeuristic heuristic_for(const Tiles& t, const PdbOptions& options);

struct OptimalSolveOptions {
  std::string puzzle;
  std::string position;  // one position, or
  std::string batch;     // a file of them
  std::string format;    // boards or csv
  PdbOptions pdb;
};
int solve_optimal(const OptimalSolveOptions& options, Context& context);

struct OptimalGenerateOptions {
  std::string distance, min, max;  // as given; empty when absent
  std::uint64_t count = 1;
  std::uint64_t seed = 1;
  std::uint64_t max_tries = 0;  // uniform positions solved at most; 0 = 1000 per problem
  GenerateMethod method = GenerateMethod::kUniform;
  int walk_length = 0;
  ProblemFormat format = ProblemFormat::kCanonical;
  PdbOptions pdb;
};
// generate on a board too big for a distance table: uniform problems, each solved
// optimally; with --distance/--min/--max, rejection sampling.
int generate_optimal(const Tiles& t, const OptimalGenerateOptions& options, Context& context);

}  // namespace statespace::cli
