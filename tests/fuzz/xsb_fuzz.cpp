// XSB collections, through the reader `statespace analyze FILE.xsb` uses. Every level
// is loaded or refused with one line naming its place; a loaded one must survive
// what every run does first in both metrics (its start formatted and read back, as
// written and as XSB lines, its moves and their reverses from there), and on a
// small floor its LURD solution must replay to a solved position.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.hpp"
#include "puzzles/xsb_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace statespace;
  fuzz::expect_clean([&] {
    const std::string text(reinterpret_cast<const char*>(data), size);
    for (const XsbEntry& e : read_xsb("fuzz.xsb", text)) {
      if (!e.level) {
        fuzz::check_message(e.error);
        if (e.error.rfind("fuzz.xsb:", 0) != 0) fuzz::finding("refusal without its place", e.error);
        continue;
      }
      for (const auto metric : {SokobanMetric::kPushes, SokobanMetric::kMoves}) {
        const Sokoban p(*e.level, metric);
        const auto start = p.start();
        if (!(p.parse(p.format(start)) == start)) fuzz::finding("start does not parse back", p.format(start));
        if (!(p.parse(p.xsb(start)) == start)) fuzz::finding("XSB lines do not parse back", p.xsb(start));
        int successors = 0;
        p.for_each_successor(start, [&](const auto& t) {
          ++successors;
          bool back = false;
          p.for_each_predecessor(t, [&](const auto& s) { back = back || s == start; });
          if (!back) fuzz::finding("a move its predecessors do not undo", p.format(t));
        });
        if (successors > p.max_moves()) fuzz::finding("more successors than max_moves", p.name());
        if (p.floor_cells() <= 12) {
          const auto lurd = p.lurd(p.placed_start());
          if (lurd && !p.is_goal(p.replay(p.placed_start(), *lurd))) fuzz::finding("LURD does not solve", *lurd);
        }
      }
    }
  });
  return 0;
}
