// Puzzle files, through the loader `statespace analyze FILE.toml` uses. Linked once
// per kind with fuzz_kind.cpp naming it (FUZZ_KIND), so that inputs whose `kind` the
// mutator broke still reach that kind's reader; with no kind the `kind` key picks it.
// This file is compiled once for all of them (tests/fuzz/CMakeLists.txt): its visit
// over every model is nearly all of its compile.
// A loaded puzzle must survive what every run does first: its goal formatted,
// parsed back to the same position, and its moves from there.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"
#include "puzzles/puzzle_file.hpp"

namespace statespace::fuzz {

// The kind to force, "" for none: fuzz_kind.cpp, compiled into each harness.
const char* forced_kind();

}  // namespace statespace::fuzz

namespace {

using namespace statespace;

AnyPuzzle load(const TomlInput& file) {
  const std::string_view kind = fuzz::forced_kind();
  if (kind.empty()) return load_puzzle_file(file);
  for (const auto& k : puzzle_kinds()) {
    if (k.name == kind) return std::get<TomlKindLoader>(k.load)(file);
  }
  fuzz::finding("no puzzle kind", kind);
}

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
