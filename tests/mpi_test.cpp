// The MPI engine against the single-process implicit engine: the statespace binary
// under mpirun at 1, 2 and 3 processes (3 splits the slices unevenly) gives
// byte-identical reports on tiles:2x5 and tiles:3x4; a run whose last process is
// SIGKILLed after a checkpoint (tests/mpi_checkpoint_crash.cpp) fails, and --resume
// finishes it to the same reports;
// a different process count, or a share over --memory, is refused before any work.
// CI has 2 cores: mpirun runs oversubscribed, one thread per process.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "core/text.hpp"
#include "distributed/mpi_bfs.hpp"
#include "report_compare.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

namespace fs = std::filesystem;
using testing::expect_same_reports;
using testing::fresh_dir;
using testing::fresh_dir_path;
using testing::run_statespace;

// Open MPI refuses root unless told (CI runs as root).
void allow_root() {
  ::setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
  ::setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
}

// mpirun -np N statespace ARGS.
testing::CommandResult run_mpi(int processes, const std::string& args) {
  allow_root();
  const std::string mpirun =
      std::string(STATESPACE_MPIEXEC) + " --oversubscribe -np " + std::to_string(processes) + " " + STATESPACE_BINARY;
  return testing::run_command(mpirun + " " + args);
}

// mpirun -np 1, 2, 3 of `puzzle` with --engine mpi against one process of
// `reference` (implicit for tiles, ranked for the other ranked models).
void expect_mpi_matches(const std::string& puzzle, const std::string& folder, const std::string& tag,
                        const std::string& reference) {
  const fs::path dir = fresh_dir("mpi-" + tag);
  ASSERT_EQ(
      run_statespace("analyze " + puzzle + " --engine " + reference + " --quiet --out " + (dir / reference).string())
          .exit_code,
      0);
  for (int np : {1, 2, 3}) {
    const fs::path out = dir / ("np" + std::to_string(np));
    const auto r = run_mpi(np, "--threads 1 analyze " + puzzle + " --engine mpi --quiet --out " + out.string());
    ASSERT_EQ(r.exit_code, 0) << r.out;
    expect_same_reports(out / folder, dir / reference / folder);
  }
}

void expect_mpi_matches_implicit(const std::string& puzzle, const std::string& tag) {
  expect_mpi_matches(puzzle, "tiles-" + puzzle.substr(6), tag, "implicit");
}

// A ranked model other than tiles (a graph file): --engine mpi is the ranked engine
// over processes, and its reports are the one-process ranked engine's.
void expect_mpi_matches_ranked(const std::string& file, const std::string& folder) {
  expect_mpi_matches(std::string(STATESPACE_EXAMPLES) + "/" + file, folder, folder, "ranked");
}

