// Division by a divisor fixed at run time, by a multiply and shifts (Granlund and
// Montgomery 1994, as libdivide's branch-free unsigned 64-bit division): the ranks of
// the piece models are mixed-radix numbers whose digits are taken apart for every
// position a search expands, and a hardware division costs several times more.
#pragma once

#include <bit>
#include <cstdint>

namespace statespace {

class Divider {
 public:
  Divider() = default;
  // d >= 1.
  explicit Divider(std::uint64_t d) : d_(d) {
    if (d == 1) return;
    one_ = false;
    const unsigned log = unsigned(63 - std::countl_zero(d));
    if ((d & (d - 1)) == 0) {
      magic_ = 0;
      more_ = log - 1;
      return;
    }
    // 2^(64 + log) / d fits 64 bits since d > 2^log; the magic number is twice that
    // plus the rounding, a 65th bit left implicit (the add in quotient()).
    const unsigned __int128 num = static_cast<unsigned __int128>(1) << (64 + log);
    std::uint64_t m = std::uint64_t(num / d);
    const std::uint64_t rem = std::uint64_t(num % d);
    m += m;
    const std::uint64_t twice = rem + rem;
    if (twice >= d || twice < rem) m += 1;
    magic_ = m + 1;
    more_ = log;
  }

  [[nodiscard]] std::uint64_t divisor() const { return d_; }
  // Inlined whole: an outlined part costs a call where a rank is taken apart.
  [[nodiscard, gnu::always_inline]] std::uint64_t quotient(std::uint64_t n) const {
    if (one_) return n;
    const auto q = std::uint64_t((static_cast<unsigned __int128>(magic_) * n) >> 64);
    return (((n - q) >> 1) + q) >> more_;
  }
  // The remainder of n, leaving n the quotient: the lowest digit of a mixed-radix
  // number taken off.
  [[nodiscard]] std::uint64_t take(std::uint64_t& n) const {
    const std::uint64_t q = quotient(n);
    const std::uint64_t digit = n - q * d_;
    n = q;
    return digit;
  }

 private:
  std::uint64_t d_ = 1, magic_ = 0;
  unsigned more_ = 0;
  bool one_ = true;
};

}  // namespace statespace
