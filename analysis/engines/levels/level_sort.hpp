// The sorting and merging under the sorted-levels engines (sorted_levels.hpp,
// graded_chains.hpp): words split into buckets by their top bits, each bucket
// radix-sorted while it sits in cache, and sorted runs merged against sorted levels.
// The layout of the buckets depends on fixed chunks of the input, never on the
// threads, so neither does any result.
#pragma once

#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "core/limb_word.hpp"

namespace statespace::detail {

inline constexpr int kLevelBucketBits = 12;
inline constexpr std::size_t kLevelChunks = 64;
inline constexpr int kMaxPassBits = 6;

// The bits in use below the highest set one of w: 0 for 0.
template <class Word>
int word_width(Word w) {
  if constexpr (sizeof(Word) == 8) {
    return int(std::bit_width(w));
  } else {
    const auto high = std::uint64_t(w >> 64);
    return high ? 64 + int(std::bit_width(high)) : int(std::bit_width(std::uint64_t(w)));
  }
}

// The word of the low `bits` bits set (bits at most the word's width).
template <class Word>
Word low_bits(int bits) {
  return bits >= int(8 * sizeof(Word)) ? ~Word{0} : (Word{1} << bits) - 1;
}

// Sorts [a, a + n) by the low `bits` bits of each element's key (the others being
// equal), least significant digit first, by way of `tmp` (n elements). A bucket is a
// few thousand words, which stay in cache over the passes: several times faster than
// std::sort. Each scatter also counts the next digit, so the words are read once a
// pass. The key is the word itself, or a 64-bit key of an element that carries more
// (the graded-chain engine's entries).
template <class T, class Key = std::identity>
void radix_sort_low(T* a, T* tmp, std::size_t n, int bits, Key key = {}) {
  constexpr int kMaxDigit = 12;  // two 16 KB arrays of counters: they stay in L1
  if (n < 256) {
    std::sort(a, a + n, [&](const T& x, const T& y) { return key(x) < key(y); });
    return;
  }
  // As few passes as 12-bit digits allow, the digits of equal width.
  const int passes = (bits + kMaxDigit - 1) / kMaxDigit;
  const int digit = passes ? (bits + passes - 1) / passes : 0;
  const std::uint64_t digit_mask = (std::uint64_t{1} << digit) - 1;
  T* from = a;
  T* to = tmp;
  std::array<std::array<std::uint32_t, std::size_t(1) << kMaxDigit>, 2> counts;
  std::fill_n(counts[0].begin(), digit_mask + 1, 0);
  for (std::size_t i = 0; i < n; ++i) ++counts[0][key(from[i]) & digit_mask];
  for (int pass = 0; pass < passes; ++pass) {
    const int shift = pass * digit;
    auto& count = counts[std::size_t(pass & 1)];
    auto& next = counts[std::size_t(~pass & 1)];
    const bool last = pass + 1 == passes;
    if (!last) std::fill_n(next.begin(), digit_mask + 1, 0);
    if (count[(key(from[0]) >> shift) & digit_mask] == n) {  // one value: this digit orders nothing
      if (!last) {
        for (std::size_t i = 0; i < n; ++i) ++next[(key(from[i]) >> (shift + digit)) & digit_mask];
      }
      continue;
    }
    std::uint32_t at = 0;
    for (std::size_t v = 0; v <= digit_mask; ++v) at += std::exchange(count[v], at);
    if (last) {
      for (std::size_t i = 0; i < n; ++i) to[count[(key(from[i]) >> shift) & digit_mask]++] = from[i];
    } else {
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t x = key(from[i]);
        to[count[(x >> shift) & digit_mask]++] = from[i];
        ++next[(x >> (shift + digit)) & digit_mask];
      }
    }
    std::swap(from, to);
  }
  if (from != a) std::copy_n(from, n, a);
}

