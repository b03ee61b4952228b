// The statespace binary links no MPI library: --engine mpi replaces it (execv) with
// statespace-mpi from its own folder, given the same arguments, before a puzzle is
// read or anything written; without that program the engine is refused in one line.
// Both against a copy of the binary in a folder of its own, so that a stand-in
// script can take statespace-mpi's place. tests/mpi_test.cpp runs the real one
// through the binary under mpirun.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "test_util.hpp"

namespace statespace {
namespace {

namespace fs = std::filesystem;
using testing::fresh_dir;
using testing::run_command;
using testing::write_file;

fs::path copy_binary(const fs::path& dir) {
  const fs::path binary = dir / "statespace";
  fs::copy_file(STATESPACE_BINARY, binary);
  return binary;
}

TEST(MpiSibling, EngineMpiRunsStatespaceMpiWithTheSameArguments) {
  const fs::path dir = fresh_dir("mpi-sibling");
  const fs::path binary = copy_binary(dir);
  // A stand-in that prints its arguments, one per line: the shell gives it its own
  // path as $0, and the binary's arguments after it.
  const fs::path sibling = write_file(dir / "statespace-mpi", "#!/bin/sh\nprintf '<%s>\\n' \"$0\" \"$@\"\n");
  fs::permissions(sibling, fs::perms::owner_exec, fs::perm_options::add);
  const fs::path out = dir / "out";
  const auto r = run_command(binary.string() +
                             " --threads 1 analyze tiles:2x3 'no such puzzle' '' --engine=mpi --out " + out.string());
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.std_out, "<" + sibling.string() + ">\n<--threads>\n<1>\n<analyze>\n<tiles:2x3>\n<no such puzzle>\n<>\n" +
                           "<--engine=mpi>\n<--out>\n<" + out.string() + ">\n");
  EXPECT_EQ(r.std_err, "");
  EXPECT_FALSE(fs::exists(out));

  // Any other engine runs here.
  const auto implicit =
      run_command(binary.string() + " analyze tiles:2x3 --engine implicit --quiet --out " + out.string());
  EXPECT_EQ(implicit.exit_code, 0) << implicit.out;
  EXPECT_EQ(implicit.out, "");
  EXPECT_TRUE(fs::exists(out / "tiles-2x3" / "summary.json"));
}

TEST(MpiSibling, WithoutStatespaceMpiTheEngineIsRefusedInOneLine) {
  const fs::path dir = fresh_dir("mpi-sibling-missing");
  const fs::path binary = copy_binary(dir);
  const fs::path out = dir / "out";
  const auto r = run_command(binary.string() + " analyze tiles:2x3 --engine mpi --out " + out.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.std_out, "");
  EXPECT_EQ(r.std_err,
            "statespace: tiles:2x3: --engine mpi: this statespace was built without MPI (install the packages with "
            "scripts/install-deps.sh and configure with -DSTATESPACE_WITH_MPI=ON)\n");
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
}  // namespace statespace