TEST(MpiEngine, RankedGraphFilesAtOneTwoThreeProcessesEqualTheRankedEngine) {
  expect_mpi_matches_ranked("grid3x3.toml", "grid3x3");
  expect_mpi_matches_ranked("theta0.toml", "theta0");
  // Two threads per process take the parallel scan of each process's slices.
  const fs::path dir = fresh_dir("mpi-grid3x3-threads");
  const auto r = run_mpi(2, "--threads 2 analyze " + std::string(STATESPACE_EXAMPLES) +
                                "/grid3x3.toml --engine mpi --quiet --out " + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  expect_same_reports(dir / "grid3x3", fresh_dir_path("mpi-grid3x3") / "ranked" / "grid3x3");
}

// analyze --table over MPI: each process fills its ranks' part and rank 0 writes one
// file, byte for byte the one-process ranked engine's table, at 1, 2 and 3 processes
// (3 splits the slices unevenly). grid3x3 searches from its goal; theta0's forward
// search from its start leaves the table to the search from the goal.
TEST(MpiEngine, RankedTablesAtOneTwoThreeProcessesEqualTheRankedEngines) {
  for (const std::string name : {"grid3x3", "theta0"}) {
    const std::string file = std::string(STATESPACE_EXAMPLES) + "/" + name + ".toml";
    const fs::path dir = fresh_dir("mpi-table-" + name);
    ASSERT_EQ(run_statespace("analyze " + file + " --engine ranked --table --quiet --out " + (dir / "ranked").string())
                  .exit_code,
              0);
    const std::string table = testing::read_file(dir / "ranked" / name / "goal-distances.table");
    EXPECT_GT(table.size(), 1000u);
    for (int np : {1, 2, 3}) {
      const fs::path out = dir / ("np" + std::to_string(np));
      const auto r = run_mpi(np, "--threads 1 analyze " + file + " --engine mpi --table --quiet --out " + out.string());
      ASSERT_EQ(r.exit_code, 0) << r.out;
      EXPECT_EQ(testing::read_file(out / name / "goal-distances.table"), table) << name << " np " << np;
    }
  }
}

// The tiles' MPI engine: each process fills the table over its own sequences and
// rank 0 gathers the parts into one file, byte for byte the implicit engine's. From
// the goal the search fills it; from elsewhere (--from) a second search from the goal.
TEST(MpiEngine, TilesTablesAtOneTwoThreeProcessesEqualTheImplicitEngines) {
  const fs::path dir = fresh_dir("mpi-table-tiles");
  const std::string from = " --from \"1 2 3 4 5 / 6 7 8 _ 9\"";
  ASSERT_EQ(run_statespace("analyze tiles:2x5 --engine implicit --table --quiet --out " + (dir / "implicit").string())
                .exit_code,
            0);
  const std::string table = testing::read_file(dir / "implicit" / "tiles-2x5" / "goal-distances.table");
  EXPECT_EQ(table.size(), 454'216u);  // 1,814,400 classes x 2 bits and the header
  for (int np : {1, 2, 3}) {
    const fs::path out = dir / ("np" + std::to_string(np));
    const auto r = run_mpi(np, "--threads 1 analyze tiles:2x5 --engine mpi --table --quiet --out " + out.string());
    ASSERT_EQ(r.exit_code, 0) << r.out;
    EXPECT_EQ(testing::read_file(out / "tiles-2x5" / "goal-distances.table"), table) << "np " << np;
  }
  const fs::path moved = dir / "from-np3";
  const auto r =
      run_mpi(3, "--threads 1 analyze tiles:2x5 --engine mpi --table --quiet" + from + " --out " + moved.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(testing::read_file(moved / "tiles-2x5" / "goal-distances.table"), table);
}

// Parts of 2^31 words or more go to rank 0 in several messages (an MPI count is an
// int): messages of 1, 2 and 7 words take that path on small parts.
TEST(MpiEngine, GatherSplitsPartsIntoMessages) {
  allow_root();
  for (int np : {1, 2, 3}) {
    for (const char* message : {"1", "2", "7"}) {
      const auto r = testing::run_command(std::string(STATESPACE_MPIEXEC) + " --oversubscribe -np " +
                                          std::to_string(np) + " " + MPI_GATHER_CHECK_BINARY + " " + message);
      ASSERT_EQ(r.exit_code, 0) << r.out;
      const int words = 3 * np + 5 * np * (np - 1) / 2;
      EXPECT_NE(r.out.find("gathered " + std::to_string(words) + " words in order"), std::string::npos) << r.out;
    }
  }
}

TEST(MpiEngine, TwoByFiveAtOneTwoThreeProcessesEqualsImplicit) {
  expect_mpi_matches_implicit("tiles:2x5", "2x5");
  // Without mpirun: one process (MPI singleton).
  const fs::path dir = fresh_dir("mpi-2x5-singleton");
  const auto r = run_statespace("analyze tiles:2x5 --engine mpi --quiet --out " + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  expect_same_reports(dir / "tiles-2x5", fresh_dir_path("mpi-2x5") / "implicit" / "tiles-2x5");
}

TEST(MpiEngine, ThreeByFourAtOneTwoThreeProcessesEqualsImplicit) { expect_mpi_matches_implicit("tiles:3x4", "3x4"); }

TEST(MpiEngine, KilledProcessResumesToTheSameReports) {
  const fs::path dir = fresh_dir("mpi-resume");
  const std::string ck = (dir / "ck").string();
  ASSERT_EQ(
      run_statespace("analyze tiles:2x5 --engine implicit --quiet --out " + (dir / "implicit").string()).exit_code, 0);
  allow_root();
  const auto killed = testing::run_command(std::string(STATESPACE_MPIEXEC) + " --oversubscribe -np 2 " +
                                           MPI_CHECKPOINT_CRASH_BINARY + " 2x5 " + ck + " 30");
  EXPECT_NE(killed.exit_code, 0) << killed.out;
  EXPECT_TRUE(fs::exists(dir / "ck" / "mpi-np2-rank0-level30" / "implicit-bfs.ckpt"));
  EXPECT_TRUE(fs::exists(dir / "ck" / "mpi-np2-rank1-level30" / "implicit-bfs.ckpt"));
  EXPECT_FALSE(fs::exists(dir / "ck" / "mpi-np2-rank0-level29"));  // removed once all had level 30

  const auto other = run_mpi(
      3, "--threads 1 analyze tiles:2x5 --engine mpi --quiet --resume " + ck + " --out " + (dir / "out").string());
  EXPECT_NE(other.exit_code, 0);
  EXPECT_NE(other.out.find("was written by 2 MPI processes, not 3 (resume with mpirun -np 2)"), std::string::npos)
      << other.out;

  const auto resumed = run_mpi(
      2, "--threads 1 analyze tiles:2x5 --engine mpi --quiet --resume " + ck + " --out " + (dir / "out").string());
  ASSERT_EQ(resumed.exit_code, 0) << resumed.out;
  expect_same_reports(dir / "out" / "tiles-2x5", dir / "implicit" / "tiles-2x5");
}

TEST(MpiEngine, ProcessShareOverTheBudgetIsRefusedBeforeWork) {
  const fs::path dir = fresh_dir("mpi-memory");
  // tiles:3x4 over 2 processes: ~30 MB each; a 20 MB budget fits neither.
  const std::uint64_t need = mpi_process_bytes(Tiles(3, 4), 2, 0);
  EXPECT_GT(need, 20u << 20);
  EXPECT_LT(need, 32u << 20);
  const auto r = run_mpi(2, "analyze tiles:3x4 --engine mpi --memory 20M --out " + dir.string());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.out.find("tiles:3x4: implicit BFS tables of MPI process 0 of 2 needs " + with_commas(need) + " bytes"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("--memory"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir / "tiles-3x4" / "summary.json"));
}

}  // namespace
}  // namespace statespace
