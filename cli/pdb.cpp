// statespace pdb build: builds (or checks and loads) a partition's pattern databases
// into the cache folder ahead of `solve`, and prints what they hold.
#include <iomanip>
#include <iostream>

#include "analysis/solvers/ida.hpp"
#include "cli/args.hpp"
#include "cli/optimal.hpp"

namespace statespace::cli {

int run_pdb(const Args& args, Context& context) {
  std::string action, name, dir, partition, memory;
  po::options_description options("Options");
  options.add_options()("action", po::value(&action)->required()->value_name("ACTION"), "build")(
      "puzzle", po::value(&name)->required()->value_name("BOARD"), "the board, tiles:RxC")(
      "partition", po::value(&partition)->value_name("NAME"),
      "7-8, 6-6-3 or 5-5-5 on tiles:4x4, or tile groups such as 1,2,3/4,5,6/7,8 (default: the largest that fits "
      "--memory)")("pdb-dir", po::value(&dir)->value_name("DIR"),
                   "cache folder (default: $XDG_CACHE_HOME/statespace, else ~/.cache/statespace)")(
      "memory", po::value(&memory)->value_name("BYTES"), "memory budget in bytes, e.g. 8G (default: 75% of RAM)");
  po::positional_options_description positional;
  positional.add("action", 1).add("puzzle", 1);
  po::variables_map vm;
  if (!parse_command(command("pdb"), options, positional, args, vm, context)) return 0;
  if (action != "build") throw ParseError("pdb: unknown action '" + action + "' (expected build)");
  const Tiles t = tiles_named(name, "pdb");
  const PdbOptions o{dir, partition, memory};
  const auto threads = apply_threads(context);
  const PdbHeuristic h = heuristic_for(t, o);
  std::cout << t.name() << ": pattern databases " << h.partition.name << " in " << pdb_dir(o).string() << "\n";
  for (const auto& db : h.databases) {
    const auto counts = db.counts();
    double sum = 0, n = 0;
    for (std::size_t v = 0; v < counts.size(); ++v) {
      sum += double(v) * double(counts[v]);
      n += double(counts[v]);
    }
    std::cout << "  " << pdb_file(pdb_dir(o), t, db.tiles()).filename().string() << ": " << db.entries()
              << " entries, values 0.." << counts.size() - 1 << ", mean " << std::fixed << std::setprecision(3)
              << sum / n << "\n";
  }
  std::cerr << "statespace: " << (h.built ? "built" : "loaded") << " in " << std::fixed << std::setprecision(1)
            << h.seconds << " s\n";
  return 0;
}

}  // namespace statespace::cli
