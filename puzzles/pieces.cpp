#include "puzzles/pieces.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <span>
#include <stdexcept>
#include <type_traits>

#include "core/errors.hpp"
#include "core/text.hpp"

#if defined(__SSSE3__) && defined(__SSE4_1__)
#include <smmintrin.h>
#include <tmmintrin.h>
#define STATESPACE_LEHMER_SIMD 1
#endif

namespace statespace {

namespace pieces_detail {
namespace {

using Wide = unsigned __int128;
constexpr Wide kMax64 = std::numeric_limits<std::uint64_t>::max();
// Places of a set and kinds of pieces: a place's piece is written as a number up to
// 255 in .tws files, and the work arrays of the hot path live on the stack.
constexpr int kMaxPlaces = SetShape::kMaxPlaces;
// Table entries of one coordinate, and of all: 32 MB and 64 MB of 32-bit digits,
// small beside any analysis that needs the tables (turnfour's nine tiles, 9! keys
// by 12 moves, fit: its bitsets are 6 GB); a larger coordinate is moved by
// unranking it alone.
constexpr std::uint64_t kTableEntries = std::uint64_t(1) << 23;
constexpr std::uint64_t kAllTableEntries = std::uint64_t(1) << 24;
// A coordinate whose rows the cached path makes instead (Coordinate::made): a table of
// at least this many entries, above a least significant digit of at least kMadeBlock
// values (the 2x2x2: 40,320 arrangements by 18 moves, above 2,187 twists).
constexpr std::uint64_t kMadeEntries = std::uint64_t(1) << 18;
constexpr std::uint64_t kMadeBlock = 64;
// A move whose powers do not return to the identity within this many is refused.
constexpr int kMaxOrder = 1000;
// Reachable classes tracked across sets; past this many (sets whose totals all move
// independently) each set keeps only the classes no move changes, as a product.
constexpr std::size_t kMaxClasses = std::size_t(1) << 16;

using Kinds = std::array<int, kMaxPlaces + 1>;
static_assert(std::is_same_v<Kinds, decltype(SetShape::counts)>);

// The number of arrangements of `counts` (places: their sum); nothing past 2^64 - 1.
std::optional<std::uint64_t> multinomial(const int* counts, int kinds) {
  Wide m = 1;
  int placed = 0;
  for (int k = 0; k < kinds; ++k) {
    // m *= C(placed + c, c), one factor at a time: each partial product is a binomial,
    // so it divides exactly and stays below 2^64 * 255 while the result fits.
    for (int i = 1; i <= counts[k]; ++i) {
      m = m * Wide(placed + i) / Wide(i);
      if (m > kMax64) return std::nullopt;
    }
    placed += counts[k];
  }
  return std::uint64_t(m);
}

// Lexicographic rank of arrangement a[0, n) of the multiset `counts` (kinds below
// `kinds`): Knuth's multiset ranking, digit by digit with the running multinomial.
// Int holds m * c exactly: 64 bits while the total is below 2^56 (c <= 255), else
// 128, whose divisions are calls.
template <class Int>
std::uint64_t arrangement_rank_in(const int* a, int n, Kinds c, std::uint64_t total) {
  Int m = total;
  std::uint64_t r = 0;
  for (int i = 0; i < n; ++i) {
    const int rem = n - i;
    for (int v = 0; v < a[i]; ++v) {
      if (c[std::size_t(v)] != 0) r += std::uint64_t(m * Int(c[std::size_t(v)]) / Int(rem));
    }
    m = m * Int(c[std::size_t(a[i])]) / Int(rem);
    --c[std::size_t(a[i])];
  }
  return r;
}

template <class Int>
void arrangement_unrank_in(std::uint64_t r, int* a, int n, Kinds c, int kinds, std::uint64_t total) {
  Int m = total;
  for (int i = 0; i < n; ++i) {
    const int rem = n - i;
    for (int v = 0; v < kinds; ++v) {
      if (c[std::size_t(v)] == 0) continue;
      const Int sub = m * Int(c[std::size_t(v)]) / Int(rem);
      if (r < sub) {
        a[i] = v;
        m = sub;
        --c[std::size_t(v)];
        break;
      }
      r -= std::uint64_t(sub);
    }
  }
}

constexpr std::uint64_t kNarrow = std::uint64_t(1) << 56;

// Distinct pieces (every count 1) on up to 20 places, the largest factorial below
// 2^64: the same lexicographic rank through the Lehmer code, each digit the piece
// less the smaller pieces already placed (a bit mask and a popcount, no division).
constexpr int kMaxLehmer = 20;
constexpr std::array<std::uint64_t, kMaxLehmer + 1> kFactorial = [] {
  std::array<std::uint64_t, kMaxLehmer + 1> f{};
  f[0] = 1;
  for (std::size_t i = 1; i < f.size(); ++i) f[i] = f[i - 1] * i;
  return f;
}();

// Whether the arrangements of n places are the n! permutations of distinct pieces.
bool lehmer_ranked(int n, std::uint64_t total) { return n <= kMaxLehmer && total == kFactorial[std::size_t(n)]; }

std::uint64_t lehmer_rank(const int* a, int n) {
  std::uint32_t placed = 0;
  std::uint64_t r = 0;
  for (int i = 0; i + 1 < n; ++i) {
    const auto x = std::uint32_t(a[i]);
    const auto below = std::uint32_t(std::popcount(placed & ((std::uint32_t(1) << x) - 1)));
    r += (x - below) * kFactorial[std::size_t(n - 1 - i)];
    placed |= std::uint32_t(1) << x;
  }
  return r;
}

// Returns the permutation's parity: that of the sum of its Lehmer digits (each
// digit counts the inversions its place starts). Int: 32 bits when the ranks fit
// them, whose divisions are the cheaper.
template <class Int>
int lehmer_unrank_in(Int r, int* a, int n) {
  std::uint32_t left = (std::uint32_t(1) << n) - 1;  // the pieces not placed yet
  Int inversions = 0;
  for (int i = 0; i < n; ++i) {
    const auto f = Int(kFactorial[std::size_t(n - 1 - i)]);
    const Int q = r / f;
    r -= q * f;
    inversions += q;
    std::uint32_t m = left;
    for (Int j = 0; j < q; ++j) m &= m - 1;  // drop the q smallest
    a[i] = std::countr_zero(m);
    left &= ~(std::uint32_t(1) << a[i]);
  }
  return int(inversions & 1);
}

int lehmer_unrank(std::uint64_t r, int* a, int n) {
  return n <= 12 ? lehmer_unrank_in<std::uint32_t>(std::uint32_t(r), a, n) : lehmer_unrank_in<std::uint64_t>(r, a, n);
}

std::uint64_t arrangement_rank(const int* a, int n, const Kinds& c, std::uint64_t total) {
  if (lehmer_ranked(n, total)) return lehmer_rank(a, n);
  return total < kNarrow ? arrangement_rank_in<std::uint64_t>(a, n, c, total)
                         : arrangement_rank_in<Wide>(a, n, c, total);
}

void arrangement_unrank(std::uint64_t r, int* a, int n, const Kinds& c, int kinds, std::uint64_t total) {
  if (lehmer_ranked(n, total)) {
    (void)lehmer_unrank(r, a, n);
  } else if (total < kNarrow) {
    arrangement_unrank_in<std::uint64_t>(r, a, n, c, kinds, total);
  } else {
    arrangement_unrank_in<Wide>(r, a, n, c, kinds, total);
  }
}

// 1 for an odd permutation of distinct kinds 0..n-1, by its cycles.
int parity(const int* a, int n) {
  std::array<bool, kMaxPlaces + 1> seen{};
  int p = 0;
  for (int i = 0; i < n; ++i) {
    if (seen[std::size_t(i)]) continue;
    int length = 0;
    for (int j = i; !seen[std::size_t(j)]; j = a[j]) {
      seen[std::size_t(j)] = true;
      ++length;
    }
    p ^= (length + 1) & 1;
  }
  return p;
}

int parity(const std::vector<int>& a) { return parity(a.data(), int(a.size())); }

// The turn of an even permutation x of 3 or 4 places: A3 is Z3 (x turns 0, 1, 2
// round by x[0]); A4 permutes the three ways of pairing four places ({0,1}{2,3},
// {0,2}{1,3}, {0,3}{1,2}, numbered by 0's partner less one) by a turn, the quotient
// of A4 by the Klein four-group. Either way the turn of a product is the sum of the turns.
int turn(const int* x, int n) {
  if (n == 3) return x[0];
  const int a = x[0], b = x[1];  // pairing 0 goes to the one pairing a with b
  if (a == 0) return b - 1;
  if (b == 0) return a - 1;
  return 5 - a - b;  // 0's partner is the place of 1..3 that is neither a nor b
}

// Parity and turn as one value of Z6 (Chinese remainders: 3 carries the parity, 4 the turn).
int parity_turn(int parity, int turn) { return (3 * parity + 4 * turn) % 6; }

struct Split {
  int cls = 0;
  std::uint64_t digit = 0;
};

Split perm_split(const SetShape& v, const int* a) {
  const std::uint64_t r = arrangement_rank(a, v.n, v.counts, v.arrangements);
  switch (v.perm) {
    case PermSplit::parity:
      return {parity(a, v.n), r / 2};
    case PermSplit::parity_turn:
      return {v.class_of[r], v.index_of[r]};
    case PermSplit::full:
      break;
  }
  return {0, r};
}

void perm_join(const SetShape& v, int cls, std::uint64_t d, int* a) {
  switch (v.perm) {
    case PermSplit::parity: {
      // Distinct pieces: rank 2d + 1 is rank 2d with its last two places swapped.
      const int odd = lehmer_ranked(v.n, v.arrangements)
                          ? lehmer_unrank(2 * d, a, v.n)
                          : (arrangement_unrank(2 * d, a, v.n, v.counts, v.kinds, v.arrangements), parity(a, v.n));
      if (odd != cls) std::swap(a[v.n - 2], a[v.n - 1]);
      return;
    }
    case PermSplit::parity_turn:
      arrangement_unrank(v.rank_of[std::size_t(cls) * v.perm_space + d], a, v.n, v.counts, v.kinds, v.arrangements);
      return;
    case PermSplit::full:
      break;
  }
  arrangement_unrank(d, a, v.n, v.counts, v.kinds, v.arrangements);
}

Split twist_split(const SetShape& v, const int* d) {
  if (v.twist == TwistSplit::none) return {};
  const int written = v.twist == TwistSplit::total ? v.n - 1 : v.n;
  std::uint64_t r = 0;
  int sum = 0;
  for (int i = 0; i < v.n; ++i) {
    if (i < written) r = r * std::uint64_t(v.orientations) + std::uint64_t(d[i]);
    sum += d[i];
  }
  return {v.twist == TwistSplit::total ? sum % v.orientations : 0, r};
}

void twist_join(const SetShape& v, int cls, std::uint64_t r, int* d) {
  if (v.twist == TwistSplit::none) {
    std::fill(d, d + v.n, 0);
    return;
  }
  const int written = v.twist == TwistSplit::total ? v.n - 1 : v.n;
  int sum = 0;
  for (int i = written; i-- > 0;) {
    d[i] = int(r % std::uint64_t(v.orientations));
    r /= std::uint64_t(v.orientations);
    sum += d[i];
  }
  if (v.twist == TwistSplit::total) d[v.n - 1] = ((cls - sum) % v.orientations + v.orientations) % v.orientations;
}

// What a move adds to the classes of a set's arrangement and of its twists.
int perm_shift(const SetShape& v, const std::vector<int>& perm) {
  switch (v.perm) {
    case PermSplit::parity:
      return parity(perm);
    case PermSplit::parity_turn:  // every move is even on the set
      return parity_turn(0, turn(perm.data(), v.n));
    case PermSplit::full:
      break;
  }
  return 0;
}

int twist_shift(const SetShape& v, const std::vector<int>& twist) {
  if (v.twist != TwistSplit::total) return 0;
  return std::accumulate(twist.begin(), twist.end(), 0) % v.orientations;
}

// The classes, the free spaces and, for parity_turn, the rank tables of a set whose
// splits are chosen; `solved`: the solved state's arrangement (distinct kinds for
// parity_turn), against which the turn is read.
void shape_classes(SetShape& v, const std::vector<int>& solved) {
  v.perm_classes = v.perm == PermSplit::parity ? 2 : v.perm == PermSplit::parity_turn ? 6 : 1;
  v.perm_space = v.arrangements / std::uint64_t(v.perm_classes);
  v.class_of.clear();
  v.index_of.clear();
  v.rank_of.clear();
  if (v.perm == PermSplit::parity_turn) {
    // The turn of (solved^-1 a), an even permutation in the solved state's parity;
    // the other parity's arrangements (no move reaches them) are numbered as the
    // turns of (solved^-1 a) with places 0 and 1 swapped, so that each class holds
    // arrangements / 6.
    std::array<int, kMaxPlaces + 1> inverse{}, a{}, x{};
    for (int i = 0; i < v.n; ++i) inverse[std::size_t(solved[std::size_t(i)])] = i;
    std::array<std::uint8_t, 6> filled{};
    v.class_of.resize(v.arrangements);
    v.index_of.resize(v.arrangements);
    v.rank_of.resize(v.arrangements);
    for (std::uint64_t r = 0; r < v.arrangements; ++r) {
      arrangement_unrank(r, a.data(), v.n, v.counts, v.kinds, v.arrangements);
      for (int i = 0; i < v.n; ++i) x[std::size_t(i)] = inverse[std::size_t(a[std::size_t(i)])];
      if (parity(x.data(), v.n) != 0) std::swap(x[0], x[1]);
      const int cls = parity_turn(parity(a.data(), v.n), turn(x.data(), v.n));
      v.class_of[r] = std::uint8_t(cls);
      v.index_of[r] = filled[std::size_t(cls)];
      v.rank_of[std::size_t(cls) * v.perm_space + filled[std::size_t(cls)]++] = std::uint8_t(r);
    }
  }
  v.twist_classes = v.twist == TwistSplit::total ? v.orientations : 1;
  v.twist_space = 1;
  const int written = v.twist == TwistSplit::none ? 0 : v.twist == TwistSplit::total ? v.n - 1 : v.n;
  for (int i = 0; i < written; ++i) v.twist_space *= std::uint64_t(v.orientations);
}

#ifdef STATESPACE_LEHMER_SIMD
// The Lehmer ranks of the arrangements a set of n <= 12 distinct pieces (ranks below
// 2^32) takes under each move of `list`, 16 places to a register: the move is one
// shuffle of the arrangement, the digits (how many later places hold a smaller
// piece) are the sums of 11 compares against the arrangement shifted by 1..11
// places (the places past n hold 127, never smaller), and their weights, the
// factorials, are applied in three rounds of pairs: F[k+1] = (k+1) F[k] makes
// c_i F[n-1-i] + c_{i+1} F[n-2-i] = (c_i (n-1-i) + c_{i+1}) F[n-2-i], byte factors
// (n-1-i), then 16-bit factors, then 32-bit multiplies and a horizontal sum.
template <class Digit>
void lehmer_row_simd(const int* a, int n, bool halved, std::size_t k, std::span<const PieceMove> list, Digit* row) {
  constexpr std::uint8_t kPad = 127;
  alignas(16) std::array<std::uint8_t, 16> pieces{};
  pieces.fill(kPad);
  for (int i = 0; i < n; ++i) pieces[std::size_t(i)] = std::uint8_t(a[i]);
  // The digit of place i weighs F[n-1-i]; the last place's digit is always 0.
  const auto factorial = [&](int i) -> std::int64_t { return i < 0 ? 0 : std::int64_t(kFactorial[std::size_t(i)]); };
  alignas(16) std::array<std::int8_t, 16> pair_factor{};  // places 2j and 2j+1
  for (int j = 0; 2 * j < n - 1; ++j) {
    pair_factor[std::size_t(2 * j)] = std::int8_t(n - 1 - 2 * j);
    pair_factor[std::size_t(2 * j + 1)] = std::int8_t(2 * j + 1 < n - 1 ? 1 : 0);
  }
  // Pair j (16 bits) weighs G_j = F[n-2-2j]; quad q joins pairs 2q and 2q+1.
  alignas(16) std::array<std::int16_t, 8> quad_factor{};
  alignas(16) std::array<std::int32_t, 4> quad_weight{};
  for (int q = 0; q < 4; ++q) {
    const std::int64_t g0 = factorial(n - 2 - 4 * q), g1 = factorial(n - 4 - 4 * q);
    if (g1 > 0) {
      quad_factor[std::size_t(2 * q)] = std::int16_t(g0 / g1);
      quad_factor[std::size_t(2 * q + 1)] = 1;
      quad_weight[std::size_t(q)] = std::int32_t(g1);
    } else if (g0 > 0) {
      quad_factor[std::size_t(2 * q)] = 1;
      quad_weight[std::size_t(q)] = std::int32_t(g0);
    }
  }
  const __m128i arrangement = _mm_load_si128(reinterpret_cast<const __m128i*>(pieces.data()));
  const __m128i pad = _mm_set1_epi8(char(kPad));
  const __m128i bytes = _mm_load_si128(reinterpret_cast<const __m128i*>(pair_factor.data()));
  const __m128i words = _mm_load_si128(reinterpret_cast<const __m128i*>(quad_factor.data()));
  const __m128i weights = _mm_load_si128(reinterpret_cast<const __m128i*>(quad_weight.data()));
  // The shuffle reads place perm[i] into place i, and a padding place past n.
  const __m128i past = _mm_set1_epi32(15);
  alignas(16) std::array<std::uint8_t, 16> shuffle{};
  for (std::size_t i = std::size_t(n); i < 16; ++i) shuffle[i] = 15;
  for (std::size_t m = 0; m < list.size(); ++m) {
    const int* perm = list[m].transform.perm[k].data();
    __m128i order;
    if (n == 12) {  // the move's 12 places packed from 32 bits to 8
      const auto at = [&](int i) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(perm + i)); };
      order = _mm_packus_epi16(_mm_packs_epi32(at(0), at(4)), _mm_packs_epi32(at(8), past));
    } else {
      for (int i = 0; i < n; ++i) shuffle[std::size_t(i)] = std::uint8_t(perm[i]);
      order = _mm_load_si128(reinterpret_cast<const __m128i*>(shuffle.data()));
    }
    const __m128i b = _mm_shuffle_epi8(arrangement, order);
    __m128i digits = _mm_setzero_si128();
    // Subtracting the compares' -1s counts them.
#define STATESPACE_LEHMER_STEP(s) digits = _mm_sub_epi8(digits, _mm_cmpgt_epi8(b, _mm_alignr_epi8(pad, b, s)))
    STATESPACE_LEHMER_STEP(1);
    STATESPACE_LEHMER_STEP(2);
    STATESPACE_LEHMER_STEP(3);
    STATESPACE_LEHMER_STEP(4);
    STATESPACE_LEHMER_STEP(5);
    STATESPACE_LEHMER_STEP(6);
    STATESPACE_LEHMER_STEP(7);
    STATESPACE_LEHMER_STEP(8);
    STATESPACE_LEHMER_STEP(9);
    STATESPACE_LEHMER_STEP(10);
    STATESPACE_LEHMER_STEP(11);
#undef STATESPACE_LEHMER_STEP
    const __m128i pairs = _mm_maddubs_epi16(digits, bytes);
    __m128i sum = _mm_mullo_epi32(_mm_madd_epi16(pairs, words), weights);
    sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, 0x4E));
    sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, 0xB1));
    const auto r = std::uint32_t(_mm_cvtsi128_si32(sum));
    row[m] = Digit(halved ? r >> 1 : r);
  }
}
#endif

