// Where query and solve find a distance table: --table FILE, or the one analyze
// --table wrote into the report folder (--out DIR, default reports-out) under the
// puzzle's name.
#pragma once

#include <filesystem>
#include <string>

#include "analysis/runtime/goal_table.hpp"
#include "reports/puzzle_report.hpp"

namespace statespace::cli {

inline std::filesystem::path bundle_table_path(const std::string& out, const std::string& puzzle) {
  return std::filesystem::path(out) / reports::folder_name(puzzle) / kGoalTableFile;
}

}  // namespace statespace::cli
