// Writing a distance table (analysis/runtime/goal_table.hpp) into a report bundle:
// the header and the data go to a temporary file beside the target, fsync'ed and
// renamed, as every report file is (reports/atomic_file.hpp), without a copy of
// the data in memory.
#pragma once

#include <filesystem>

#include "analysis/runtime/goal_table.hpp"

namespace statespace::reports {

// Writes `table` to `path`; throws WriteError naming `path` on failure and leaves
// no temporary behind. The bytes depend on the table alone, not on the threads.
void write_goal_table(const std::filesystem::path& path, const GoalTable& table);

}  // namespace statespace::reports