// Whether arrangement a read through perm (place i holding a[perm[i]]; a itself when
// perm is null) puts a piece where one of v's guards forbids it.
bool forbidden_through(const SetShape& v, const int* a, const int* perm) {
  for (const PlaceGuard& g : v.guards) {
    if (g.forbids(a[perm != nullptr ? perm[g.place] : g.place])) return true;
  }
  return false;
}

// With `bad`, on an arrangement with guards: bad[m] = 1 for each move of `list` that
// takes arrangement a where a guard forbids; returns whether a itself is forbidden.
bool mark_forbidden(const SetShape& v, bool orientation, const int* a, std::size_t k, std::span<const PieceMove> list,
                    std::uint8_t* bad) {
  if (bad == nullptr || orientation || v.guards.empty()) return false;
  for (std::size_t m = 0; m < list.size(); ++m) {
    if (forbidden_through(v, a, list[m].transform.perm[k].data())) bad[m] = 1;
  }
  return forbidden_through(v, a, nullptr);
}

// The digit of a set's coordinate (its arrangement, or its twists when
// `orientation`) of class `cls` after each move of `list`, into row[0, list.size()):
// the coordinate is unranked once for the whole row. With `bad`, the Illegal lines
// are checked on that arrangement too (mark_forbidden()).
// (Digit: the tables' 32 bits, or 64 for a coordinate too large for a table.)
template <class Digit>
bool moved_row(const SetShape& v, bool orientation, int cls, std::uint64_t digit, std::size_t k,
               std::span<const PieceMove> list, Digit* row, std::uint8_t* bad = nullptr) {
  if (!orientation && v.perm != PermSplit::parity_turn && lehmer_ranked(v.n, v.arrangements)) {
    // Distinct pieces: each move's arrangement ranked as it is read through the
    // move, without being stored. Under a parity the digit is rank / 2, and every
    // factorial weight but the last two (0 or 1 together) is even: halved, and the
    // last two places left out.
    // A move that keeps places 0..p-1 keeps their Lehmer digits too (the pieces
    // after each of them are the same pieces): those come from the position's own.
    std::array<int, kMaxLehmer> a{};
    perm_join(v, cls, digit, a.data());
    const bool forbidden = mark_forbidden(v, orientation, a.data(), k, list, bad);
    const bool halved = v.perm == PermSplit::parity;
#ifdef STATESPACE_LEHMER_SIMD
    if (v.n <= 12) {
      lehmer_row_simd(a.data(), v.n, halved, k, list, row);
      return forbidden;
    }
#endif
    const int ranked = halved ? v.n - 2 : v.n - 1;
    std::array<std::uint64_t, kMaxLehmer> weight{};
    std::array<std::uint64_t, kMaxLehmer + 1> sum{};     // sum[i]: of the digits before place i
    std::array<std::uint32_t, kMaxLehmer + 1> placed{};  // placed[i]: the pieces at places before i
    for (int i = 0; i < ranked; ++i) {
      const auto at = std::size_t(i);
      const auto x = std::uint32_t(a[at]);
      weight[at] = kFactorial[std::size_t(v.n - 1 - i)] >> (halved ? 1 : 0);
      sum[at + 1] =
          sum[at] + (x - std::uint32_t(std::popcount(placed[at] & ((std::uint32_t(1) << x) - 1)))) * weight[at];
      placed[at + 1] = placed[at] | std::uint32_t(1) << x;
    }
    for (std::size_t m = 0; m < list.size(); ++m) {
      const int* perm = list[m].transform.perm[k].data();
      int i = 0;
      while (i < ranked && perm[i] == i) ++i;
      std::uint32_t seen = placed[std::size_t(i)];
      std::uint64_t r = sum[std::size_t(i)];
      for (; i < ranked; ++i) {
        const auto x = std::uint32_t(a[std::size_t(perm[i])]);
        r += (x - std::uint32_t(std::popcount(seen & ((std::uint32_t(1) << x) - 1)))) * weight[std::size_t(i)];
        seen |= std::uint32_t(1) << x;
      }
      row[m] = Digit(r);
    }
    return forbidden;
  }
  std::array<int, kMaxPlaces + 1> a{}, b{};
  if (orientation) {
    twist_join(v, cls, digit, a.data());
  } else {
    perm_join(v, cls, digit, a.data());
  }
  const bool forbidden = mark_forbidden(v, orientation, a.data(), k, list, bad);
  for (std::size_t m = 0; m < list.size(); ++m) {
    const auto& perm = list[m].transform.perm[k];
    if (orientation) {
      const auto& twist = list[m].transform.twist[k];
      for (int i = 0; i < v.n; ++i) {
        b[std::size_t(i)] = (a[std::size_t(perm[std::size_t(i)])] + twist[std::size_t(i)]) % v.orientations;
      }
      row[m] = Digit(twist_split(v, b.data()).digit);
    } else {
      for (int i = 0; i < v.n; ++i) b[std::size_t(i)] = a[std::size_t(perm[std::size_t(i)])];
      row[m] = Digit(v.perm == PermSplit::parity ? arrangement_rank(b.data(), v.n, v.counts, v.arrangements) / 2
                                                 : perm_split(v, b.data()).digit);
    }
  }
  return forbidden;
}

