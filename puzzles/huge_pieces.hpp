// A piece definition whose places take more than the 512 bits of the widest
// BasicWidePieces word (puzzles/wide_pieces.hpp): the 6x6x6 cube (591 bits) up to the
// 20x20x20 (7,100), the gigaminx, Eitan's star. Nobody finishes these spaces; what is
// asked of them is their first levels (analyze --max-depth, --partial), which the
// record levels engine (analysis/engines/levels/record_levels.hpp) counts.
//
// A position is a record of limbs() 64-bit limbs, a number fixed when the file is
// read, not a type: one model serves every width, so the commands' visits over the
// models (AnyPuzzle) gain no alternative, and only analyze's path instantiates the
// engine over records. The record's layout is BasicWidePieces' word laid out in that
// many limbs (the same Tables, puzzles/wide_pieces.cpp): each place one field, kind *
// orientations + twist, the first set's first place at the top of limb 0, so that
// records compared limb by limb from limb 0 are in the order of positions place by
// place, the canonical order of the reports.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "puzzles/piece_definition.hpp"
#include "puzzles/pieces.hpp"
#include "puzzles/wide_pieces.hpp"

namespace statespace {

// Fields address limbs by one byte: at most 255 limbs, 16,320 bits.
inline constexpr int kMaxHugePieceLimbs = 255;

class HugePieces {
 public:
  // Throws ParseError when the definition is inconsistent, a chosen move unknown, or
  // its places take more than kMaxHugePieceLimbs limbs.
  HugePieces(const PieceDefinition& definition, PieceMetric metric, const std::vector<std::string>& chosen = {});

  [[nodiscard]] std::string name() const { return t_->definition.name; }
  // The limbs of a record.
  [[nodiscard]] int limbs() const { return t_->limbs; }
  // The bits its places take (the last limb's unused bits not counted).
  [[nodiscard]] int bits() const { return bits_; }
  [[nodiscard]] int max_moves() const { return int(t_->moves.size()); }
  [[nodiscard]] bool directed() const { return t_->directed; }
  // Some move may leave some position as it is (identical pieces on its cycles).
  [[nodiscard]] bool may_stay() const { return t_->may_stay; }
  [[nodiscard]] std::vector<int> row_lengths() const;
  // The solved state's record.
  [[nodiscard]] const std::vector<std::uint64_t>& goal() const { return start_; }
  // Pieces' notation (format_piece_position) of the record at `record`.
  [[nodiscard]] std::string format(const std::uint64_t* record) const;
  // Throws ParseError naming the expected form.
  [[nodiscard]] std::vector<std::uint64_t> parse(std::string_view text) const;
  // The successors of the record at `from` into `out` (room for max_moves() records),
  // one after the other, limbs() limbs each, in the order of the moves; their count
  // (a move into a place an Illegal line forbids makes none).
  int successors(const std::uint64_t* from, std::uint64_t* out) const;

  [[nodiscard]] const PieceDefinition& definition() const { return t_->definition; }
  [[nodiscard]] PieceMetric metric() const { return t_->metric; }
  [[nodiscard]] const std::vector<std::string>& chosen_moves() const { return t_->chosen; }

 private:
  std::shared_ptr<const wide_pieces_detail::Tables> t_;
  std::vector<std::uint64_t> start_;
  int bits_ = 0;
};

}  // namespace statespace
