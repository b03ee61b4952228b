// statespace verify-parity: the exhaustive proof, for one small board, that the
// parity test is exactly reachability (analysis/problems/verify_parity.hpp). Exit code 0 when
// proved, 1 when any arrangement disagrees (it never should).
#include "analysis/problems/verify_parity.hpp"

#include <iostream>

#include "cli/args.hpp"
#include "cli/cli.hpp"

namespace statespace::cli {

int run_verify_parity(const Args& args, Context& context) {
  std::string name;
  MemoryOption memory;
  po::options_description options("Options");
  options.add_options()("puzzle", po::value(&name)->required()->value_name("BOARD"),
                        "the board, tiles:RxC (every (RC)! arrangement becomes a vertex: up to 10 cells is quick)");
  memory.add_to(options);
  po::positional_options_description positional;
  positional.add("puzzle", 1);
  po::variables_map vm;
  if (!parse_command(command("verify-parity"), options, positional, args, vm, context)) return 0;
  const Tiles t = tiles_named(name, "verify-parity");
  const MemoryBudget budget = memory.budget();
  const auto threads = apply_threads(context);
  const ParityVerification v = verify_parity(t, budget);

  std::cout << t.name() << ": " << v.arrangements << " arrangements, " << v.component_sizes.size()
            << " connected components: ";
  for (std::size_t i = 0; i < v.component_sizes.size(); ++i) {
    std::cout << (i ? " + " : "") << v.component_sizes[i] << (i == 0 ? " (the goal's)" : "");
  }
  std::cout << "\nparity test against reachability from the goal: " << v.agree << " agree, " << v.disagree
            << " disagree\n";
  if (v.first_disagreement) std::cout << "first disagreement: " << t.format(*v.first_disagreement) << "\n";
  std::cout << (v.proved() ? "proved: a position is reachable from the goal exactly when the parity test says solvable"
                           : "NOT proved")
            << "\n";
  return v.proved() ? 0 : 1;
}

}  // namespace statespace::cli