// Transforms: `a` then `b`, as twsearch multiplies positions by moves.
PieceTransform then(const PieceDefinition& d, const PieceTransform& a, const PieceTransform& b) {
  PieceTransform c = b;
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    const int o = d.sets[k].orientations;
    for (std::size_t i = 0; i < b.perm[k].size(); ++i) {
      const auto from = std::size_t(b.perm[k][i]);
      c.perm[k][i] = a.perm[k][from];
      c.twist[k][i] = (a.twist[k][from] + b.twist[k][i]) % o;
    }
  }
  return c;
}

PieceTransform identity(const PieceDefinition& d) {
  PieceTransform t;
  for (const auto& set : d.sets) {
    std::vector<int> p(std::size_t(set.size));
    std::iota(p.begin(), p.end(), 0);
    t.perm.push_back(p);
    t.twist.emplace_back(std::size_t(set.size), 0);
  }
  return t;
}

PieceTransform inverse(const PieceDefinition& d, const PieceTransform& t) {
  PieceTransform u = t;
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    const int o = d.sets[k].orientations;
    for (std::size_t i = 0; i < t.perm[k].size(); ++i) {
      const auto j = std::size_t(t.perm[k][i]);
      u.perm[k][j] = int(i);
      u.twist[k][j] = (o - t.twist[k][i]) % o;
    }
  }
  return u;
}

// Whether every position has one successor per move and none of them itself
// (Tables::regular asks the moves to be undirected too). A move leaves no position
// in place when it moves or twists some set of distinct pieces: a position keeps
// such a set only under the identity on it.
bool moves_change_every_position(const PieceDefinition& d, const std::vector<SetShape>& shapes,
                                 const std::vector<PieceMove>& moves) {
  return std::all_of(moves.begin(), moves.end(), [&](const PieceMove& m) {
    for (std::size_t k = 0; k < d.sets.size(); ++k) {
      if (shapes[k].kinds != shapes[k].n) continue;  // identical pieces may swap unseen
      for (std::size_t i = 0; i < m.transform.perm[k].size(); ++i) {
        if (m.transform.perm[k][i] != int(i) || m.transform.twist[k][i] % d.sets[k].orientations != 0) return true;
      }
    }
    return false;
  });
}

// Sizes and values of a transform against the sets; `position`: perm holds pieces
// (any numbers, repeats allowed) rather than places.
void check_transform(const PieceDefinition& d, const PieceTransform& t, bool position, const std::string& what) {
  if (t.perm.size() != d.sets.size() || t.twist.size() != d.sets.size()) {
    throw ParseError(what + ": " + std::to_string(t.perm.size()) + " sets, expected " + std::to_string(d.sets.size()));
  }
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    const auto& set = d.sets[k];
    const auto n = std::size_t(set.size);
    if (t.perm[k].size() != n || t.twist[k].size() != n) {
      throw ParseError(what + ": set " + set.name + " has " + std::to_string(t.perm[k].size()) + " places, expected " +
                       std::to_string(n));
    }
    std::vector<bool> seen(n);
    for (std::size_t i = 0; i < n; ++i) {
      const int v = t.perm[k][i];
      if (position ? (v < 0 || v >= kMaxPlaces) : (v < 0 || std::size_t(v) >= n || seen[std::size_t(v)])) {
        throw ParseError(what + ": set " + set.name + " is not a permutation of its " + std::to_string(n) + " places");
      }
      if (!position) seen[std::size_t(v)] = true;
      if (t.twist[k][i] < 0 || t.twist[k][i] >= set.orientations) {
        throw ParseError(what + ": set " + set.name + " has a twist outside 0.." +
                         std::to_string(set.orientations - 1));
      }
    }
  }
}

