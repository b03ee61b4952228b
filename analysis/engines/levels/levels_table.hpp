// Distance tables of the sorted-levels engine (analyze --table on blocks, rules,
// permutation and .tws files): models without a dense rank keep the sorted words of
// the positions with one byte code each (analysis/runtime/goal_table.hpp, encoding
// 3). A search from the goals hands over each level's words, ascending; the table
// is their merge, 9 bytes a position. A minimal perfect hash with two-bit values
// would take about 4.5 bits a position, but it maps every word to some slot, so it
// could not say that a position is not in the table without the words themselves;
// and the two-bit value is not enough on directed spaces (rules files), where a
// move may lead any distance farther.
//
// Positions of 65 to 128 bits (encoding 4): sorted, the words share their high
// parts in long runs (the high half of a piece word is the edges' places, the same
// for every arrangement of the corners), so each run keeps its high part once and
// each word only its low bytes: the low 1 to 8 bytes and the code, 16 bytes a run.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <queue>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "analysis/runtime/goal_table.hpp"

namespace statespace {

// How many low bytes a wide words table keeps of each word: the count from 1 to 8
// that leaves a high part of at most 64 bits and takes the fewest bytes, 16 a group
// (its high part and first entry) and `low bytes` an entry. `words` ascending.
inline unsigned wide_low_bytes(std::span<const WideWord> words) {
  if (words.empty()) return 8;
  const auto high = std::uint64_t(words.back() >> 64);
  const unsigned width =
      high ? 64 + unsigned(std::bit_width(high)) : unsigned(std::bit_width(std::uint64_t(words.back())));
  unsigned best = 8;
  std::uint64_t best_bytes = ~std::uint64_t{0};
  for (unsigned b = width > 64 ? (width - 64 + 7) / 8 : 1; b <= 8; ++b) {
    std::uint64_t groups = 0;
    for (std::size_t i = 0; i < words.size(); ++i)
      groups += i == 0 || (words[i] >> (8 * b)) != (words[i - 1] >> (8 * b));
    const std::uint64_t bytes = 16 * groups + words.size() * b;
    if (bytes < best_bytes) {
      best = b;
      best_bytes = bytes;
    }
  }
  return best;
}

// The levels of a search from the goals, kept for the table; then the dead words.
// Word: the packing's, 64 bits (sorted words, encoding 3) or 128 (wide words,
// encoding 4).
template <class Word = std::uint64_t>
class LevelsTableBuilder {
 public:
  // Level `depth`'s words, ascending. Levels come in order, from 0.
  void add(std::size_t depth, std::span<const Word> level) {
    if (depth != levels_.size()) throw std::logic_error("levels table: level out of order");
    levels_.emplace_back(level.begin(), level.end());
  }
  // The reachable words that cannot reach a goal, in any order.
  void set_dead(std::vector<Word> dead) {
    std::sort(dead.begin(), dead.end());
    dead_ = std::move(dead);
  }
  [[nodiscard]] std::vector<std::uint64_t> layers() const {
    std::vector<std::uint64_t> out;
    for (const auto& l : levels_) out.push_back(l.size());
    return out;
  }

  // The table: every word with its code, merged in ascending order. Throws
  // past the 253 distances a byte holds.
  [[nodiscard]] std::shared_ptr<GoalTable> build(GoalTableHeader h) {
    if (levels_.size() > kByteMostDistance + 1) {
      throw std::runtime_error(h.puzzle + ": --table: distances past " + std::to_string(kByteMostDistance) +
                               " do not fit the table's byte codes");
    }
    h.entries = dead_.size();
    for (const auto& l : levels_) h.entries += l.size();
    h.layers = layers();
    h.dead = dead_.size();
    if constexpr (std::is_same_v<Word, std::uint64_t>) {
      h.encoding = TableEncoding::words;
      auto table = std::make_shared<GoalTable>(std::move(h));
      merge(table->sorted_words(), table->word_codes());
      return table;
    } else {
      std::vector<Word> words(h.entries);
      std::vector<unsigned char> codes(h.entries);
      merge(words.data(), codes.data());
      h.encoding = TableEncoding::wide_words;
      h.low_bytes = wide_low_bytes(words);
      const unsigned shift = 8 * h.low_bytes;
      h.groups = 0;
      for (std::size_t i = 0; i < words.size(); ++i) {
        h.groups += i == 0 || (words[i] >> shift) != (words[i - 1] >> shift);
      }
      auto table = std::make_shared<GoalTable>(std::move(h));
      const GoalTableHeader& t = table->header();
      std::uint64_t* const highs = table->words();
      std::uint64_t* const first = highs + t.groups;
      auto* const lows = reinterpret_cast<unsigned char*>(first + t.groups + 1);
      std::uint64_t g = 0;
      for (std::size_t i = 0; i < words.size(); ++i) {
        if (i == 0 || (words[i] >> shift) != (words[i - 1] >> shift)) {
          highs[g] = std::uint64_t(words[i] >> shift);
          first[g++] = i;
        }
        const std::uint64_t low = std::uint64_t(words[i]);
        std::memcpy(lows + i * t.low_bytes, &low, t.low_bytes);  // little-endian, as the format
      }
      first[t.groups] = t.entries;
      std::memcpy(lows + t.entries * t.low_bytes, codes.data(), codes.size());
      return table;
    }
  }

 private:
  // Every level's words and the dead ones merged ascending into `words`, each
  // with its byte code in `codes`.
  void merge(Word* words, unsigned char* codes) {
    // (word, list): the lists are the levels, then the dead words.
    using Head = std::pair<Word, std::size_t>;
    std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
    std::vector<std::size_t> at(levels_.size() + 1, 0);
    const auto list = [&](std::size_t k) -> const std::vector<Word>& {
      return k < levels_.size() ? levels_[k] : dead_;
    };
    for (std::size_t k = 0; k <= levels_.size(); ++k) {
      if (!list(k).empty()) heads.emplace(list(k)[0], k);
    }
    std::uint64_t i = 0;
    while (!heads.empty()) {
      const auto [w, k] = heads.top();
      heads.pop();
      words[i] = w;
      codes[i] = static_cast<unsigned char>(k < levels_.size() ? kByteFirstDistance + k : kByteDead);
      ++i;
      if (++at[k] < list(k).size()) heads.emplace(list(k)[at[k]], k);
    }
    levels_.clear();
    dead_.clear();
  }

  std::vector<std::vector<Word>> levels_;
  std::vector<Word> dead_;
};

}  // namespace statespace
