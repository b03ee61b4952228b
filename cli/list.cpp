// statespace list: the catalog, with the size of each rank space and its goal.
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
  const auto row = [](const std::string& name, const std::string& seed) {
    std::visit(
        [&](const auto& p) {
          std::cout << std::left << std::setw(12) << name << std::setw(9) << seed << std::right << std::setw(16)
                    << p.rank_space() << "  " << std::left << p.format(p.goal()) << "\n";
        },
        make_puzzle(name));
  };
  for (const char* name : {"nooff", "hex6", "oshidori"}) row(name, name[0] == 'n' ? "001" : "003");
  for (const char* name : {"tiles:2x2", "tiles:2x3", "tiles:3x3", "tiles:2x5", "tiles:3x4", "tiles:4x4"}) {
    row(name, "002/004");
  }
  std::cout << "\nForms (positions = the rank space; tiles reach exactly half of it):\n";
  for (const auto& e : catalog()) {
    std::cout << "  " << std::left << std::setw(12) << e.name << "seed " << std::setw(9) << e.seed << e.description
              << "\n";
  }
  return 0;
}

}  // namespace statespace::cli
