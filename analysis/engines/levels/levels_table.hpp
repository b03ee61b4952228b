// Distance tables of the sorted-levels engine (analyze --table on blocks and rules
// files): models without a dense rank keep the sorted words of the positions with
// one byte code each (analysis/runtime/goal_table.hpp, encoding 3). A search from
// the goals hands over each level's words, ascending; the table is their merge,
// 9 bytes a position. A minimal perfect hash with two-bit values would take about
// 4.5 bits a position, but it maps every word to some slot, so it could not say
// that a position is not in the table without the words themselves; and the
// two-bit value is not enough on directed spaces (rules files), where a move may
// lead any distance farther.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <queue>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "analysis/runtime/goal_table.hpp"

namespace statespace {

// The levels of a search from the goals, kept for the table; then the dead words.
class LevelsTableBuilder {
 public:
  // Level `depth`'s words, ascending. Levels come in order, from 0.
  template <class Word>
  void add(std::size_t depth, std::span<const Word> level) {
    if (depth != levels_.size()) throw std::logic_error("levels table: level out of order");
    levels_.emplace_back(level.begin(), level.end());
  }
  // The reachable words that cannot reach a goal, in any order.
  void set_dead(std::vector<std::uint64_t> dead) {
    std::sort(dead.begin(), dead.end());
    dead_ = std::move(dead);
  }
  [[nodiscard]] std::vector<std::uint64_t> layers() const {
    std::vector<std::uint64_t> out;
    for (const auto& l : levels_) out.push_back(l.size());
    return out;
  }

  // The table: every word with its code, merged in ascending order. Throws
  // UsageError past the 253 distances a byte holds.
  [[nodiscard]] std::shared_ptr<GoalTable> build(GoalTableHeader h) {
    if (levels_.size() > kByteMostDistance + 1) {
      throw std::runtime_error(h.puzzle + ": --table: distances past " + std::to_string(kByteMostDistance) +
                               " do not fit the table's byte codes");
    }
    h.encoding = TableEncoding::words;
    h.entries = dead_.size();
    for (const auto& l : levels_) h.entries += l.size();
    h.layers = layers();
    h.dead = dead_.size();
    auto table = std::make_shared<GoalTable>(std::move(h));
    std::uint64_t* const words = table->sorted_words();
    unsigned char* const codes = table->word_codes();
    // (word, list): the lists are the levels, then the dead words.
    using Head = std::pair<std::uint64_t, std::size_t>;
    std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
    std::vector<std::size_t> at(levels_.size() + 1, 0);
    const auto list = [&](std::size_t k) -> const std::vector<std::uint64_t>& {
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
    return table;
  }

 private:
  std::vector<std::vector<std::uint64_t>> levels_;
  std::vector<std::uint64_t> dead_;
};

}  // namespace statespace