// Wide words (16 bytes and more): radix passes over all of a bucket's bits would be
// twice the 64-bit word's and more, and a bucket of thousands sorted by comparison
// alone spends most of the time in mispredicted branches. One pass splits the bucket
// by the kWideDigit bits below `bits` (the words agree above) into runs of a few
// words each, which comparison then sorts, in a buffer of the thread's own (a bucket
// stays in cache; no array as large as the level's successors is needed beside them).
inline constexpr int kWideDigit = 11;
inline constexpr std::size_t kMostWideSplit = std::size_t(1) << 20;  // words: larger buckets sort in place
inline constexpr std::ptrdiff_t kWideRun = 24;                       // words: shorter runs sort by insertion
// Sorts src[0, n) into dst by the bits below `bits` (equal above): a split by the
// digit below `bits` into dst, each run of equal digits sorted there, the longer
// ones split once more (by way of src, copied back).
template <class Word>
void split_wide(Word* src, Word* dst, std::size_t n, int bits, int depth) {
  const int digit = std::min(kWideDigit, bits);
  const int shift = bits - digit;
  const std::uint64_t mask = (std::uint64_t{1} << digit) - 1;
  std::array<std::uint32_t, (std::size_t(1) << kWideDigit) + 1> start{};
  for (std::size_t i = 0; i < n; ++i) ++start[(shifted_bits(src[i], shift) & mask) + 1];
  for (std::size_t v = 1; v <= mask + 1; ++v) start[v] += start[v - 1];
  {
    std::array<std::uint32_t, std::size_t(1) << kWideDigit> at;
    std::copy_n(start.begin(), mask + 1, at.begin());
    for (std::size_t i = 0; i < n; ++i) dst[at[shifted_bits(src[i], shift) & mask]++] = src[i];
  }
  for (std::size_t v = 0; v <= mask; ++v) {
    Word* const first = dst + start[v];
    Word* const last = dst + start[v + 1];
    if (last - first < 2) continue;
    if (last - first <= kWideRun) {
      for (Word* i = first + 1; i != last; ++i) {
        const Word x = *i;
        Word* j = i;
        for (; j != first && x < *(j - 1); --j) *j = *(j - 1);
        *j = x;
      }
    } else if (depth == 0 && shift > 0) {
      split_wide(first, src + start[v], std::size_t(last - first), shift, 1);
      std::copy(src + start[v], src + start[v + 1], first);
    } else {
      std::sort(first, last);
    }
  }
}
template <class Word>
void sort_wide(Word* a, std::size_t n, int bits) {
  if (n < 256 || n > kMostWideSplit || bits <= 0) {
    std::sort(a, a + n);
    return;
  }
  thread_local std::vector<Word> buffer;
  if (buffer.size() < n) buffer.resize(n);
  split_wide(a, buffer.data(), n, bits, 0);
  std::copy_n(buffer.data(), n, a);
}
inline void radix_sort_low(unsigned __int128* a, unsigned __int128*, std::size_t n, int bits) { sort_wide(a, n, bits); }
template <std::size_t N>
void radix_sort_low(LimbWord<N>* a, LimbWord<N>*, std::size_t n, int bits) {
  sort_wide(a, n, bits);
}
// Whether radix_sort_low sorts words of this type by way of the caller's `tmp` (as
// many words as it sorts) rather than a buffer of its own.
template <class Word>
inline constexpr bool kSortNeedsScratch = sizeof(Word) <= 8;

// The chunks of successors go in groups of kScatterGroup, each with a row of bucket
// counters: the serial pass over the counters stays small beside the words.
inline constexpr std::size_t kScatterGroup = 4;

// Counts `words` by bucket (key(w) >> shift, less `low`) into `row`.
template <class Word, class Key = std::identity>
void count_buckets(std::span<const Word> words, int shift, std::size_t low, std::uint64_t* row, Key key = {}) {
  for (const Word& w : words) ++row[std::size_t(shifted_bits(key(w), shift)) - low];
}

