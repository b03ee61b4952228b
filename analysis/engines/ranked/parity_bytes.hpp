// The byte encoding of the three-state search (parity_bfs.hpp): five ranks' states
// to a byte, a rank's place (its byte and its digit there), what a level does to a
// digit, and the successors of a rank fetched ahead as places.
#pragma once

#include <array>
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
  // than 2^16 moves (parity_search_fits()).
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

// The moves of one rank at a time, written into a buffer as places, the bytes of the
// one before still arriving: every successor's byte is fetched ahead, as
// scan_batched() does.
template <class Expand>
class Successors {
 public:
  // Room for `moves` successors a rank: the two ranks' close together, as the caches like.
  Successors(const Expand& e, const std::uint8_t* plane, int moves)
      : expand_(e), plane_(plane), room_(std::size_t(moves)), held_(2 * room_), batched_(batched(e)) {}

  // Reads r's successors and hands the rank before it, as a place, with its
  // successors' places, to f(place, t, n).
  template <class F>
  void push(std::uint64_t r, const F& f) {
    std::uint64_t* const t = held_.data() + cur_ * room_;
    int n = 0;
    if constexpr (ranked_detail::BatchedExpand<Expand>) {
      if (batched_) n = expand_.batch(r, t);
    }
    if (n == 0) expand_(r, [&](std::uint64_t s) { t[n++] = s; });
#pragma GCC unroll 4
    for (int j = 0; j < n; ++j) {
      t[j] = place(t[j]);
      __builtin_prefetch(plane_ + (t[j] >> kPlaceShift));
    }
    from_[cur_] = place(r);
    count_[cur_] = n;
    cur_ ^= 1;
    hand(f);
  }
  // Hands the rank still held, if any, to f.
  template <class F>
  void finish(const F& f) {
    cur_ ^= 1;
    hand(f);
  }

 private:
  template <class F>
  void hand(const F& f) {
    if (count_[cur_] >= 0) f(from_[cur_], held_.data() + cur_ * room_, count_[cur_]);
    count_[cur_] = -1;
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
  std::array<std::uint64_t, 2> from_{};
  std::array<int, 2> count_{-1, -1};
  std::size_t cur_ = 0;
};

}  // namespace parity_detail

}  // namespace statespace
