// Sliding-tile problems, the two ways the seeds make them, plus exact difficulty.
//   walk (seed 002):    from the goal, L times slide a tile chosen uniformly among
//                       those next to the blank. Solvable by construction, but the
//                       difficulty is whatever the walk left: the tiles graph is
//                       bipartite, so the distance has L's parity, and it is <= L.
//   uniform (seed 004): shuffle all cells uniformly; if the parity test says
//                       unsolvable, repair with a fixed involution that flips the
//                       class, which maps the unsolvable half one-to-one onto the
//                       solvable half, so the result is uniform over solvable boards.
//                       Seed 004 mirrors left-right; that flips the class only when
//                       R*floor(C/2) + (C-1) is odd (4x4 yes, 2x3 no), so other shapes
//                       swap the first two tiles instead.
//   layer sampling:     with a distance table, the k-th position at distance D (or in
//                       [A, B]) for k uniform: exact difficulty, uniform within it.
// Everything draws from one Rng seeded by --seed, in a fixed order, so the output is
// a function of (board, options, seed) alone.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/problems/rng.hpp"
#include "analysis/solvers/distance_table.hpp"
#include "puzzles/sliding_tiles.hpp"

namespace statespace {

enum class GenerateMethod { kUniform, kWalk };
enum class ProblemFormat { kCanonical, kPaiza, kCsv };

inline constexpr int kDefaultWalkLength = 100;  // seed 002

GenerateMethod parse_generate_method(std::string_view text);
ProblemFormat parse_problem_format(std::string_view text);

// How `uniform` turns an unsolvable shuffle into a solvable board.
enum class ParityRepair { kMirror, kSwapFirstTiles };
[[nodiscard]] ParityRepair parity_repair(const Tiles& t);
[[nodiscard]] Board mirror_left_right(const Tiles& t, Board b);
// Swaps the tiles in the first two non-blank cells (reading order): an involution
// that keeps the blank and flips the arrangement's parity, hence the class.
[[nodiscard]] Board swap_first_tiles(Board b);
[[nodiscard]] Board repair_parity(const Tiles& t, Board b);

[[nodiscard]] Board random_walk(const Tiles& t, Rng& rng, int length);
[[nodiscard]] Board uniform_solvable(const Tiles& t, Rng& rng);
// Any arrangement, solvable or not: uniform over all (RC)! of them (loop-sort's input).
[[nodiscard]] Board uniform_arrangement(const Tiles& t, Rng& rng);

// Problems by method, one at a time, so any count streams in constant memory.
class ProblemGenerator {
 public:
  ProblemGenerator(const Tiles& t, GenerateMethod method, int walk_length, std::uint64_t seed);
  Board next();

 private:
  const Tiles* t_;
  GenerateMethod method_;
  int walk_length_;
  Rng rng_;
};

// `count` positions drawn uniformly (with replacement) among those at distance
// lo..hi, in draw order. Throws UsageError when no position has such a distance.
std::vector<Board> sample_distance(const Tiles& t, const DistanceTable& table, int lo, int hi, std::uint64_t count,
                                   Rng& rng);

// One problem as text, without a trailing newline. Paiza: rows of numbers, "*" for
// the blank (seed 004). CSV: "position,distance", distance empty when unknown.
std::string format_problem(const Tiles& t, Board b, ProblemFormat format, std::optional<int> distance);
inline constexpr std::string_view kProblemCsvHeader = "position,distance";

// The distribution of optimal lengths of `samples` problems from each method (each
// generated exactly as `generate --method M --seed S --count samples` would) next to
// the true distribution over all solvable positions.
struct MethodComparison {
  std::uint64_t samples = 0;
  int walk_length = kDefaultWalkLength;
  std::vector<std::uint64_t> truth;    // truth[d] = positions at distance d
  std::vector<std::uint64_t> uniform;  // uniform[d] = uniform problems at distance d
  std::vector<std::uint64_t> walk;
};
MethodComparison compare_methods(const Tiles& t, const DistanceTable& table, std::uint64_t samples, int walk_length,
                                 std::uint64_t seed);

[[nodiscard]] double mean_distance(std::span<const std::uint64_t> counts);
// Total variation distance between the normalised `counts` and `truth`: half the L1
// distance, 0 for identical distributions, 1 for disjoint ones.
[[nodiscard]] double total_variation(std::span<const std::uint64_t> counts, std::span<const std::uint64_t> truth);
// Pearson's chi-square of observed counts against truth scaled to the same total,
// over the bins where truth is non-zero.
[[nodiscard]] double chi_square(std::span<const std::uint64_t> counts, std::span<const std::uint64_t> truth);

}  // namespace statespace