// The moves of `metric` from the chosen definition moves, without repeats or the identity.
std::vector<PieceMove> expand(const PieceDefinition& d, PieceMetric metric, const std::vector<const PieceMove*>& base) {
  const PieceTransform id = identity(d);
  std::vector<PieceMove> out;
  const auto add = [&](std::string name, PieceTransform t) {
    if (t == id) return;
    for (const auto& m : out) {
      if (m.transform == t) return;
    }
    out.push_back({std::move(name), std::move(t)});
  };
  for (const PieceMove* m : base) {
    if (metric == PieceMetric::given) {
      add(m->name, m->transform);
    } else if (metric == PieceMetric::quarter) {
      add(m->name, m->transform);
      add(m->name + "'", inverse(d, m->transform));
    } else {
      std::vector<PieceTransform> powers;
      for (PieceTransform p = m->transform; !(p == id); p = then(d, p, m->transform)) {
        if (int(powers.size()) == kMaxOrder) {
          throw ParseError("move " + m->name + ": its powers do not return to the start within " +
                           std::to_string(kMaxOrder) + " turns");
        }
        powers.push_back(p);
      }
      // Named as twsearch names them: R, R2, ..., R2', R' (the shorter way round).
      const int order = int(powers.size()) + 1;
      for (int j = 1; j < order; ++j) {
        const int turns = order - j < j ? j - order : j;
        std::string name = m->name;
        if (turns != 1 && turns != -1) name += std::to_string(turns < 0 ? -turns : turns);
        if (turns < 0) name += "'";
        add(name, powers[std::size_t(j - 1)]);
      }
    }
  }
  return out;
}

}  // namespace

std::vector<PieceMove> metric_moves(const PieceDefinition& d, PieceMetric metric,
                                    const std::vector<std::string>& chosen, std::vector<std::string>& chosen_out) {
  if (d.sets.empty()) throw ParseError("no sets of pieces");
  for (const auto& set : d.sets) {
    if (set.size < 1 || set.size > kMaxPlaces || set.orientations < 1 || set.orientations > kMaxPlaces) {
      throw ParseError("set " + set.name + ": 1 to " + std::to_string(kMaxPlaces) + " places and orientations");
    }
  }
  check_transform(d, d.solved, true, "the solved state");
  for (const auto& m : d.moves) check_transform(d, m.transform, false, "move " + m.name);
  for (const auto& r : d.rotations) check_transform(d, r.transform, false, "rotation " + r.name);

  // The chosen moves, in the definition's order.
  std::vector<const PieceMove*> base;
  for (const auto& name : chosen) {
    if (std::none_of(d.moves.begin(), d.moves.end(), [&](const PieceMove& m) { return m.name == name; })) {
      if (std::any_of(d.rotations.begin(), d.rotations.end(), [&](const PieceMove& r) { return r.name == name; })) {
        throw ParseError("'" + name + "' turns the whole puzzle: a symmetry, not a move");
      }
      std::string names;
      for (const auto& m : d.moves) names += (names.empty() ? "" : ", ") + m.name;
      throw ParseError("unknown move '" + name + "' (expected some of: " + names + ")");
    }
  }
  chosen_out.clear();
  for (const auto& m : d.moves) {
    if (chosen.empty() || std::find(chosen.begin(), chosen.end(), m.name) != chosen.end()) {
      base.push_back(&m);
      chosen_out.push_back(m.name);
    }
  }
  auto moves = expand(d, metric, base);
  if (moves.empty()) throw ParseError("no move changes the position");
  return moves;
}

PieceTransform inverse_transform(const PieceDefinition& d, const PieceTransform& t) { return inverse(d, t); }
PieceTransform identity_transform(const PieceDefinition& d) { return identity(d); }
PieceTransform then_transform(const PieceDefinition& d, const PieceTransform& a, const PieceTransform& b) {
  return then(d, a, b);
}

std::vector<std::vector<std::string>> piece_labels(const PieceDefinition& d) {
  std::vector<std::vector<std::string>> out;
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    const std::set<int> kinds(d.solved.perm[k].begin(), d.solved.perm[k].end());
    auto& labels = out.emplace_back();
    for (const int v : kinds) labels.push_back(std::to_string(v + 1));
  }
  return out;
}

std::string format_piece_position(const PieceDefinition& d, const std::vector<std::vector<std::string>>& labels,
                                  const PiecePosition& p) {
  std::string out;
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    const auto& set = d.sets[k];
    if (!out.empty()) out += " / ";
    out += set.name;
    // Appended piece by piece: `" " + label` makes GCC 12 report -Wrestrict false
    // positives inside libstdc++ here.
    for (const int x : p.perm[k]) {
      out += ' ';
      out += labels[k][std::size_t(x)];
    }
    if (set.orientations == 1) continue;
    out += " /";
    for (const int x : p.twist[k]) {
      out += ' ';
      out += std::to_string(x);
    }
  }
  return out;
}

