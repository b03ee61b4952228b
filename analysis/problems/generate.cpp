#include "analysis/problems/generate.hpp"

#include <array>
#include <cmath>
#include <numeric>

#include "core/errors.hpp"
#include "puzzles/tiles_parity.hpp"

namespace statespace {

GenerateMethod parse_generate_method(std::string_view text) {
  if (text == "uniform") return GenerateMethod::kUniform;
  if (text == "walk") return GenerateMethod::kWalk;
  throw ParseError("unknown --method '" + std::string(text) + "' (expected uniform or walk)");
}

ProblemFormat parse_problem_format(std::string_view text) {
  if (text == "canonical") return ProblemFormat::kCanonical;
  if (text == "paiza") return ProblemFormat::kPaiza;
  if (text == "csv") return ProblemFormat::kCsv;
  throw ParseError("unknown --format '" + std::string(text) + "' (expected canonical, paiza or csv)");
}

Board mirror_left_right(const Tiles& t, Board b) {
  Board m;
  for (int r = 0; r < t.rows(); ++r) {
    for (int c = 0; c < t.cols(); ++c) m.set(r * t.cols() + c, b.at(r * t.cols() + t.cols() - 1 - c));
  }
  return m;
}

Board swap_first_tiles(Board b) {
  const int first = b.at(0) ? 0 : 1;
  const int second = b.at(first + 1) ? first + 1 : first + 2;
  Board s = b;
  s.set(first, b.at(second));
  s.set(second, b.at(first));
  return s;
}

// The mirror is a fixed permutation of the cells, so whether it flips the class is
// the same for every board: test it once, on the goal.
ParityRepair parity_repair(const Tiles& t) {
  return tiles_solvable(t.rows(), t.cols(), mirror_left_right(t, t.goal())) ? ParityRepair::kSwapFirstTiles
                                                                            : ParityRepair::kMirror;
}

Board repair_parity(const Tiles& t, Board b) {
  return parity_repair(t) == ParityRepair::kMirror ? mirror_left_right(t, b) : swap_first_tiles(b);
}

Board random_walk(const Tiles& t, Rng& rng, int length) {
  Board s = t.goal();
  int blank = find_blank(s, t.cells());
  for (int i = 0; i < length; ++i) {
    const int from = t.neighbour(blank, int(rng.below(std::uint64_t(t.degree(blank)))));
    s = s.slid(from, blank);
    blank = from;
  }
  return s;
}

Board uniform_arrangement(const Tiles& t, Rng& rng) {
  std::array<unsigned, Board::kMaxCells> cells{};
  std::iota(cells.begin(), cells.begin() + t.cells(), 0u);
  rng.shuffle(cells.begin(), cells.begin() + t.cells());
  Board b;
  for (int i = 0; i < t.cells(); ++i) b.set(i, cells[std::size_t(i)]);
  return b;
}

Board uniform_solvable(const Tiles& t, Rng& rng) {
  const Board b = uniform_arrangement(t, rng);
  return tiles_solvable(t.rows(), t.cols(), b) ? b : repair_parity(t, b);
}

ProblemGenerator::ProblemGenerator(const Tiles& t, GenerateMethod method, int walk_length, std::uint64_t seed)
    : t_(&t), method_(method), walk_length_(walk_length), rng_(seed) {}

Board ProblemGenerator::next() {
  return method_ == GenerateMethod::kWalk ? random_walk(*t_, rng_, walk_length_) : uniform_solvable(*t_, rng_);
}

std::vector<Board> sample_distance(const Tiles& t, const DistanceTable& table, int lo, int hi, std::uint64_t count,
                                   Rng& rng) {
  const std::uint64_t population = table.count_between(lo, hi);
  if (population == 0) {
    const std::string asked = lo == hi ? std::to_string(lo) : std::to_string(lo) + ".." + std::to_string(hi);
    throw UsageError(t.name() + ": no position at distance " + asked + " (distances run 0.." +
                     std::to_string(table.max_distance()) + ")");
  }
  std::vector<std::uint64_t> ordinals(count);
  for (auto& k : ordinals) k = rng.below(population);
  std::vector<Board> out;
  out.reserve(count);
  for (auto r : table.select(lo, hi, ordinals)) out.push_back(t.unrank(r));
  return out;
}

std::string format_problem(const Tiles& t, Board b, ProblemFormat format, std::optional<int> distance) {
  switch (format) {
    case ProblemFormat::kCanonical:
      return t.format(b);
    case ProblemFormat::kCsv:
      return t.format(b) + "," + (distance ? std::to_string(*distance) : std::string());
    case ProblemFormat::kPaiza: {
      std::string out;
      for (int i = 0; i < t.cells(); ++i) {
        if (i) out += i % t.cols() ? " " : "\n";
        out += b.at(i) ? std::to_string(b.at(i)) : std::string("*");
      }
      return out;
    }
  }
  return {};
}

MethodComparison compare_methods(const Tiles& t, const DistanceTable& table, std::uint64_t samples, int walk_length,
                                 std::uint64_t seed) {
  MethodComparison c;
  c.samples = samples;
  c.walk_length = walk_length;
  c.truth = table.layers();
  c.uniform.assign(c.truth.size(), 0);
  c.walk.assign(c.truth.size(), 0);
  ProblemGenerator uniform(t, GenerateMethod::kUniform, walk_length, seed);
  ProblemGenerator walk(t, GenerateMethod::kWalk, walk_length, seed);
  for (std::uint64_t i = 0; i < samples; ++i) {
    ++c.uniform[table.distance(t.rank(uniform.next()))];
    ++c.walk[table.distance(t.rank(walk.next()))];
  }
  return c;
}

double mean_distance(std::span<const std::uint64_t> counts) {
  double sum = 0, n = 0;
  for (std::size_t d = 0; d < counts.size(); ++d) {
    sum += double(d) * double(counts[d]);
    n += double(counts[d]);
  }
  return n > 0 ? sum / n : 0;
}

double total_variation(std::span<const std::uint64_t> counts, std::span<const std::uint64_t> truth) {
  const double n = double(std::accumulate(counts.begin(), counts.end(), std::uint64_t{0}));
  const double m = double(std::accumulate(truth.begin(), truth.end(), std::uint64_t{0}));
  double l1 = 0;
  for (std::size_t d = 0; d < std::max(counts.size(), truth.size()); ++d) {
    const double p = d < counts.size() && n > 0 ? double(counts[d]) / n : 0;
    const double q = d < truth.size() && m > 0 ? double(truth[d]) / m : 0;
    l1 += std::abs(p - q);
  }
  return l1 / 2;
}

double chi_square(std::span<const std::uint64_t> counts, std::span<const std::uint64_t> truth) {
  const double n = double(std::accumulate(counts.begin(), counts.end(), std::uint64_t{0}));
  const double m = double(std::accumulate(truth.begin(), truth.end(), std::uint64_t{0}));
  double x2 = 0;
  for (std::size_t d = 0; d < truth.size(); ++d) {
    if (truth[d] == 0) continue;
    const double expected = n * double(truth[d]) / m;
    const double observed = d < counts.size() ? double(counts[d]) : 0;
    x2 += (observed - expected) * (observed - expected) / expected;
  }
  return x2;
}

}  // namespace statespace
