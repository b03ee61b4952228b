// .tws text, through the reader `statespace analyze FILE.tws` uses. A file that
// loads must survive what every run does first (its goal formatted and parsed back,
// its moves from there), keep every name free of control characters, and come back
// the same from `statespace convert`'s writer: format_tws, read again, gives the
// same sets, solved state and moves.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/text.hpp"
#include "fuzz_check.hpp"
#include "puzzles/tws_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace statespace;
  fuzz::expect_clean([&] {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const Pieces p = load_tws("fuzz.tws", text);
    const auto goal = p.goal();
    if (!(p.parse(p.format(goal)) == goal)) fuzz::finding("goal does not parse back", p.format(goal));
    int successors = 0;
    p.for_each_successor(goal, [&](const auto&) { ++successors; });
    if (successors > p.max_moves()) fuzz::finding("more successors than max_moves", p.name());
    const PieceDefinition& d = p.definition();
    if (forbidden_character(d.name)) fuzz::finding("control character in the name", d.name);
    for (const auto& m : d.moves) {
      if (forbidden_character(m.name)) fuzz::finding("control character in a move name", m.name);
    }
    const PieceDefinition back = parse_tws("fuzz.tws", format_tws(d, {}));
    bool same = back.name == d.name && back.sets.size() == d.sets.size() && back.solved == d.solved &&
                back.moves.size() == d.moves.size() && back.illegal == d.illegal && back.wild == d.wild;
    for (std::size_t i = 0; same && i < d.moves.size(); ++i) {
      same = back.moves[i].name == d.moves[i].name && back.moves[i].transform == d.moves[i].transform;
    }
    if (!same) fuzz::finding("format_tws does not read back", d.name);
  });
  return 0;
}