PiecePosition read_piece_position(const PieceDefinition& d, const std::vector<std::vector<std::string>>& labels,
                                  std::string_view text) {
  const auto fail = [](const std::string& problem) { throw ParseError(problem); };
  // Rows by '/' or line breaks, tokens by spaces or commas.
  std::vector<std::vector<std::string>> rows(1);
  std::string token;
  const auto end_token = [&] {
    if (!token.empty()) rows.back().push_back(token);
    token.clear();
  };
  for (const char ch : text) {
    if (ch == '/' || ch == '\n') {
      end_token();
      rows.emplace_back();
    } else if (ch == ' ' || ch == '\t' || ch == ',' || ch == '\r') {
      end_token();
    } else {
      token += ch;
    }
  }
  end_token();
  std::erase_if(rows, [](const auto& row) { return row.empty(); });
  PiecePosition p;
  std::size_t row = 0;
  for (std::size_t k = 0; k < d.sets.size(); ++k) {
    const auto& set = d.sets[k];
    const auto n = std::size_t(set.size);
    if (row >= rows.size() || rows[row].front() != set.name) fail("set " + set.name + " missing or out of order");
    if (rows[row].size() != n + 1) fail("set " + set.name + " needs " + std::to_string(n) + " pieces");
    std::vector<int> perm;
    for (std::size_t i = 1; i <= n; ++i) {
      const auto at = std::find(labels[k].begin(), labels[k].end(), rows[row][i]);
      if (at == labels[k].end()) fail("set " + set.name + " has no piece '" + rows[row][i] + "'");
      perm.push_back(int(at - labels[k].begin()));
    }
    ++row;
    std::vector<int> twist(n, 0);
    if (set.orientations > 1) {
      if (row >= rows.size() || rows[row].size() != n) {
        fail("set " + set.name + " needs a row of " + std::to_string(n) + " twists after its pieces");
      }
      for (std::size_t i = 0; i < n; ++i) {
        const std::string& x = rows[row][i];
        if (x.empty() || x.size() > 3 ||
            !std::all_of(x.begin(), x.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
          fail("twist '" + x + "' of set " + set.name + " is not a number (expected a whole number from 0 to " +
               std::to_string(set.orientations - 1) + ")");
        twist[i] = std::stoi(x);
      }
      ++row;
    }
    p.perm.push_back(std::move(perm));
    p.twist.push_back(std::move(twist));
  }
  if (row != rows.size()) fail("more rows than the sets have");
  return p;
}

namespace {

// A position flat over the sets, and the work arrays of its rank: one per thread, so
// that canonical_rank allocates nothing once warm (the engines call it from their
// worker threads, for every successor).
struct FlatPosition {
  std::vector<int> perm, twist, cls;
  std::vector<std::uint64_t> digit;
};

void flat_unrank(const Tables& t, std::uint64_t r, FlatPosition& p) {
  const std::size_t sets = t.definition.sets.size();
  const std::vector<int>& cls = t.classes[std::size_t(r % t.classes.size())];
  r /= t.classes.size();
  p.digit.assign(2 * sets, 0);
  for (std::size_t i = t.coordinates.size(); i-- > 0;) {
    const Coordinate& c = t.coordinates[i];
    p.digit[2 * std::size_t(c.set) + (c.orientation ? 1 : 0)] = r % c.space;
    r /= c.space;
  }
  std::size_t off = 0;
  for (std::size_t k = 0; k < sets; ++k) {
    perm_join(t.shapes[k], cls[2 * k], p.digit[2 * k], p.perm.data() + off);
    twist_join(t.shapes[k], cls[2 * k + 1], p.digit[2 * k + 1], p.twist.data() + off);
    off += std::size_t(t.shapes[k].n);
  }
}

// The rank of a position of a reachable class (an image of one under the group).
std::uint64_t flat_rank(const Tables& t, FlatPosition& p) {
  const std::size_t sets = t.definition.sets.size();
  p.cls.resize(2 * sets);
  p.digit.resize(2 * sets);
  std::size_t off = 0;
  for (std::size_t k = 0; k < sets; ++k) {
    const SetShape& v = t.shapes[k];
    const Split a = perm_split(v, p.perm.data() + off);
    const Split w = twist_split(v, p.twist.data() + off);
    p.cls[2 * k] = a.cls;
    p.cls[2 * k + 1] = w.cls;
    p.digit[2 * k] = a.digit;
    p.digit[2 * k + 1] = w.digit;
    off += std::size_t(v.n);
  }
  const auto at = std::lower_bound(t.classes.begin(), t.classes.end(), p.cls);
  std::uint64_t r = std::uint64_t(at - t.classes.begin());
  for (const Coordinate& c : t.coordinates) r += c.weight * p.digit[2 * std::size_t(c.set) + (c.orientation ? 1 : 0)];
  return r;
}

// q = g's conjugate of p (Conjugation); q's perm and twist sized as p's.
void conjugate(const Tables& t, const Conjugation& g, const FlatPosition& p, FlatPosition& q) {
  std::size_t off = 0;
  for (std::size_t k = 0; k < t.shapes.size(); ++k) {
    const int n = t.shapes[k].n, o = t.shapes[k].orientations;
    const auto& map = g.kind_map[k];
    const auto& turn = g.kind_twist[k];
    for (std::size_t i = off; i < off + std::size_t(n); ++i) {
      const auto from = std::size_t(g.from[i]);
      const auto kind = std::size_t(p.perm[from]);
      q.perm[i] = map[kind];
      // A wild kind's twist is 0 in every position, also in the conjugate.
      const bool wild = !g.wild[k].empty() && g.wild[k][std::size_t(map[kind])];
      q.twist[i] = wild ? 0 : (p.twist[from] + g.add[i] + turn[kind]) % o;
    }
    off += std::size_t(n);
  }
}

// flat_a is admitted()'s own: it runs inside successor loops whose callers may
// be using flat_p and flat_q.
thread_local FlatPosition flat_p, flat_q, flat_a;

void size_flat(const Tables& t) {
  std::size_t places = 0;
  for (const auto& v : t.shapes) places += std::size_t(v.n);
  for (FlatPosition* f : {&flat_p, &flat_q, &flat_a}) {
    f->perm.resize(places);
    f->twist.resize(places);
  }
}

}  // namespace

namespace {

// Illegal lines alone: only the arrangements of the sets they name are decoded.
bool arrangements_allowed(const Tables& t, std::uint64_t r) {
  thread_local std::vector<int> a;
  const std::vector<int>& cls = t.classes[std::size_t(r % t.classes.size())];
  std::size_t off = 0;
  for (std::size_t k = 0; k < t.shapes.size(); ++k) {
    const SetShape& v = t.shapes[k];
    const auto n = std::size_t(v.n);
    bool named = false;
    for (std::size_t i = off; i < off + n && !named; ++i) named = !t.forbidden[i].empty();
    if (named) {
      std::uint64_t digit = 0;
      for (const Coordinate& c : t.coordinates) {
        if (c.set == int(k) && !c.orientation) digit = r / c.weight % c.space;
      }
      a.resize(n);
      perm_join(v, cls[2 * k], digit, a.data());
      for (std::size_t i = 0; i < n; ++i) {
        const auto& no = t.forbidden[off + i];
        if (!no.empty() && no[std::size_t(a[i])]) return false;
      }
    }
    off += n;
  }
  return true;
}

}  // namespace

int self_loops_by_moves(const Tables& t, std::uint64_t r) {
  int loops = 0;
  const auto count = [&](std::uint64_t s) { loops += s == r ? 1 : 0; };
  step<false>(t, r, count);
  return loops;
}

std::uint64_t admitted(const Tables& t, std::uint64_t r) {
  if (std::all_of(t.wild.begin(), t.wild.end(), [](const auto& w) { return w.empty(); })) {
    return arrangements_allowed(t, r) ? r : kNotAdmitted;
  }
  size_flat(t);
  flat_unrank(t, r, flat_a);
  for (std::size_t i = 0; i < t.forbidden.size(); ++i) {
    if (!t.forbidden[i].empty() && t.forbidden[i][std::size_t(flat_a.perm[i])]) return kNotAdmitted;
  }
  bool changed = false;
  std::size_t off = 0;
  for (std::size_t k = 0; k < t.shapes.size(); ++k) {
    const auto n = std::size_t(t.shapes[k].n);
    if (k < t.wild.size() && !t.wild[k].empty()) {
      for (std::size_t i = off; i < off + n; ++i) {
        if (t.wild[k][std::size_t(flat_a.perm[i])] && flat_a.twist[i] != 0) {
          flat_a.twist[i] = 0;
          changed = true;
        }
      }
    }
    off += n;
  }
  return changed ? flat_rank(t, flat_a) : r;
}

std::uint64_t canonical_rank(const Tables& t, const Symmetry& s, std::uint64_t r) {
  if (s.group.empty()) return r;
  size_flat(t);
  flat_unrank(t, r, flat_p);
  std::uint64_t least = r;
  for (const Conjugation& g : s.group) {
    conjugate(t, g, flat_p, flat_q);
    least = std::min(least, flat_rank(t, flat_q));
  }
  return least;
}

std::uint64_t orbit_size(const Tables& t, const Symmetry& s, std::uint64_t r) {
  if (s.group.empty()) return 1;
  size_flat(t);
  flat_unrank(t, r, flat_p);
  std::uint64_t fixed = 1;  // the identity
  for (const Conjugation& g : s.group) {
    conjugate(t, g, flat_p, flat_q);
    if (flat_q.perm == flat_p.perm && flat_q.twist == flat_p.twist) ++fixed;
  }
  return (s.group.size() + 1) / fixed;
}

bool move_digits(const Tables& t, const Coordinate& c, std::uint64_t key, const PieceMove* moves, std::size_t count,
                 std::uint64_t* out, std::uint32_t* bad) {
  const auto k = std::size_t(c.set);
  const int cls = c.classes[std::size_t(key / c.space)];
  const SetShape& v = t.shapes[k];
  if (bad == nullptr || c.orientation || v.guards.empty()) {
    moved_row(v, c.orientation, cls, key % c.space, k, std::span(moves, count), out);
    return false;
  }
  std::array<std::uint8_t, 32> moved{};
  const bool forbidden = moved_row(v, c.orientation, cls, key % c.space, k, std::span(moves, count), out, moved.data());
  for (std::size_t j = 0; j < count; ++j) *bad |= std::uint32_t(moved[j]) << j;
  return forbidden;
}

}  // namespace pieces_detail

using namespace pieces_detail;

Pieces::Pieces(const PieceDefinition& definition, PieceMetric metric, const std::vector<std::string>& chosen) {
  auto t = std::make_shared<Tables>();
  t->definition = definition;
  t->metric = metric;
  // A set whose every piece's twist is a wildcard counts no twist: one orientation.
  for (std::size_t k = 0; k < t->definition.wild.size(); ++k) {
    auto& wild = t->definition.wild[k];
    if (wild.empty() || !std::all_of(wild.begin(), wild.end(), [](bool w) { return w; })) continue;
    if (k >= t->definition.sets.size()) break;
    wild.clear();
    t->definition.sets[k].orientations = 1;
    const auto still = [&](PieceTransform& x) {
      if (k < x.twist.size()) std::fill(x.twist[k].begin(), x.twist[k].end(), 0);
    };
    still(t->definition.solved);
    for (auto& m : t->definition.moves) still(m.transform);
    for (auto& m : t->definition.rotations) still(m.transform);
  }
  auto& wild = t->definition.wild;
  if (std::all_of(wild.begin(), wild.end(), [](const auto& w) { return w.empty(); })) wild.clear();
  const PieceDefinition& d = t->definition;
  t->moves = metric_moves(d, metric, chosen, t->chosen);
  for (const auto& m : t->moves) t->inverses.push_back({m.name, inverse(d, m.transform)});
  for (const auto& inv : t->inverses) {
    if (std::none_of(t->moves.begin(), t->moves.end(),
                     [&](const PieceMove& m) { return m.transform == inv.transform; })) {
      t->directed = true;
    }
  }

  const auto too_many = [] {
    throw ParseError("its positions do not rank below 2^64 (at most 18,446,744,073,709,551,615)");
  };
  // Kinds of pieces per set: the solved state's numbers, ascending.
  const std::size_t sets = d.sets.size();
  Position solved;
  std::vector<bool> all_even(sets);
  for (std::size_t k = 0; k < sets; ++k) {
    const auto& set = d.sets[k];
    std::map<int, int> kind;
    for (const int v : d.solved.perm[k]) kind[v] = 0;
    std::vector<std::string> labels;
    for (auto& [value, index] : kind) {
      index = int(labels.size());
      labels.push_back(std::to_string(value + 1));
    }
    std::vector<int> counts(labels.size());
    std::vector<int> perm;
    for (const int v : d.solved.perm[k]) {
      perm.push_back(kind[v]);
      ++counts[std::size_t(kind[v])];
    }
    const bool distinct = int(labels.size()) == set.size && set.size >= 2;
    const auto& twist = d.solved.twist[k];
    bool even = distinct;
    bool twisted = std::any_of(twist.begin(), twist.end(), [](int x) { return x != 0; });
    for (const auto& m : t->moves) {
      if (parity(m.transform.perm[k]) != 0) even = false;
      const auto& tw = m.transform.twist[k];
      if (std::any_of(tw.begin(), tw.end(), [](int x) { return x != 0; })) twisted = true;
    }
    SetShape shape;
    shape.n = set.size;
    shape.orientations = set.orientations;
    shape.kinds = int(counts.size());
    std::copy(counts.begin(), counts.end(), shape.counts.begin());
    const auto arrangements = multinomial(shape.counts.data(), shape.kinds);
    if (!arrangements) too_many();
    shape.arrangements = *arrangements;
    shape.perm = !distinct                                  ? PermSplit::full
                 : even && (set.size == 3 || set.size == 4) ? PermSplit::parity_turn
                                                            : PermSplit::parity;
    // Wild twists are set to 0 after each move, which changes their total: no class.
    const bool wild = k < d.wild.size() && !d.wild[k].empty();
    shape.twist = set.orientations > 1 && twisted ? (wild ? TwistSplit::full : TwistSplit::total) : TwistSplit::none;
    t->wild.emplace_back();
    if (wild) {
      t->wild.back().resize(counts.size());
      for (std::size_t i = 0; i < d.wild[k].size(); ++i) {
        if (d.wild[k][i]) t->wild.back()[std::size_t(kind[d.solved.perm[k][i]])] = true;
      }
      t->constrained = true;
    }
    for (const PieceIllegal& rule : d.illegal) {
      if (rule.set != int(k)) continue;
      std::size_t at = std::size_t(rule.place);
      for (std::size_t j = 0; j < k; ++j) at += std::size_t(d.sets[j].size);
      std::size_t places = 0;
      for (const auto& other : d.sets) places += std::size_t(other.size);
      t->forbidden.resize(places);
      t->forbidden[at].resize(counts.size());
      if (const auto it = kind.find(rule.piece); it != kind.end()) t->forbidden[at][std::size_t(it->second)] = true;
      t->constrained = true;
    }
    if (!t->forbidden.empty()) {
      std::size_t off = 0;
      for (std::size_t j = 0; j < k; ++j) off += std::size_t(d.sets[j].size);
      for (int i = 0; i < set.size; ++i) {
        const auto& no = t->forbidden[off + std::size_t(i)];
        if (no.empty()) continue;
        PlaceGuard g{i, {}};
        for (std::size_t x = 0; x < no.size(); ++x) {
          if (no[x]) g.kinds[x >> 6] |= std::uint64_t(1) << (x & 63);
        }
        shape.guards.push_back(g);
      }
    }
    all_even[k] = even;
    t->shapes.push_back(shape);
    t->labels.push_back(labels);
    solved.perm.push_back(perm);
    solved.twist.push_back(twist);
  }
  // The moves are distinct (expand() keeps each once), so when every inverse is
  // among them the inverses are the moves again: they pair one to one.
  t->uniform = !t->directed && !t->constrained;
  t->regular = t->uniform && moves_change_every_position(d, t->shapes, t->moves);

  // The classes: per set, its arrangement's then its twists'. A move adds the same
  // shift to every position's classes, so those reachable are the solved state's
  // plus the group the shifts generate, found by closure. Too many of them (sets
  // moving independently) and each set keeps only the classes no move changes.
  const auto classes_of = [&](const Position& p) {
    std::vector<int> c(2 * sets);
    for (std::size_t k = 0; k < sets; ++k) {
      c[2 * k] = perm_split(t->shapes[k], p.perm[k].data()).cls;
      c[2 * k + 1] = twist_split(t->shapes[k], p.twist[k].data()).cls;
    }
    return c;
  };
  const auto shifts_of = [&](const std::vector<PieceMove>& moves) {
    std::vector<std::vector<int>> shifts;
    for (const auto& m : moves) {
      std::vector<int> c(2 * sets);
      for (std::size_t k = 0; k < sets; ++k) {
        c[2 * k] = perm_shift(t->shapes[k], m.transform.perm[k]);
        c[2 * k + 1] = twist_shift(t->shapes[k], m.transform.twist[k]);
      }
      shifts.push_back(std::move(c));
    }
    return shifts;
  };
  const auto add = [&](const std::vector<int>& c, const std::vector<int>& shift) {
    std::vector<int> out(c.size());
    for (std::size_t k = 0; k < sets; ++k) {
      out[2 * k] = (c[2 * k] + shift[2 * k]) % t->shapes[k].perm_classes;
      out[2 * k + 1] = (c[2 * k + 1] + shift[2 * k + 1]) % t->shapes[k].twist_classes;
    }
    return out;
  };
  std::vector<std::vector<int>> shifts;
  for (const bool tied : {true, false}) {
    if (!tied) {
      for (std::size_t k = 0; k < sets; ++k) {
        SetShape& v = t->shapes[k];
        if (v.perm != PermSplit::full) v.perm = all_even[k] ? PermSplit::parity : PermSplit::full;
        const bool total_kept = std::all_of(t->moves.begin(), t->moves.end(), [&](const PieceMove& m) {
          const auto& tw = m.transform.twist[k];
          return std::accumulate(tw.begin(), tw.end(), 0) % v.orientations == 0;
        });
        if (v.twist == TwistSplit::total && !total_kept) v.twist = TwistSplit::full;
      }
    }
    for (std::size_t k = 0; k < sets; ++k) shape_classes(t->shapes[k], solved.perm[k]);
    shifts = shifts_of(t->moves);
    std::set<std::vector<int>> reached{classes_of(solved)};
    std::vector<std::vector<int>> frontier(reached.begin(), reached.end());
    while (!frontier.empty() && reached.size() <= kMaxClasses) {
      std::vector<std::vector<int>> next;
      for (const auto& c : frontier) {
        for (const auto& shift : shifts) {
          auto n = add(c, shift);
          if (reached.insert(n).second) next.push_back(std::move(n));
        }
      }
      frontier = std::move(next);
    }
    if (reached.size() > kMaxClasses) continue;
    t->classes.assign(reached.begin(), reached.end());
    break;
  }
  const auto class_index = [&](const std::vector<int>& c) {
    return std::uint32_t(std::lower_bound(t->classes.begin(), t->classes.end(), c) - t->classes.begin());
  };

  // The coordinates and their place values, least significant last, above the class.
  Wide space = t->classes.size();
  for (std::size_t k = 0; k < sets; ++k) {
    const SetShape& shape = t->shapes[k];
    for (const auto& [s, orientation] : {std::pair{shape.perm_space, false}, std::pair{shape.twist_space, true}}) {
      if (s == 1) continue;
      Coordinate c;
      c.set = int(k);
      c.orientation = orientation;
      c.space = s;
      c.divider = Divider(s);
      std::set<int> values;
      for (const auto& cls : t->classes) values.insert(cls[2 * k + (orientation ? 1 : 0)]);
      c.classes.assign(values.begin(), values.end());
      t->coordinates.push_back(std::move(c));
      space *= s;
      if (space > kMax64) too_many();
    }
  }
  t->space = std::uint64_t(space);
  t->class_divider = Divider(t->classes.size());
  std::uint64_t weight = t->classes.size();
  for (std::size_t i = t->coordinates.size(); i-- > 0;) {
    t->coordinates[i].weight = weight;
    weight *= t->coordinates[i].space;
  }
  const std::size_t n = t->coordinates.size();
  // The kernels check Illegal lines on the arrangements they move; a set whose
  // arrangement its class alone decides (no coordinate), or wildcards, leave it to
  // admitted().
  t->guarded = !t->forbidden.empty() &&
               t->wild.end() == std::find_if(t->wild.begin(), t->wild.end(), [](const auto& w) { return !w.empty(); });
  for (std::size_t k = 0; k < sets; ++k) {
    if (t->shapes[k].guards.empty()) continue;
    if (std::none_of(t->coordinates.begin(), t->coordinates.end(),
                     [&](const Coordinate& c) { return c.set == int(k) && !c.orientation; })) {
      t->guarded = false;
    }
  }
  t->offsets.resize(t->classes.size() * n);
  for (std::size_t h = 0; h < t->classes.size(); ++h) {
    for (std::size_t i = 0; i < n; ++i) {
      const Coordinate& c = t->coordinates[i];
      const int value = t->classes[h][2 * std::size_t(c.set) + (c.orientation ? 1 : 0)];
      const auto at = std::lower_bound(c.classes.begin(), c.classes.end(), value) - c.classes.begin();
      t->offsets[h * n + i] = std::uint64_t(at) * c.space;
    }
  }
  for (const bool backward : {false, true}) {
    if (backward && !t->directed) break;
    const auto moved_by = shifts_of(backward ? t->inverses : t->moves);
    auto& after = backward ? t->class_before : t->class_after;
    for (const auto& c : t->classes) {
      for (const auto& shift : moved_by) after.push_back(class_index(add(c, shift)));
    }
  }

  // Tables for the coordinates that fit, smallest first so that the budget covers
  // as many as it can.
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  const auto keys = [&](std::size_t i) { return t->coordinates[i].space * t->coordinates[i].classes.size(); };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return keys(a) < keys(b); });
  std::uint64_t entries = 0;
  const std::uint64_t moves = t->moves.size();
  // The cached path (successor_ranks()) reads the rows of every coordinate but the
  // least significant once per value of the digits below: at least kMadeBlock ranks
  // of each class apart in a dense scan, so making such a row there costs a few
  // instructions a rank, where its table would cost kMadeEntries entries or more.
  const bool cache_path = !t->constrained && n >= 2 && n <= kMostTabled && moves <= kCachedMoves;
  const bool made_rows = cache_path && !t->directed && t->classes.size() <= SuccessorCache::kClasses &&
                         t->coordinates[n - 1].space >= kMadeBlock;
  for (const std::size_t i : order) {
    Coordinate& c = t->coordinates[i];
    const std::uint64_t need = keys(i) * moves * (t->directed ? 2 : 1);
    if (keys(i) > kTableEntries / moves || entries + need > kAllTableEntries) continue;
    // A coordinate that is the whole rank (one set: lo33's nine tiles) has a row per
    // rank, each read once a search expands its rank: made ahead, the rows would cost
    // the search as much again, and their memory.
    if (keys(i) >= t->space) continue;
    if (made_rows && i + 1 < n && need >= kMadeEntries) {
      c.made = true;
      continue;
    }
    entries += need;
    const SetShape& v = t->shapes[std::size_t(c.set)];
    const auto k = std::size_t(c.set);
    const bool guard = t->guarded && !c.orientation && !v.guards.empty();
    if (guard) c.illegal.assign((keys(i) + 63) / 64, 0);
    std::vector<std::uint8_t> bad(moves);
    for (const bool backward : {false, true}) {
      if (backward && !t->directed) break;
      const auto& list = backward ? t->inverses : t->moves;
      auto& table = backward ? c.backward : c.forward;
      table.resize(keys(i) * moves);
      for (std::uint64_t key = 0; key < keys(i); ++key) {
        const int cls = c.classes[std::size_t(key / c.space)];
        std::uint32_t* row = table.data() + key * moves;
        std::fill(bad.begin(), bad.end(), 0);
        const bool forbidden =
            moved_row(v, c.orientation, cls, key % c.space, k, std::span(list), row, guard ? bad.data() : nullptr);
        if (!guard) continue;
        for (std::uint64_t m = 0; m < moves; ++m) {
          if (bad[m] != 0) row[m] |= kIllegalDigit;
        }
        if (forbidden) c.illegal[key >> 6] |= std::uint64_t(1) << (key & 63);
      }
    }
  }
  // Past the rank's own limit: a definition of more sets ranks below 2^64 only when
  // most of them never change.
  if (d.sets.size() > kMaxSets) {
    throw ParseError(std::to_string(d.sets.size()) + " sets of pieces, at most " + std::to_string(kMaxSets));
  }
  t->tabled = n <= kMostTabled && std::all_of(t->coordinates.begin(), t->coordinates.end(),
                                              [](const Coordinate& c) { return !c.forward.empty(); })
                  ? n
                  : 0;
  t->cached = cache_path && std::all_of(t->coordinates.begin(), t->coordinates.end(),
                                        [](const Coordinate& c) { return c.made || !c.forward.empty(); })
                  ? n
                  : 0;
  t->low_narrow = n > 0 && t->coordinates[n - 1].weight * t->coordinates[n - 1].space <= std::uint64_t(1) << 32;
  if (t->uniform && !t->regular && moves <= 64 && (t->tabled == n || t->cached == n)) {
    const std::size_t classes = t->classes.size();
    t->class_kept.assign(classes, 0);
    for (std::size_t h = 0; h < classes; ++h) {
      for (std::size_t m = 0; m < moves; ++m) {
        if (t->class_after[h * moves + m] == h) t->class_kept[h] |= std::uint64_t{1} << m;
      }
    }
    std::vector<std::uint64_t> digits(moves);
    for (const Coordinate& c : t->coordinates) {
      std::vector<std::uint64_t>& kept = t->key_kept.emplace_back(c.space * c.classes.size(), 0);
      for (std::uint64_t key = 0; key < kept.size(); ++key) {
        if (c.made) move_digits(*t, c, key, t->moves.data(), moves, digits.data());
        for (std::size_t m = 0; m < moves; ++m) {
          const std::uint64_t digit = c.made ? digits[m] : c.forward[key * moves + m];
          if (digit == key % c.space) kept[key] |= std::uint64_t{1} << m;
        }
      }
    }
  }
  t_ = std::move(t);
  start_ = {position_rank(solved)};
}