// Scatters the words of `chunks` into `sorted` (as many words) by bucket: bucket b
// (words whose bits from `shift` up are low + b, of `buckets`) goes to [start[b],
// start[b + 1]) of `sorted`, for radix_sort_low to sort. `count` holds a row of
// counters per group of chunks ([group][bucket]), filled already when `counted`; it
// is kept by the caller so that its pages stay mapped from level to level.
template <class Word, class Key = std::identity>
void bucket_scatter(std::span<const std::span<const Word>> chunks, std::span<Word> sorted, int shift, std::size_t low,
                    std::size_t buckets, std::vector<std::uint64_t>& start, std::vector<std::uint64_t>& count,
                    bool counted, Key key = {}) {
  const std::size_t k = (chunks.size() + kScatterGroup - 1) / kScatterGroup;
  const auto group = [&](std::size_t g) {
    return chunks.subspan(g * kScatterGroup, std::min(chunks.size() - g * kScatterGroup, kScatterGroup));
  };
  if (!counted) {
    count.assign(k * buckets, 0);
    tbb::parallel_for(std::size_t(0), k, [&](std::size_t g) {
      for (const auto words : group(g)) count_buckets(words, shift, low, &count[g * buckets], key);
    });
  }
  // Offsets bucket-major, group-minor: each group scatters into its own runs.
  start.assign(buckets + 1, 0);
  std::uint64_t at = 0;
  for (std::size_t b = 0; b < buckets; ++b) {
    start[b] = at;
    for (std::size_t g = 0; g < k; ++g) at += std::exchange(count[g * buckets + b], at);
  }
  start[buckets] = at;
  tbb::parallel_for(std::size_t(0), k, [&](std::size_t g) {
    std::uint64_t* next = &count[g * buckets];
    for (const auto words : group(g)) {
      for (const Word& w : words) sorted[next[std::size_t(shifted_bits(key(w), shift)) - low]++] = w;
    }
  });
}

// The sorted words [first, last) less those in `older` and `level` (both sorted),
// written once each from `first` on; counts the words found in `level` (edges
// within it, both directions) and those in neither (edges to the next level).
struct MergeCounts {
  std::uint64_t kept = 0;
  std::uint64_t within = 0;
  std::uint64_t onward = 0;
};
template <class Word>
MergeCounts subtract_levels(Word* first, Word* last, std::span<const Word> older, std::span<const Word> level) {
  MergeCounts m;
  if (first == last) return m;
  auto o = std::lower_bound(older.begin(), older.end(), *first);
  auto l = std::lower_bound(level.begin(), level.end(), *first);
  Word* out = first;
  // A word comes about three times (once from each of its neighbours in the level):
  // each run of equal words is looked up once.
  for (Word* w = first; w != last;) {
    const Word x = *w;
    Word* run = w + 1;
    while (run != last && *run == x) ++run;
    const auto copies = std::uint64_t(run - w);
    w = run;
    while (o != older.end() && *o < x) ++o;
    if (o != older.end() && *o == x) continue;
    while (l != level.end() && *l < x) ++l;
    if (l != level.end() && *l == x) {
      m.within += copies;
      continue;
    }
    m.onward += copies;
    *out++ = x;
  }
  m.kept = std::uint64_t(out - first);
  return m;
}

// The sorted words [first, last) less those in `level` (sorted), copies kept, from
// `first` on; returns the new end. A directed search's check against an earlier level.
template <class Word>
Word* drop_found(Word* first, Word* last, std::span<const Word> level) {
  if (first == last) return last;
  auto l = std::lower_bound(level.begin(), level.end(), *first);
  const auto end = std::upper_bound(l, level.end(), *(last - 1));
  if (l == end) return last;  // nothing of the level in the words' range
  Word* out = first;
  for (Word* w = first; w != last; ++w) {
    while (l != end && *l < *w) ++l;
    if (l != end && *l == *w) continue;
    *out++ = *w;
  }
  return out;
}

}  // namespace statespace::detail
