#include "puzzles/oshidori.hpp"

#include <array>

#include "core/errors.hpp"
#include "core/notation.hpp"

namespace statespace {

namespace {
constexpr const char* kSymbols[] = {"_", "B", "W"};
}  // namespace

Oshidori::Oshidori(int pairs) : n_(pairs) {
  if (pairs < 1 || pairs > kMaxPairs) {
    throw ParseError("oshidori:" + std::to_string(pairs) +
                     ": unsupported size (expected oshidori:N with 1 <= N <= " + std::to_string(kMaxPairs) + ")");
  }
  stones_[kBlack] = std::uint8_t(n_);
  stones_[kWhite] = std::uint8_t(n_);
  stone_arrangements_ = multinomial(stones_);
}

std::string Oshidori::name() const { return n_ == 3 ? "oshidori" : "oshidori:" + std::to_string(n_); }

Board Oshidori::goal() const {
  Board b;
  for (int i = 0; i < 2 * n_; ++i) b.set(i, i < n_ ? kBlack : kWhite);
  return b;
}

Board Oshidori::start() const {
  Board b;
  for (int i = 0; i < 2 * n_; ++i) b.set(i, i % 2 == 0 ? kBlack : kWhite);
  return b;
}

std::uint64_t Oshidori::rank(State s) const {
  const int b = find_blank(s, cells());
  std::array<std::uint8_t, Board::kMaxCells> stones{};
  for (int c = 0, k = 0; c < cells(); ++c) {
    if (c != b && c != b + 1) stones[k++] = std::uint8_t(s.at(c));
  }
  return std::uint64_t(b) * stone_arrangements_ + multiset_rank(stones.data(), 2 * n_, stones_);
}

Board Oshidori::unrank(std::uint64_t r) const {
  const int b = int(r / stone_arrangements_);
  std::array<std::uint8_t, Board::kMaxCells> stones{};
  multiset_unrank(r % stone_arrangements_, stones.data(), 2 * n_, stones_);
  Board s;
  for (int c = 0, k = 0; c < cells(); ++c) s.set(c, (c == b || c == b + 1) ? 0u : unsigned(stones[k++]));
  return s;
}

std::string Oshidori::format(State s) const {
  std::vector<std::string> cells_text;
  for (int c = 0; c < cells(); ++c) cells_text.emplace_back(kSymbols[s.at(c)]);
  return join_cells(cells_text, row_lengths());
}

Board Oshidori::parse(std::string_view text) const {
  const std::string example = format(start());
  const auto cells_text = split_cells(text, row_lengths(), name(), example);
  const auto fail = [&](const std::string& why) {
    throw ParseError(name() + ": " + why + " (expected " + std::to_string(n_) + " B, " + std::to_string(n_) +
                     " W and two adjacent _, e.g. \"" + example + "\")");
  };
  Board s;
  Counts counts{};
  for (int c = 0; c < cells(); ++c) {
    unsigned code = 0;
    while (code < 3 && cells_text[c] != kSymbols[code]) ++code;
    if (code == 3) fail("unknown piece '" + cells_text[c] + "' in cell " + std::to_string(c + 1));
    ++counts[code];
    s.set(c, code);
  }
  for (unsigned code = 0; code < 3; ++code) {
    const unsigned want = code == kBlankCode ? 2u : unsigned(n_);
    if (counts[code] != want) {
      fail(std::to_string(counts[code]) + " '" + kSymbols[code] + "' found, " + std::to_string(want) + " expected");
    }
  }
  const int b = find_blank(s, cells());
  if (s.at(b + 1) != kBlankCode) fail("the two blanks are not adjacent");
  return s;
}

}  // namespace statespace
