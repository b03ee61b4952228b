// Puzzle files, through the loader `statespace analyze FILE.toml` uses. Built once
// per kind with FUZZ_KIND naming it, so that inputs whose `kind` the mutator broke
// still reach that kind's reader; without FUZZ_KIND the `kind` key picks it.
// A loaded puzzle must survive what every run does first: its goal formatted,
// parsed back to the same position, and its moves from there.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"
#include "puzzles/puzzle_file.hpp"

namespace {

using namespace statespace;

#ifdef FUZZ_KIND
AnyPuzzle load(const TomlInput& file) {
  for (const auto& k : puzzle_kinds()) {
    if (k.name == FUZZ_KIND) return std::get<TomlKindLoader>(k.load)(file);
  }
  fuzz::finding("no puzzle kind", FUZZ_KIND);
}
#else
AnyPuzzle load(const TomlInput& file) { return load_puzzle_file(file); }
#endif

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::expect_clean([&] {
    const TomlInput file("fuzz.toml", std::string(reinterpret_cast<const char*>(data), size));
    const AnyPuzzle puzzle = load(file);
    std::visit(
        [](const auto& p) {
          const auto goal = p.goal();
          if (!(p.parse(p.format(goal)) == goal)) fuzz::finding("goal does not parse back", p.format(goal));
          int successors = 0;
          p.for_each_successor(goal, [&](const auto&) { ++successors; });
          if (successors > p.max_moves()) fuzz::finding("more successors than max_moves", p.name());
        },
        puzzle);
  });
  return 0;
}
