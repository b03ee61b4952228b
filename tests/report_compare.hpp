// Comparing two report folders of one puzzle: the files that describe the puzzle
// must be byte-identical whichever engine (or interrupted run) produced them; only
// summary.json's "engine" and "run" (threads, seconds, peak bytes) may differ.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "test_util.hpp"

namespace statespace::testing {

// summary.json without the fields that describe the run rather than the puzzle.
inline std::string puzzle_facts(const std::filesystem::path& summary) {
  auto j = nlohmann::ordered_json::parse(read_file(summary));
  EXPECT_TRUE(j.contains("engine") && j.contains("run")) << summary;
  j.erase("run");
  j.erase("engine");
  return j.dump(2);
}

inline void expect_same_reports(const std::filesystem::path& a, const std::filesystem::path& b) {
  for (const char* name : {"distribution.csv", "farthest.csv", "layers.dot"}) {
    ASSERT_TRUE(std::filesystem::exists(a / name)) << a / name;
    EXPECT_EQ(read_file(a / name), read_file(b / name)) << a / name;
  }
  EXPECT_EQ(puzzle_facts(a / "summary.json"), puzzle_facts(b / "summary.json")) << a;
}

}  // namespace statespace::testing