std::vector<int> Pieces::row_lengths() const {
  std::vector<int> rows;
  for (const auto& set : t_->definition.sets) {
    rows.push_back(set.size + 1);
    if (set.orientations > 1) rows.push_back(set.size);
  }
  return rows;
}

std::vector<CellRole> Pieces::cell_roles() const {
  std::vector<CellRole> roles;
  for (const auto& set : t_->definition.sets) {
    roles.push_back(CellRole::kCaption);
    roles.insert(roles.end(), std::size_t(set.size), CellRole::kPlace);
    if (set.orientations > 1) roles.insert(roles.end(), std::size_t(set.size), CellRole::kOrientation);
  }
  return roles;
}

Pieces::Position Pieces::position(std::uint64_t r) const {
  const Tables& t = *t_;
  const std::size_t sets = t.definition.sets.size();
  const std::vector<int>& cls = t.classes[std::size_t(r % t.classes.size())];
  r /= t.classes.size();
  // A set without a coordinate has digit 0 there: its class leaves one choice.
  std::vector<std::uint64_t> digit(2 * sets);
  for (std::size_t i = t.coordinates.size(); i-- > 0;) {
    const Coordinate& c = t.coordinates[i];
    digit[2 * std::size_t(c.set) + (c.orientation ? 1 : 0)] = r % c.space;
    r /= c.space;
  }
  Position p;
  for (std::size_t k = 0; k < sets; ++k) {
    const auto n = std::size_t(t.definition.sets[k].size);
    p.perm.emplace_back(n, 0);
    p.twist.emplace_back(n, 0);
    perm_join(t.shapes[k], cls[2 * k], digit[2 * k], p.perm[k].data());
    twist_join(t.shapes[k], cls[2 * k + 1], digit[2 * k + 1], p.twist[k].data());
  }
  return p;
}

