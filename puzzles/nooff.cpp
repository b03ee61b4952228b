#include "puzzles/nooff.hpp"

#include "core/errors.hpp"
#include "core/notation.hpp"

namespace statespace {

namespace {
constexpr const char* kSymbols[] = {"_", "L", "N", "O", "F"};
constexpr const char* kExample = "L L N O / O F F _";
}  // namespace

Board NoOff::goal() const { return parse(kExample); }

std::uint64_t NoOff::rank(State s) const {
  int bulb = 0;
  while (s.at(bulb) != kBulb) ++bulb;
  std::array<std::uint8_t, 6> rest{};
  for (int c = 0, k = 0; c < kCells; ++c) {
    if (c != bulb && c != bulb + 1) rest[k++] = std::uint8_t(s.at(c));
  }
  return std::uint64_t(bulb) * kRestArrangements + multiset_rank(rest.data(), 6, kRest);
}

Board NoOff::unrank(std::uint64_t r) const {
  const int bulb = int(r / kRestArrangements);
  std::array<std::uint8_t, 6> rest{};
  multiset_unrank(r % kRestArrangements, rest.data(), 6, kRest);
  Board b;
  for (int c = 0, k = 0; c < kCells; ++c) {
    b.set(c, (c == bulb || c == bulb + 1) ? unsigned(kBulb) : unsigned(rest[k++]));
  }
  return b;
}

std::vector<int> NoOff::piece_ids(State s) const {
  std::vector<int> ids(kCells);
  int bulb = -1;
  for (int c = 0; c < kCells; ++c) {
    if (s.at(c) == kBlankCode) {
      ids[c] = -1;
    } else if (s.at(c) == kBulb) {
      ids[c] = bulb < 0 ? (bulb = c) : bulb;
    } else {
      ids[c] = c;
    }
  }
  return ids;
}

std::string NoOff::format(State s) const {
  std::vector<std::string> cells;
  for (int c = 0; c < kCells; ++c) cells.emplace_back(kSymbols[s.at(c)]);
  return join_cells(cells, row_lengths());
}

Board NoOff::parse(std::string_view text) const {
  const auto cells = split_cells(text, row_lengths(), name(), kExample);
  const auto fail = [](const std::string& why) {
    throw ParseError("nooff: " + why + " (expected the bulb L L in the top row, N, two O, two F and _, e.g. \"" +
                     kExample + "\")");
  };
  Board b;
  Counts counts{};
  for (int c = 0; c < kCells; ++c) {
    unsigned code = 0;
    while (code < 5 && cells[c] != kSymbols[code]) ++code;
    if (code == 5) fail("unknown piece '" + cells[c] + "' in cell " + std::to_string(c + 1));
    ++counts[code];
    b.set(c, code);
  }
  // An extra piece is the more telling error: it is what displaced the missing one.
  const Counts want = {1, 2, 1, 2, 2};
  for (bool extra : {true, false}) {
    for (unsigned code = 0; code < 5; ++code) {
      if (extra ? counts[code] > want[code] : counts[code] < want[code]) {
        fail(std::string(extra ? "too many" : "missing") + " '" + kSymbols[code] + "' (" +
             std::to_string(counts[code]) + " found, " + std::to_string(want[code]) + " expected)");
      }
    }
  }
  int first = 0;
  while (b.at(first) != kBulb) ++first;
  if (b.at(first + 1) != kBulb || first % 4 == 3) fail("the bulb L L is split across rows or cells");
  if (first >= 4) fail("the bulb is in the bottom row, which no seed position reaches (it moves only sideways)");
  return b;
}

}  // namespace statespace
