// The byte encoding of the three-state search (parity_bfs.hpp): five ranks' states
// to a byte, a rank's place (its byte and its digit there), what a level does to a
// digit, the successors of a rank fetched ahead as places, and a level's list.
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdint>
#include <vector>

#include "analysis/engines/ranked/ranked_lanes.hpp"

namespace statespace {

namespace parity_detail {

inline constexpr unsigned kPerByte = 5;
inline constexpr std::array<std::uint8_t, kPerByte> kPower = {1, 3, 9, 27, 81};

// The states of a byte's five ranks, and per state the ranks of a byte in it.
struct Digits {
  std::array<std::array<std::uint8_t, kPerByte>, 256> state{};
  std::array<std::array<std::uint8_t, 256>, 3> in{};
};
inline constexpr Digits kDigits = [] {
  Digits d;
  for (unsigned b = 0; b < 243; ++b) {
    for (unsigned i = 0, v = b; i < kPerByte; ++i, v /= 3) {
      d.state[b][i] = std::uint8_t(v % 3);
      d.in[v % 3][b] = std::uint8_t(d.in[v % 3][b] | (1u << i));
    }
  }
  return d;
}();

// A rank's place: its byte shifted past three bits, its digit there below them.
// Divided once as its successors are made, not again as each is read.
// With the byte q = r / 5 and the digit r - 5q, the place 8q + r - 5q is r + 3q.
inline constexpr unsigned kPlaceShift = 3;
inline constexpr std::uint64_t kDigitMask = (1u << kPlaceShift) - 1;
inline constexpr std::uint64_t place(std::uint64_t r) { return r + (r / kPerByte) * ((1u << kPlaceShift) - kPerByte); }
inline constexpr std::uint64_t rank_of(std::uint64_t p) { return (p >> kPlaceShift) * kPerByte + (p & kDigitMask); }

// What a level does to a digit, looked up by byte and digit together (the byte
// shifted past three bits): a classification costs two loads, not the arithmetic.
struct Step {
  static constexpr unsigned kFrontierShift = 16;
  // A rank's sum of its successors' entries keeps the two apart: a rank has fewer
  // than 2^16 moves (parity_search_applies()).
  static constexpr std::uint32_t kNew = 1, kInFrontier = 1u << kFrontierShift;
  static constexpr std::uint64_t kNewMask = kInFrontier - 1;
  // The byte with the digit marked `next` where it was not seen, else the byte.
  std::array<std::uint8_t, 256 << kPlaceShift> marked{};
  // kNew where the digit was not seen; kInFrontier where it is in state `frontier`.
  std::array<std::uint32_t, 256 << kPlaceShift> found{};
  // What marking each digit `next` adds to a byte.
  std::array<std::uint8_t, kPerByte> adds{};

  Step(std::uint8_t frontier, std::uint8_t next) {
    for (unsigned k = 0; k < kPerByte; ++k) adds[k] = std::uint8_t(next * kPower[k]);
    for (unsigned b = 0; b < 256; ++b) {
      for (unsigned k = 0; k < kPerByte; ++k) {
        const unsigned s = b < 243 ? kDigits.state[b][k] : 3, x = b << kPlaceShift | k;
        marked[x] = std::uint8_t(s == 0 ? b + adds[k] : b);
        found[x] = (s == 0 ? kNew : 0) | (s == frontier ? kInFrontier : 0);
      }
    }
  }
  [[nodiscard]] static unsigned at(std::uint8_t byte, std::uint64_t place) {
    return (unsigned(byte) << kPlaceShift) + unsigned(place & kDigitMask);
  }
  [[nodiscard]] std::uint32_t found_at(std::uint8_t byte, std::uint64_t place) const { return found[at(byte, place)]; }
  [[nodiscard]] std::uint8_t marked_at(std::uint8_t byte, std::uint64_t place) const { return marked[at(byte, place)]; }
};

// The moves of a round of ranks at a time, written into a buffer as places, the bytes
// of the round before still arriving: every successor's byte is fetched a round
// ahead, as scan_batched() fetches a rank's. One loop fetches a whole round, and the
// bytes have a round's work to arrive in, not one rank's.
template <class Expand>
class Successors {
 public:
  static constexpr std::size_t kRound = 4;  // ranks a round

  // Room for `moves` successors a rank: the two rounds close together, as the caches like.
  Successors(const Expand& e, const std::uint8_t* plane, int moves)
      : expand_(e), plane_(plane), room_(std::size_t(moves) * kRound), held_(2 * room_), batched_(batched(e)) {}

