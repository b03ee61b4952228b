// statespace loop-sort: seed 000's loop-and-jump sort of the 15-puzzle, either on one
// position (its moves or its boards, the final loop order and the move count) or on N
// uniform random boards (--random N): whether all terminated, whether each ending was
// the one the parity test predicts, and a CSV histogram of the move counts. Exit code
// 1 when a board hit the step cap or ended against the prediction (the seed's claim
// would be false).
#include "analysis/problems/loop_sort.hpp"

#include <algorithm>
#include <cctype>
#include <iomanip>
#include <iostream>
#include <limits>

#include "cli/args.hpp"
#include "cli/cli.hpp"
#include "puzzles/sliding_tiles.hpp"

namespace statespace::cli {

namespace {

constexpr int kMovesPerLine = 12;

// "12L", or "12L*" for a jump along a chord.
std::string move_token(const LoopMove& m, Board before) {
  return std::to_string(before.at(m.from)) + char(std::toupper(move_direction(m)[0])) + (m.jump ? "*" : "");
}

int sort_one(const std::string& position, bool boards, std::uint64_t cap) {
  const Tiles t(4, 4);
  const Board start = t.parse(position);
  std::vector<std::string> lines;
  Board before = start;
  if (boards) lines.push_back(t.format(start));
  const LoopSortResult r = loop_sort(start, cap, [&](const LoopMove& m, Board after) {
    lines.push_back(boards ? t.format(after) : move_token(m, before));
    before = after;
  });
  const std::string predicted = loop_order_text(predicted_order(start));
  const std::string count = std::to_string(r.moves) + " moves (" + std::to_string(r.jumps) + " jumps)";
  if (boards) {
    for (const auto& line : lines) std::cout << line << "\n";
    if (r.terminated) {
      std::cout << "# " << count << ", loop order " << loop_order_text(r.order) << " (parity test predicted "
                << predicted << ")\n";
    } else {
      std::cout << "# did not finish within " << cap << " moves\n";
    }
    return r.terminated && r.order == predicted_order(start) ? 0 : 1;
  }
  std::cout << "start: " << t.format(start)
            << "\nmoves: the tile and the way it slides (Up, Down, Left, Right); * marks a jump along a chord\n";
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::cout << lines[i] << ((i + 1) % kMovesPerLine == 0 || i + 1 == lines.size() ? "\n" : " ");
  }
  if (!r.terminated) {
    std::cout << "did not finish within " << cap << " moves\n";
    return 1;
  }
  std::cout << "final: " << t.format(r.final) << "\nloop order: " << loop_order_text(r.order)
            << " (parity test predicted " << predicted << ")\nmove count: " << count << "\n";
  return r.order == predicted_order(start) ? 0 : 1;
}

int survey(std::uint64_t boards, std::uint64_t seed, std::uint64_t cap, std::uint64_t bin) {
  const LoopSortSurvey s = survey_loop_sort(boards, seed, cap);
  const Tiles t(4, 4);
  std::cout << "# loop-sort on " << s.boards << " uniform random boards (seed " << seed << ", step cap " << cap
            << ")\n";
  if (s.first_unterminated) {
    std::cout << "# terminated: " << s.terminated << " of " << s.boards
              << "; first that did not: " << t.format(*s.first_unterminated) << "\n";
  } else {
    std::cout << "# terminated: all " << s.boards << "\n";
  }
  std::cout << "# ending as the parity test predicts: " << s.predicted << " of " << s.terminated
            << " (1,2,3,...,15: " << s.ascending << ", 1,3,2,...,15: " << s.swapped << ")\n";
  const auto first = std::find_if(s.histogram.begin(), s.histogram.end(), [](auto n) { return n > 0; });
  if (s.terminated > 0) {
    std::cout << "# moves: min " << (first - s.histogram.begin()) << ", mean " << std::fixed << std::setprecision(1)
              << double(s.total_moves) / double(s.terminated) << ", max " << s.histogram.size() - 1 << "\n";
  }
  std::cout << "moves_from,moves_to,boards\n";
  const std::uint64_t lowest = std::uint64_t(first - s.histogram.begin()) / bin * bin;
  for (std::uint64_t from = lowest; from < s.histogram.size(); from += bin) {
    std::uint64_t n = 0;
    for (std::uint64_t m = from; m < std::min<std::uint64_t>(from + bin, s.histogram.size()); ++m) n += s.histogram[m];
    std::cout << from << "," << from + bin - 1 << "," << n << "\n";
  }
  return s.terminated == s.boards && s.predicted == s.terminated ? 0 : 1;
}

}  // namespace

int run_loop_sort(const Args& args, Context& context) {
  std::string position, format = "moves", random_text, seed_text = "1", bin_text = "50";
  std::string cap_text = std::to_string(kDefaultLoopStepCap);
  po::options_description options("Options");
  options.add_options()("position", po::value(&position)->value_name("POSITION"),
                        "a 4x4 position, quoted: \"10 8 4 14 / 15 12 13 _ / 7 11 6 1 / 5 9 2 3\"")(
      "format", po::value(&format)->default_value(format)->value_name("NAME"),
      "moves (tile + direction per move, then the final board, loop order and count) or boards (one position "
      "per line, the start first, then a # summary line)")(
      "random", po::value(&random_text)->value_name("N"),
      "instead of POSITION: run on N uniform random boards (both parity classes) and report")(
      "seed", po::value(&seed_text)->default_value(seed_text)->value_name("S"), "random seed for --random")(
      "bin", po::value(&bin_text)->default_value(bin_text)->value_name("W"), "histogram bin width for --random")(
      "max-steps", po::value(&cap_text)->default_value(cap_text)->value_name("N"),
      "step cap: a board still unsorted after N moves counts as not terminated");
  po::positional_options_description positional;
  positional.add("position", 1);
  po::variables_map vm;
  if (!parse_command(command("loop-sort"), options, positional, args, vm, context)) return 0;
  const std::uint64_t cap = parse_whole("--max-steps", cap_text, 1, std::uint64_t{1} << 40);
  if (vm.count("random")) {
    if (vm.count("position")) throw UsageError("loop-sort: give a POSITION or --random N, not both");
    if (!vm["format"].defaulted()) throw UsageError("loop-sort: --format applies to one POSITION, not to --random");
    const std::uint64_t boards = parse_whole("--random", random_text, 1, 1'000'000'000);
    const std::uint64_t seed = parse_whole("--seed", seed_text, 0, std::numeric_limits<std::uint64_t>::max());
    const std::uint64_t bin = parse_whole("--bin", bin_text, 1, 1'000'000);
    const auto threads = apply_threads(context);
    return survey(boards, seed, cap, bin);
  }
  if (!vm.count("position")) {
    throw UsageError("loop-sort: give a 4x4 POSITION or --random N (see statespace loop-sort --help)");
  }
  if (!vm["seed"].defaulted() || !vm["bin"].defaulted()) {
    throw UsageError("loop-sort: --seed and --bin apply to --random only");
  }
  if (format != "moves" && format != "boards") {
    throw ParseError("loop-sort: unknown --format '" + format + "' (expected moves or boards)");
  }
  return sort_one(position, format == "boards", cap);
}

}  // namespace statespace::cli
