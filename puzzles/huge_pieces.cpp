#include "puzzles/huge_pieces.hpp"

#include <algorithm>
#include <map>

#include "core/errors.hpp"
#include "core/text.hpp"

namespace statespace {

using namespace wide_pieces_detail;

namespace {

std::shared_ptr<const Tables> huge_tables(const PieceDefinition& definition, PieceMetric metric,
                                          const std::vector<std::string>& chosen) {
  const int limbs = limbs_needed(definition);
  if (limbs > kMaxHugePieceLimbs) {
    throw ParseError("its places take " + std::to_string(limbs) + " limbs of 64 bits, more than the " +
                     std::to_string(kMaxHugePieceLimbs) + " a position may take (each a field of kind and twist)");
  }
  return make_tables(definition, metric, chosen, limbs);
}

// The bits the fields take: 64 a limb but the last, whose fields lie at its bottom.
int used_bits(const Tables& t) {
  int last = 0;
  for (std::size_t k = 0; k < t.limb.size(); ++k) {
    for (std::size_t i = 0; i < t.limb[k].size() && t.bits[k] > 0; ++i) {
      if (t.limb[k][i] + 1 == t.limbs) last = std::max(last, t.shift[k][i] + t.bits[k]);
    }
  }
  return 64 * (t.limbs - 1) + last;
}

}  // namespace

HugePieces::HugePieces(const PieceDefinition& definition, PieceMetric metric, const std::vector<std::string>& chosen)
    : t_(huge_tables(definition, metric, chosen)), bits_(used_bits(*t_)) {
  PiecePosition solved;
  for (std::size_t k = 0; k < t_->definition.sets.size(); ++k) {
    std::map<int, int> kind;
    for (std::size_t j = 0; j < t_->labels[k].size(); ++j) kind[std::stoi(t_->labels[k][j]) - 1] = int(j);
    auto& perm = solved.perm.emplace_back();
    for (const int v : t_->definition.solved.perm[k]) perm.push_back(kind.at(v));
    solved.twist.push_back(t_->definition.solved.twist[k]);
  }
  start_.resize(std::size_t(t_->limbs));
  put_position(*t_, solved, start_.data());
}

std::vector<int> HugePieces::row_lengths() const {
  std::vector<int> rows;
  for (const auto& set : t_->definition.sets) {
    rows.push_back(set.size + 1);
    if (set.orientations > 1) rows.push_back(set.size);
  }
  return rows;
}

std::string HugePieces::format(const std::uint64_t* record) const {
  return pieces_detail::format_piece_position(t_->definition, t_->labels, position(*t_, record));
}

std::vector<std::uint64_t> HugePieces::parse(std::string_view text) const {
  std::vector<std::uint64_t> record(std::size_t(t_->limbs));
  try {
    put_position(*t_, pieces_detail::read_piece_position(t_->definition, t_->labels, text), record.data());
  } catch (const ParseError& e) {
    throw ParseError("bad position " + quote_input(text) + ": " + e.what() +
                     " (expected set by set: " + format(start_.data()) + ")");
  }
  return record;
}

int HugePieces::successors(const std::uint64_t* from, std::uint64_t* out) const {
  const Tables& t = *t_;
  const auto limbs = std::size_t(t.limbs);
  int k = 0;
  for (std::size_t m = 0; m < t.moves.size(); ++m) {
    std::uint64_t* const next = out + std::size_t(k) * limbs;
    const std::uint64_t* const keep = t.keep.data() + m * limbs;
    for (std::size_t i = 0; i < limbs; ++i) next[i] = from[i] & keep[i];
    for (std::size_t f = t.first[m]; f < t.first[m + 1]; ++f) {
      const Field& field = t.fields[f];
      std::uint64_t v = (from[field.from_limb] >> field.from_shift) & field.mask;
      if (field.twisted >= 0) v = t.twisted[std::size_t(field.twisted) + v];
      next[field.to_limb] |= v << field.to_shift;
    }
    if (!t.forbidden.empty() && !t.allowed(next)) continue;
    ++k;
  }
  return k;
}

}  // namespace statespace