std::uint64_t Pieces::position_rank(const Position& given) const {
  const Tables& t = *t_;
  const auto& sets = t.definition.sets;
  if (given.perm.size() != sets.size() || given.twist.size() != sets.size()) {
    throw ParseError("a position of every set");
  }
  Position p = given;
  std::size_t off = 0;
  for (std::size_t k = 0; k < sets.size(); ++k) {
    const auto n = std::size_t(sets[k].size);
    for (std::size_t i = 0; i < n && i < p.perm[k].size(); ++i) {
      const auto kind = std::size_t(p.perm[k][i]);
      if (!t.forbidden.empty() && !t.forbidden[off + i].empty() && kind < t.forbidden[off + i].size() &&
          t.forbidden[off + i][kind]) {
        throw ParseError("set " + sets[k].name + ": piece " + t.labels[k][kind] + " at place " + std::to_string(i + 1) +
                         ", which an Illegal line of the file forbids");
      }
      // A wild piece's twist is not counted: any twist names the position of twist 0.
      if (k < t.wild.size() && !t.wild[k].empty() && kind < t.wild[k].size() && t.wild[k][kind] &&
          i < p.twist[k].size()) {
        p.twist[k][i] = 0;
      }
    }
    off += n;
  }
  std::vector<int> cls(2 * sets.size());
  std::vector<std::uint64_t> digit(2 * sets.size());
  // The class a position's part must have when the moves leave that part's one.
  const auto only = [&](std::size_t j) -> std::optional<int> {
    for (const auto& c : t.classes) {
      if (c[j] != t.classes.front()[j]) return std::nullopt;
    }
    return t.classes.front()[j];
  };
  for (std::size_t k = 0; k < sets.size(); ++k) {
    const auto& set = sets[k];
    const SetShape& v = t.shapes[k];
    if (p.perm[k].size() != std::size_t(v.n) || p.twist[k].size() != std::size_t(v.n)) {
      throw ParseError("set " + set.name + ": " + std::to_string(v.n) + " places");
    }
    Kinds counts{};
    for (const int x : p.perm[k]) {
      if (x < 0 || x >= v.kinds) throw ParseError("set " + set.name + ": no such piece");
      ++counts[std::size_t(x)];
    }
    if (counts != v.counts) {
      throw ParseError("set " + set.name + ": the pieces differ from the solved state's (each kind as often)");
    }
    int sum = 0;
    for (const int x : p.twist[k]) {
      if (x < 0 || x >= v.orientations) {
        throw ParseError("set " + set.name + ": twists are 0 to " + std::to_string(v.orientations - 1));
      }
      sum += x;
    }
    const Split arrangement = perm_split(v, p.perm[k].data());
    if (const auto want = only(2 * k); want && arrangement.cls != *want) {
      const int odd = v.perm == PermSplit::parity_turn ? arrangement.cls % 2 : arrangement.cls;
      if (odd != *want % 2) {
        throw ParseError("set " + set.name + ": an " + (odd ? "odd" : "even") +
                         " permutation, which no move reaches (every move is even on this set)");
      }
      throw ParseError("set " + set.name +
                       ": an arrangement no move reaches (every move turns the pairings of its places by a"
                       " fixed amount, and this one turns them otherwise)");
    }
    if (v.twist == TwistSplit::none && sum != 0) {
      throw ParseError("set " + set.name + ": twisted pieces, which no move twists (expected all 0)");
    }
    const Split twists = twist_split(v, p.twist[k].data());
    if (const auto want = only(2 * k + 1); v.twist == TwistSplit::total && want && twists.cls != *want) {
      throw ParseError("set " + set.name + ": the twists add up to " + std::to_string(twists.cls) + " modulo " +
                       std::to_string(v.orientations) + ", which no move changes from the solved " +
                       std::to_string(*want));
    }
    cls[2 * k] = arrangement.cls;
    cls[2 * k + 1] = twists.cls;
    digit[2 * k] = arrangement.digit;
    digit[2 * k + 1] = twists.digit;
  }
  const auto at = std::lower_bound(t.classes.begin(), t.classes.end(), cls);
  if (at == t.classes.end() || *at != cls) {
    throw ParseError(
        "the sets' parities, twist totals and turns combine as no moves from the solved state do (the moves tie "
        "them across sets)");
  }
  std::uint64_t r = std::uint64_t(at - t.classes.begin());
  for (const Coordinate& c : t.coordinates) r += c.weight * digit[2 * std::size_t(c.set) + (c.orientation ? 1 : 0)];
  return r;
}

std::string Pieces::format(const State& s) const {
  return format_piece_position(t_->definition, t_->labels, position(s.rank));
}

Pieces::State Pieces::parse(std::string_view text) const { return canonical(parse_position(text)); }

Pieces::State Pieces::parse_position(std::string_view text) const {
  try {
    return {position_rank(read_piece_position(t_->definition, t_->labels, text))};
  } catch (const ParseError& e) {
    throw ParseError("bad position " + quote_input(text) + ": " + e.what() +
                     " (expected set by set: " + format(start_) + ")");
  }
}

