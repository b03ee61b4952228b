#include <tbb/global_control.h>
#include <tbb/info.h>

#include <array>
#include <cctype>
#include <csignal>
#include <iostream>
#include <memory>
#include <new>

#include "analysis/runtime/progress.hpp"
#include "cli/args.hpp"
#include "cli/cli.hpp"
#include "core/errors.hpp"
#include "core/text.hpp"

namespace statespace::cli {

namespace {

constexpr std::array kCommands = {
    Command{"list", "list [DIR]", "the puzzle catalog: names, sizes and goals; or the puzzle files in DIR", run_list},
    Command{"analyze", "analyze PUZZLE... [options]",
            "distance distribution, eccentricity, farthest positions; writes CSV/JSON/DOT reports", run_analyze},
    Command{"solve", "solve PUZZLE POSITION [options]", "a shortest solution, board by board", run_solve},
    Command{"query", "query PUZZLE [POSITION] [--table FILE] [--format json] [--line N]",
            "a position's distance to the goal and every move's, from a distance table", run_query},
    Command{"generate", "generate tiles:RxC [--count N] [--method uniform|walk] [--seed S] [options]",
            "sliding-tile problems (seeds 002, 004), with exact difficulty when a distance table fits", run_generate},
    Command{"solvable", "solvable tiles:RxC POSITION", "the parity verdict for any R x C board, explained (seed 004)",
            run_solvable},
    Command{"verify-parity", "verify-parity tiles:RxC [options]",
            "exhaustive proof on a small board that the parity test is exactly reachability", run_verify_parity},
    Command{"loop-sort", "loop-sort POSITION [--format moves|boards] | loop-sort --random N [--seed S]",
            "seed 000's loop-and-jump sort of the 15-puzzle, on one board or N random ones", run_loop_sort},
    Command{"convert", "convert FILE.toml [--out FILE.tws]",
            "a permutation file's pieces as a .tws file (twsearch's format), ranked as the file is", run_convert},
    Command{"report", "report MANIFEST --out DIR [--force]",
            "an article's tables (Markdown, LaTeX, CSV), SVG figures and reports from a TOML manifest, cached",
            run_report},
    Command{"pdb", "pdb build tiles:RxC [--partition NAME] [--pdb-dir DIR] [--memory BYTES]",
            "build and cache the pattern databases of the optimal solver (solve and generate on tiles:4x4)", run_pdb},
    Command{"serve", "serve [DIR] [--port N] [--host ADDR]",
            "the report bundles of DIR as pages, a JSON API and a play view on http://127.0.0.1:8080/", run_serve},
};

void print_help() {
  std::cout << "statespace " << STATESPACE_VERSION
            << ": exhaustive state-space analysis of puzzles\n\n"
               "Usage: statespace [--threads N] COMMAND [ARGS] [OPTIONS]\n\nCommands:\n";
  for (const auto& c : kCommands) {
    std::cout << "  " << c.name << std::string(16 - std::min<std::size_t>(15, c.name.size()), ' ') << c.summary << "\n";
  }
  std::cout << "\nGlobal options (before or after the command):\n"
               "  --threads N     worker threads (default: all cores); results do not depend on it\n"
               "  --help          this text; `statespace COMMAND --help` for a command's options\n"
               "  --version       print the version\n\n"
               "Positions are written row by row, cells separated by spaces, rows by \" / \", the blank\n"
               "as _ (0, * and -- also work): \"1 2 3 / 4 5 6 / 7 8 _\". Run `statespace list` for puzzles.\n";
}

int parse_threads(std::string_view text) { return int(parse_whole("--threads", text, 1, 1024)); }

// What run() prints for an error: one line, safe for a terminal. A long argument
// echoed whole is cut to a prefix and its length, a message still too long (a long
// token of an argument) is cut too, and control characters become \xNN.
std::string printable(std::string message, const Args& args) {
  constexpr std::size_t kKeep = 60, kLongest = 500;
  for (const auto& arg : args) {
    if (arg.size() <= kKeep) continue;
    const std::string shown = arg.substr(0, kKeep) + "... (" + with_commas(arg.size()) + " characters)";
    for (auto at = message.find(arg); at != std::string::npos; at = message.find(arg, at)) {
      // A file's path before ":LINE:COLUMN" stays whole: cut, the place could not be opened.
      const std::size_t after = at + arg.size();
      if (after + 1 < message.size() && message[after] == ':' &&
          std::isdigit(static_cast<unsigned char>(message[after + 1]))) {
        at = after;
        continue;
      }
      message.replace(at, arg.size(), shown);
      at += shown.size();
    }
  }
  if (message.size() > kLongest) {
    message = message.substr(0, kLongest) + "... (message of " + with_commas(message.size()) + " characters)";
  }
  const std::string out = quote_input(message, std::string::npos);
  return out.substr(1, out.size() - 2);
}

}  // namespace

const Command& command(std::string_view name) {
  for (const auto& c : kCommands) {
    if (c.name == name) return c;
  }
  std::string names;
  for (const auto& c : kCommands) names += (names.empty() ? "" : ", ") + std::string(c.name);
  throw ParseError("unknown command " + quote_input(name) + " (expected one of: " + names + "; see statespace --help)");
}

bool parse_command(const Command& cmd, po::options_description options,
                   const po::positional_options_description& positional, const Args& args, po::variables_map& vm,
                   Context& context) {
  std::string threads;
  options.add_options()("threads", po::value(&threads)->value_name("N"), "worker threads (default: all cores)")(
      "help,h", "show this help");
  po::store(po::command_line_parser(args).options(options).positional(positional).run(), vm);
  if (vm.count("help")) {
    std::cout << "Usage: statespace " << cmd.usage << "\n" << cmd.summary << "\n\n" << options;
    return false;
  }
  std::string missing;  // required arguments, by the names the usage line gives them
  for (const auto& option : options.options()) {
    if (option->semantic()->is_required() && !vm.count(option->long_name())) {
      missing += (missing.empty() ? "" : " and ") + option->semantic()->name();
    }
  }
  if (!missing.empty()) {
    throw UsageError(std::string(cmd.name) + ": missing " + missing + " (usage: statespace " + std::string(cmd.usage) +
                     ")");
  }
  po::notify(vm);
  if (vm.count("threads")) context.threads = parse_threads(threads);
  return true;
}

int run(int argc, char** argv) {
  Progress::start_run();
  // Past a file size limit (ulimit -f) write() then fails with EFBIG, reported as
  // such, instead of the signal killing the run mid-write.
  std::signal(SIGXFSZ, SIG_IGN);
  const Args all_args(argv, argv + argc);
  try {
    Context context;
    int i = 1;
    for (; i < argc && std::string_view(argv[i]).starts_with("--"); ++i) {
      const std::string_view a = argv[i];
      if (a == "--help" || a == "-h") {
        print_help();
        return 0;
      }
      if (a == "--version") {
        std::cout << "statespace " << STATESPACE_VERSION << "\n";
        return 0;
      }
      if (a == "--threads") {
        if (i + 1 == argc) throw ParseError("--threads needs a value (a whole number from 1 to 1024)");
        context.threads = parse_threads(argv[++i]);
      } else if (a.starts_with("--threads=")) {
        context.threads = parse_threads(a.substr(10));
      } else {
        throw ParseError("unknown option " + quote_input(a) + " before the command (see statespace --help)");
      }
    }
    if (i == argc) {
      print_help();
      return 2;
    }
    const Command& cmd = command(argv[i]);
    const Args args(argv + i + 1, argv + argc);
    return cmd.run(args, context);
  } catch (const po::error& e) {
    std::cerr << "statespace: " << printable(e.what(), all_args) << " (see statespace --help)\n";
    return 2;
  } catch (const ParseError& e) {
    std::cerr << "statespace: " << printable(e.what(), all_args) << "\n";
    return 2;
  } catch (const UsageError& e) {
    std::cerr << "statespace: " << printable(e.what(), all_args) << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "statespace: out of memory (lower --memory or use a smaller puzzle)\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "statespace: " << printable(e.what(), all_args) << "\n";
    return 1;
  }
}

int threads_in_use(const Context& context) {
  return context.threads > 0 ? context.threads : tbb::info::default_concurrency();
}

std::unique_ptr<tbb::global_control> apply_threads(const Context& context) {
  return std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                               std::size_t(threads_in_use(context)));
}

}  // namespace statespace::cli
