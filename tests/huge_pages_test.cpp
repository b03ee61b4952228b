// The huge page allocator: big allocations at huge page boundaries, advised as huge
// pages, zeroed, and given back; small ones from the heap; vectors over it behave as
// vectors.
#include "analysis/runtime/huge_pages.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>
#include <string>

namespace statespace {
namespace {

bool all_zero(const unsigned char* p, std::size_t bytes) {
  return std::all_of(p, p + bytes, [](unsigned char b) { return b == 0; });
}

// The VmFlags of the mapping holding `p`, from /proc/self/smaps ("" when not found).
std::string vm_flags(const void* p) {
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    std::uintptr_t begin = 0, end = 0;
    char dash = 0;
    std::istringstream range(line);
    if (range >> std::hex >> begin >> dash >> end && dash == '-' && line.find(':') > line.find(' ')) {
      inside = begin <= at && at < end;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

TEST(HugePages, MappingBytesAreWholeHugePages) {
  EXPECT_EQ(huge_mapping_bytes(kHugePageBytes), kHugePageBytes);
  EXPECT_EQ(huge_mapping_bytes(kHugePageBytes + 1), 2 * kHugePageBytes);
  EXPECT_EQ(huge_mapping_bytes(519'000'000), 248 * kHugePageBytes);
  // What memory checks count: small allocations as they are, big ones rounded up.
  EXPECT_EQ(huge_resident_bytes(1000), 1000u);
  EXPECT_EQ(huge_resident_bytes(kHugePageBytes - 1), kHugePageBytes - 1);
  EXPECT_EQ(huge_resident_bytes(kHugePageBytes + 1), 2 * kHugePageBytes);
}

TEST(HugePages, BigAllocationsAreAlignedZeroedAndAdvised) {
  HugePageAllocator<std::uint64_t> a;
  // Exactly a huge page, an odd size past several, and one of tens of megabytes.
  for (const std::size_t n : {kHugePageBytes / 8, 3 * kHugePageBytes / 8 + 5, std::size_t{40} << 17}) {
    std::uint64_t* p = a.allocate(n);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % kHugePageBytes, 0u) << n;
    EXPECT_TRUE(all_zero(reinterpret_cast<const unsigned char*>(p), n * 8)) << n;
    std::iota(p, p + n, std::uint64_t{1});
    EXPECT_EQ(p[n - 1], n);
    if (std::filesystem::exists("/sys/kernel/mm/transparent_hugepage/enabled")) {
      // "hg": the mapping asked for huge pages before anything touched it.
      EXPECT_NE(vm_flags(p).find(" hg"), std::string::npos) << vm_flags(p);
    }
    a.deallocate(p, n);
  }
}

TEST(HugePages, SmallAllocationsComeFromTheHeapZeroed) {
  HugePageAllocator<std::uint16_t> a;
  for (const std::size_t n : {std::size_t{1}, std::size_t{1000}, kHugePageBytes / 2 - 1}) {
    std::uint16_t* p = a.allocate(n);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % alignof(std::uint16_t), 0u);
    EXPECT_TRUE(all_zero(reinterpret_cast<const unsigned char*>(p), n * 2)) << n;
    std::fill(p, p + n, std::uint16_t{0xBEEF});
    a.deallocate(p, n);
  }
}

TEST(HugePages, VectorsKeepTheirContentsAcrossTheThreshold) {
  BigVector<std::uint32_t> v;
  const std::size_t n = 3 * kHugePageBytes / 4;  // 6 MiB of elements: grows from heap to mappings
  for (std::size_t i = 0; i < n; ++i) v.push_back(std::uint32_t(i * 2654435761u));
  ASSERT_EQ(v.size(), n);
  for (std::size_t i = 0; i < n; i += 4099) EXPECT_EQ(v[i], std::uint32_t(i * 2654435761u));
  EXPECT_EQ(v.back(), std::uint32_t((n - 1) * 2654435761u));
  const std::uint32_t* data = v.data();
  BigVector<std::uint32_t> moved = std::move(v);
  EXPECT_EQ(moved.data(), data);
  BigVector<std::uint32_t> zeros(n, 0);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(zeros.data()) % kHugePageBytes, 0u);
  EXPECT_EQ(std::count(zeros.begin(), zeros.end(), 0u), std::ptrdiff_t(n));
  BigVector<std::uint32_t>().swap(zeros);
  EXPECT_TRUE(zeros.empty());
}

}  // namespace
}  // namespace statespace
