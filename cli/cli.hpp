// The command-line interface: `statespace COMMAND [ARGS] [OPTIONS]`, one file per
// command (cli/<command>.cpp), the command table in cli/commands.cpp. Options are
// Boost.Program_options descriptions; every command also takes the global --threads
// and --help. Errors are thrown (ParseError, UsageError, program_options errors) and
// turned into one line on stderr and exit code 2 by run().
#pragma once

#include <tbb/global_control.h>

#include <boost/program_options.hpp>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace statespace::cli {

namespace po = boost::program_options;
using Args = std::vector<std::string>;

struct Context {
  int threads = 0;  // worker threads; 0 = all cores
};

struct Command {
  std::string_view name;
  std::string_view usage;    // "analyze PUZZLE... [options]"
  std::string_view summary;  // one line for `statespace --help`
  int (*run)(const Args& args, Context& context);
};

// Parses a command's arguments against `options` (plus --threads and --help) and
// `positional`. Prints the command's help and returns false on --help.
bool parse_command(const Command& command, po::options_description options,
                   const po::positional_options_description& positional, const Args& args, po::variables_map& vm,
                   Context& context);

// oneTBB's thread limit (context.threads, or all cores) for the returned object's lifetime.
std::unique_ptr<tbb::global_control> apply_threads(const Context& context);
int threads_in_use(const Context& context);

// The command table entry for `name` (used for usage lines and help).
const Command& command(std::string_view name);

// Entry point: dispatches argv to a command; returns the exit code.
int run(int argc, char** argv);

int run_list(const Args& args, Context& context);
int run_analyze(const Args& args, Context& context);
int run_solve(const Args& args, Context& context);
int run_query(const Args& args, Context& context);
int run_generate(const Args& args, Context& context);
int run_solvable(const Args& args, Context& context);
int run_verify_parity(const Args& args, Context& context);
int run_loop_sort(const Args& args, Context& context);
int run_report(const Args& args, Context& context);
int run_pdb(const Args& args, Context& context);
int run_convert(const Args& args, Context& context);
int run_serve(const Args& args, Context& context);

}  // namespace statespace::cli