  // Reads r's successors; a round read hands the round before it to f (hand()).
  template <class F>
  void push(std::uint64_t r, const F& f) {
    Round& round = rounds_[cur_];
    std::uint64_t* const t = held_.data() + cur_ * room_ + round.filled;
    int n = 0;
    if constexpr (ranked_detail::BatchedExpand<Expand>) {
      if (batched_) n = expand_.batch(r, t);
    }
    if (n == 0) expand_(r, [&](std::uint64_t s) { t[n++] = s; });
    round.from[round.ranks] = r;
    round.count[round.ranks] = n;
    round.filled += std::size_t(n);
    assert(round.filled <= room_ && "a uniform space: at most `moves` successors a rank");
    if (++round.ranks < kRound) return;
    fetch();
    cur_ ^= 1;
    hand(f);
  }
  // Hands the ranks still held to f.
  template <class F>
  void finish(const F& f) {
    fetch();
    cur_ ^= 1;
    hand(f);
    cur_ ^= 1;
    hand(f);
  }

 private:
  struct Round {
    std::array<std::uint64_t, kRound> from{};
    std::array<int, kRound> count{};
    std::size_t ranks = 0, filled = 0;
  };

  // Turns the successors of round cur_ into places and fetches their bytes.
  void fetch() {
    std::uint64_t* t = held_.data() + cur_ * room_;
    const std::uint64_t* const end = t + rounds_[cur_].filled;
    const std::uint8_t* const plane = plane_;
#pragma GCC unroll 4
    for (; t != end; ++t) {
      const std::uint64_t p = place(*t);
      *t = p;
      __builtin_prefetch(plane + (p >> kPlaceShift));
    }
  }
  // Hands each rank of round cur_, as a place, with its successors' places, to
  // f(place, t, n), in the order read, and empties the round.
  template <class F>
  void hand(const F& f) {
    Round& round = rounds_[cur_];
    const std::uint64_t* t = held_.data() + cur_ * room_;
    for (std::size_t k = 0; k < round.ranks; ++k) {
      f(place(round.from[k]), t, round.count[k]);
      t += round.count[k];
    }
    round.ranks = 0;
    round.filled = 0;
  }

  static bool batched(const Expand& e) {
    if constexpr (ranked_detail::BatchedExpand<Expand>) {
      return e.batched();
    } else {
      return false;
    }
  }

  const Expand& expand_;
  const std::uint8_t* plane_;
  std::size_t room_;
  std::vector<std::uint64_t> held_;
  bool batched_;
  std::array<Round, 2> rounds_{};
  std::size_t cur_ = 0;
};

// The ranks of a level listed as it is found: 32 bits a rank where the space's ranks
// fit them, half the memory of 64. Room for as many as a level may list is taken
// once (start()), so a list never grows by a copy; the pages it does not fill are
// never touched. A level is listed beside the frontier's list, with the states all
// in memory: these lists are what the search holds beyond the states.
class RankList {
 public:
  explicit RankList(std::uint64_t space) : narrow_(narrow(space)) {}
  static std::uint64_t bytes_a_rank(std::uint64_t space) { return narrow(space) ? 4 : 8; }

  // Empties the list, with room for `room` ranks.
  void start(std::uint64_t room) {
    if (narrow_) {
      prepare(narrow_ranks_, room);
    } else {
      prepare(wide_ranks_, room);
    }
  }
  void push(std::uint64_t r) {
    if (narrow_) {
      narrow_ranks_.push_back(std::uint32_t(r));
    } else {
      wide_ranks_.push_back(r);
    }
  }
  [[nodiscard]] std::size_t size() const { return narrow_ ? narrow_ranks_.size() : wide_ranks_.size(); }
  [[nodiscard]] bool empty() const { return size() == 0; }
  [[nodiscard]] std::uint64_t operator[](std::size_t i) const { return narrow_ ? narrow_ranks_[i] : wide_ranks_[i]; }
  void sort() {
    std::sort(narrow_ranks_.begin(), narrow_ranks_.end());
    std::sort(wide_ranks_.begin(), wide_ranks_.end());
  }
  void release() {
    narrow_ranks_ = {};
    wide_ranks_ = {};
  }
  [[nodiscard]] std::vector<std::uint64_t> wide() const {
    if (!narrow_) return wide_ranks_;
    return {narrow_ranks_.begin(), narrow_ranks_.end()};
  }

 private:
  // Every rank of the space fits 32 bits: the largest is space - 1.
  static bool narrow(std::uint64_t space) { return space <= std::uint64_t{1} << 32; }
  template <class T>
  static void prepare(std::vector<T>& v, std::uint64_t room) {
    v.clear();
    v.reserve(std::size_t(room));
  }

  bool narrow_;
  std::vector<std::uint32_t> narrow_ranks_;
  std::vector<std::uint64_t> wide_ranks_;
};

}  // namespace parity_detail

}  // namespace statespace
