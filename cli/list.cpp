// statespace list: the registry, with the size of each rank space and its goal.
#include <iomanip>
#include <iostream>

#include "cli/cli.hpp"
#include "puzzles/registry.hpp"

namespace statespace::cli {

int run_list(const Args& args, Context& context) {
  po::variables_map vm;
  if (!parse_command(command("list"), po::options_description("Options"), {}, args, vm, context)) return 0;
  std::cout << std::left << std::setw(12) << "puzzle" << std::setw(9) << "seed" << std::right << std::setw(16)
            << "positions"
            << "  goal\n";
  for (const auto& m : models()) {
    for (const auto name : m.listed) {
      std::visit(
          [&](const auto& p) {
            std::cout << std::left << std::setw(12) << name << std::setw(9) << m.seed << std::right << std::setw(16);
            if constexpr (RankedPuzzle<std::decay_t<decltype(p)>>) {
              std::cout << p.rank_space();
            } else {
              std::cout << "-";
            }
            std::cout << "  " << std::left << p.format(p.goal()) << "\n";
          },
          make_puzzle(name));
    }
  }
  std::cout << "\nForms (positions = the rank space; tiles reach exactly half of it):\n";
  for (const auto& m : models()) {
    std::cout << "  " << std::left << std::setw(12) << m.form << "seed " << std::setw(9)
              << (m.seed.empty() ? std::string_view("-") : m.seed) << m.description << "\n";
  }
  return 0;
}

}  // namespace statespace::cli
