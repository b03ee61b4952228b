// The refusal every broken puzzle file gets: exit code 2, one line on stderr that
// names the problem, and no report folder.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "test_util.hpp"

namespace statespace::testing {

struct BadFile {
  std::string text;
  std::string message;  // what the one line must contain
};

// Writes each case to DIR/bad.toml and runs `analyze` on it with `options`.
inline void expect_refused(const std::filesystem::path& dir, const std::vector<BadFile>& cases,
                           const std::string& options = "") {
  for (const auto& c : cases) {
    const auto file = dir / "bad.toml";
    std::ofstream(file) << c.text;
    const auto out = dir / "out";
    const auto r = run_statespace("analyze " + file.string() + " --quiet --out " + out.string() + options);
    EXPECT_EQ(r.exit_code, 2) << c.text << r.out;
    EXPECT_NE(r.std_err.find(c.message), std::string::npos) << c.text << r.std_err;
    EXPECT_EQ(std::count(r.std_err.begin(), r.std_err.end(), '\n'), 1) << r.std_err;
    EXPECT_FALSE(std::filesystem::exists(out)) << c.text;
  }
}

}  // namespace statespace::testing