int Pieces::use_rotations() {
  const Tables& t = *t_;
  const PieceDefinition& d = t.definition;
  const std::string file = d.source.file.empty() ? d.name : d.source.file;
  if (d.rotations.empty()) {
    throw ParseError(file + ": no rotations to count up to (Move blocks named x, y or z, or capitals and v: Fv, DFRv)");
  }
  const Position solved = position(start_.rank);
  const auto where = [&](std::size_t i) {
    if (i < d.source.rotation_at.size() && !d.source.file.empty()) {
      return d.source.file + ":" + std::to_string(d.source.rotation_at[i].first) + ":" +
             std::to_string(d.source.rotation_at[i].second) + ": ";
    }
    return file + ": ";
  };
  const auto at = [&](std::pair<int, int> line) {
    return d.source.file.empty() || line.first == 0
               ? file + ": "
               : d.source.file + ":" + std::to_string(line.first) + ":" + std::to_string(line.second) + ": ";
  };
  const auto wild = [&](std::size_t k, int kind) {
    return k < t.wild.size() && !t.wild[k].empty() && t.wild[k][std::size_t(kind)];
  };
  // What a rotation fails to map onto itself, when it is no symmetry of the positions:
  // the solved state's kinds of pieces (identical pieces onto identical ones, each kind
  // turned alike), its wildcard twists, or the places Illegal lines forbid.
  enum class Lost { none, kinds, wild, illegal };
  // The conjugation by r; `lost` says why it is none.
  const auto conjugation = [&](const PieceTransform& r, Lost& lost) {
    const PieceTransform inv = inverse(d, r);
    Conjugation g;
    lost = Lost::none;
    int off = 0;  // set k's first place in the flat position
    for (std::size_t k = 0; k < d.sets.size(); ++k) {
      const int o = d.sets[k].orientations;
      const auto kinds = std::size_t(t.shapes[k].kinds);
      std::vector<int> map(kinds, -1), turn(kinds, -1);
      for (std::size_t x = 0; x < r.perm[k].size(); ++x) {
        const auto kind = std::size_t(solved.perm[k][x]);
        const auto y = std::size_t(inv.perm[k][x]);
        const int to = solved.perm[k][y];
        // A wild kind's twist is 0 in every position whatever the rotation adds.
        const int by =
            wild(k, int(kind)) ? 0 : ((solved.twist[k][y] + inv.twist[k][x] - solved.twist[k][x]) % o + o) % o;
        if ((map[kind] >= 0 && map[kind] != to) || (turn[kind] >= 0 && turn[kind] != by)) {
          lost = Lost::kinds;
        } else if (lost == Lost::none && wild(k, int(kind)) != wild(k, to)) {
          lost = Lost::wild;
        }
        map[kind] = to;
        turn[kind] = by;
      }
      for (std::size_t i = 0; i < r.perm[k].size(); ++i) {
        g.from.push_back(off + r.perm[k][i]);
        g.add.push_back(r.twist[k][i]);
      }
      off += int(r.perm[k].size());
      g.kind_map.push_back(std::move(map));
      g.kind_twist.push_back(std::move(turn));
      g.wild.push_back(k < t.wild.size() ? t.wild[k] : std::vector<bool>{});
    }
    // q = r^-1 p r holds at place i the kind map[k] of p's piece at from[i]: q stands
    // where an Illegal line forbids exactly when p does if every place's forbidden
    // kinds are those of the place it takes from, mapped.
    if (lost == Lost::none && !t.forbidden.empty()) {
      std::size_t first = 0;
      for (std::size_t k = 0; k < d.sets.size() && lost == Lost::none; ++k) {
        const std::size_t n = r.perm[k].size();
        for (std::size_t i = first; i < first + n && lost == Lost::none; ++i) {
          const auto& here = t.forbidden[i];
          const auto& there = t.forbidden[std::size_t(g.from[i])];
          for (std::size_t kind = 0; kind < g.kind_map[k].size(); ++kind) {
            const bool no_here = !here.empty() && here[std::size_t(g.kind_map[k][kind])];
            const bool no_there = !there.empty() && there[kind];
            if (no_here != no_there) lost = Lost::illegal;
          }
        }
        first += n;
      }
    }
    return g;
  };
  // Each rotation the file names must map the moves in use onto themselves; then so
  // does every product of them.
  for (std::size_t i = 0; i < d.rotations.size(); ++i) {
    const PieceTransform& r = d.rotations[i].transform;
    const PieceTransform inv = inverse(d, r);
    for (const PieceMove& m : t.moves) {
      const PieceTransform image = then(d, then(d, inv, m.transform), r);
      if (std::none_of(t.moves.begin(), t.moves.end(), [&](const PieceMove& n) { return n.transform == image; })) {
        throw ParseError(where(i) + "rotation " + d.rotations[i].name +
                         " does not map the puzzle onto itself: it turns move " + m.name +
                         " into a turn that is no move in use (counting up to rotations needs every rotation to "
                         "permute the moves; expected the moves of the whole puzzle, not a --moves subset)");
      }
    }
  }
  // The group: products of the rotations and their inverses, breadth first from the
  // identity, each named by the shortest word that makes it (y' for y's inverse, y2
  // for y y).
  std::vector<PieceMove> steps = d.rotations;
  for (const PieceMove& r : d.rotations) {
    std::string name = r.name.ends_with('\'') ? r.name.substr(0, r.name.size() - 1) : r.name + "'";
    steps.push_back({std::move(name), inverse(d, r.transform)});
  }
  std::vector<PieceTransform> group = {identity(d)};
  std::vector<std::vector<std::string>> words = {{}};
  for (std::size_t i = 0; i < group.size(); ++i) {
    for (const PieceMove& r : steps) {
      PieceTransform next = then(d, group[i], r.transform);
      if (std::find(group.begin(), group.end(), next) != group.end()) continue;
      group.push_back(std::move(next));
      std::vector<std::string> word = words[i];
      if (!word.empty() && word.back() == r.name) {
        std::string& last = word.back();
        if (last.ends_with('\'')) {
          last.pop_back();
          last += "2'";
        } else {
          last += '2';
        }
      } else {
        word.push_back(r.name);
      }
      words.push_back(std::move(word));
    }
  }
  // Those that map the kinds, wildcards and Illegal places onto themselves: the
  // subgroup that fixes them.
  auto s = std::make_shared<Symmetry>();
  s->generated = int(group.size());
  std::vector<bool> lost_by(4, false);
  Lost first_lost = Lost::none;
  for (std::size_t i = 1; i < group.size(); ++i) {
    Lost lost = Lost::none;
    Conjugation g = conjugation(group[i], lost);
    if (lost != Lost::none) {
      lost_by[std::size_t(lost)] = true;
      if (first_lost == Lost::none) first_lost = lost;
      continue;
    }
    std::string name;
    for (const auto& w : words[i]) {
      if (!name.empty()) name += ' ';
      name += w;
    }
    s->kept.push_back(std::move(name));
    s->all.push_back(std::move(g));
  }
  std::vector<std::string> what;
  if (lost_by[std::size_t(Lost::kinds)]) what.emplace_back("its identical pieces");
  if (lost_by[std::size_t(Lost::wild)]) what.emplace_back("its wildcard ('?') twists");
  if (lost_by[std::size_t(Lost::illegal)]) what.emplace_back("its Illegal places");
  for (std::size_t i = 0; i < what.size(); ++i) {
    if (i > 0) s->fixes += i + 1 == what.size() ? " and " : ", ";
    s->fixes += what[i];
  }
  if (s->all.empty()) {
    const std::pair<int, int> line = first_lost == Lost::illegal ? d.source.illegal_at
                                     : first_lost == Lost::wild  ? d.source.wild_at
                                                                 : std::pair<int, int>{0, 0};
    throw ParseError((first_lost == Lost::kinds ? where(0) : at(line)) + "none of the " + std::to_string(group.size()) +
                     " rotations the file's rotations generate but the identity maps " + s->fixes +
                     " onto themselves, so there is nothing to count up to (expected the positions counted one by one: "
                     "--symmetry none)");
  }
  s->group = s->all;
  s_ = std::move(s);
  return rotations();
}

void Pieces::start_at(std::string_view text) {
  if (!s_) return;
  const State from = parse_position(text);
  size_flat(*t_);
  flat_unrank(*t_, from.rank, flat_p);
  auto s = std::make_shared<Symmetry>(*s_);
  s->group.clear();
  for (const Conjugation& g : s->all) {
    conjugate(*t_, g, flat_p, flat_q);
    if (flat_q.perm == flat_p.perm && flat_q.twist == flat_p.twist) s->group.push_back(g);
  }
  s_ = std::move(s);
}

std::string Pieces::symmetry_group() const {
  if (!s_) return "";
  std::string all = std::to_string(rotations()) + " rotations the file's rotations generate";
  if (s_->generated != rotations()) {
    // A subgroup: named, each rotation by the file's rotations that make it.
    std::string names;
    for (const auto& n : s_->kept) names += ", " + n;
    all = std::to_string(rotations()) + " of the " + std::to_string(s_->generated) +
          " rotations the file's rotations generate that map " + s_->fixes + " onto themselves (the identity" + names +
          ")";
  }
  if (symmetries() == rotations()) return "the " + all + " (the start is symmetric)";
  if (symmetries() == 1) return "none of the " + all + " but the identity fixes the start";
  return "the " + std::to_string(symmetries()) + " of the " + all + " that fix the start";
}

std::vector<Pieces::State> Pieces::unfold(const std::vector<State>& path) const {
  if (!s_ || path.empty()) return path;
  std::vector<State> out = {path.front()};
  for (std::size_t i = 1; i < path.size(); ++i) {
    // Steps of classes (a search's) or of positions (a table walk's): by class.
    const std::uint64_t want = canonical_rank(*t_, *s_, path[i].rank);
    std::optional<State> next;
    for_each_successor_rank(out.back().rank, [&](std::uint64_t r) {
      if (!next && canonical_rank(*t_, *s_, r) == want) next = State{r};
    });
    if (!next) throw std::logic_error(name() + ": a path of classes that no move joins");
    out.push_back(*next);
  }
  return out;
}

std::string Pieces::move_name(const State& from, const State& to) const {
  std::size_t m = 0;
  std::string name = "?";
  // Every move's image, so that m counts the moves (admitted() leaves some out).
  const auto f = [&](std::uint64_t r) {
    if (t_->constrained && !t_->guarded) r = admitted(*t_, r);
    if (r == to.rank && name == "?") name = t_->moves[m].name;
    ++m;
  };
  if (t_->guarded) {
    step_unchecked<false, true>(*t_, from.rank, f);
  } else {
    step_unchecked<false>(*t_, from.rank, f);
  }
  return name;
}

}  // namespace statespace
