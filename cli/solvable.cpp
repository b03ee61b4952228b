// statespace solvable: seed 004's parity verdict for one board of any size, with the
// numbers behind it (inversions, blank row, their sum and its parity) and the reason,
// which differs for odd and even widths. An answer either way: exit code 0.
#include <iostream>

#include "cli/cli.hpp"
#include "puzzles/tiles_parity.hpp"

namespace statespace::cli {

int run_solvable(const Args& args, Context& context) {
  std::string name, position;
  po::options_description options("Options");
  options.add_options()("puzzle", po::value(&name)->required()->value_name("BOARD"),
                        "the board, tiles:RxC with 2 <= R, C <= 32")(
      "position", po::value(&position)->required()->value_name("POSITION"),
      "the position, quoted: \"10 8 4 14 / 15 12 13 _ / 7 11 6 1 / 5 9 2 3\"");
  po::positional_options_description positional;
  positional.add("puzzle", 1).add("position", 1);
  po::variables_map vm;
  if (!parse_command(command("solvable"), options, positional, args, vm, context)) return 0;
  const TilesShape shape = parse_tiles_shape(name);
  const auto cells = parse_tiles_cells(shape, position);
  std::cout << shape.name() << "  " << format_tiles_cells(shape, cells) << "\n"
            << explain_parity(tiles_parity(shape, cells));
  return 0;
}

}  // namespace statespace::cli
