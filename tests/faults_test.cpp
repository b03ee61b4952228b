// Hard faults lose nothing: a run that stops on a full disk, a file size limit or
// SIGKILL leaves the earlier bundle as it was; runs into one folder at once all end
// up in its summary tables; a damaged checkpoint is refused; a stranger's file
// cannot make the parser allocate more than its size suggests. The statespace
// binary runs as a child process, killed or limited from here.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bad_file.hpp"
#include "reports/staging.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

namespace fs = std::filesystem;
using testing::fresh_dir;
using testing::read_file;
using testing::run_statespace;

// The statespace binary started with `args`, stdout and stderr into `log`, and,
// when given, a file size limit in bytes (RLIMIT_FSIZE, as `ulimit -f` sets it).
pid_t spawn(const std::vector<std::string>& args, const fs::path& log, std::optional<rlim_t> file_size = {}) {
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ::dup2(fd, 1);
  ::dup2(fd, 2);
  if (file_size) {
    const rlimit limit{*file_size, *file_size};
    ::setrlimit(RLIMIT_FSIZE, &limit);
  }
  std::vector<char*> argv{const_cast<char*>(STATESPACE_BINARY)};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  ::execv(STATESPACE_BINARY, argv.data());
  ::_exit(127);
}

// The exit code, or -signal when a signal ended the child.
int wait_for(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

// A bundle's files by name; summary.json without its "run" (seconds and memory
// differ between two runs of one analysis).
std::map<std::string, std::string> bundle(const fs::path& folder) {
  std::map<std::string, std::string> files;
  if (!fs::is_directory(folder)) return files;
  for (const auto& e : fs::directory_iterator(folder)) {
    std::string text = read_file(e.path());
    if (e.path().filename() == "summary.json") {
      auto json = nlohmann::json::parse(text);
      json.erase("run");
      text = json.dump();
    }
    files[e.path().filename().string()] = text;
  }
  return files;
}

// Files and folders a run leaves beside the bundles while it writes.
std::vector<std::string> temporaries(const fs::path& dir) {
  std::vector<std::string> found;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.find(".tmp") != std::string::npos || name.find(".staging-") != std::string::npos ||
        name.find(".old-") != std::string::npos) {
      found.push_back(e.path().string());
    }
  }
  return found;
}

TEST(Faults, FileSizeLimitMidBundleKeepsTheEarlierBundle) {
  const auto dir = fresh_dir("faults-fsize");
  const auto reference = fresh_dir("faults-fsize-reference");
  ASSERT_EQ(run_statespace("analyze nooff --quiet --dot-limit 0 --out " + dir.string()).exit_code, 0);
  ASSERT_EQ(run_statespace("analyze nooff --quiet --dot-limit 600 --out " + reference.string()).exit_code, 0);
  std::map<std::string, std::string> before;
  for (const auto& e : fs::directory_iterator(dir / "nooff")) before[e.path().filename()] = read_file(e.path());
  const std::string tables = read_file(dir / "summary.csv") + read_file(dir / "summary.md");
  // Room for every file written before graph.dot, not for graph.dot.
  std::uintmax_t room = 0;
  for (const char* file : {"distribution.csv", "farthest.csv", "layers.dot"}) {
    room = std::max(room, fs::file_size(reference / "nooff" / file));
  }
  ASSERT_LT(room, fs::file_size(reference / "nooff" / "graph.dot"));

  const auto log = dir.parent_path() / (dir.filename().string() + ".log");
  const pid_t pid = spawn({"analyze", "nooff", "--quiet", "--dot-limit", "600", "--out", dir.string()}, log, room);
  EXPECT_EQ(wait_for(pid), 1);
  EXPECT_EQ(read_file(log),
            "statespace: file size limit exceeded while writing " + (dir / "nooff" / "graph.dot").string() + "\n");
  std::map<std::string, std::string> after;
  for (const auto& e : fs::directory_iterator(dir / "nooff")) after[e.path().filename()] = read_file(e.path());
  EXPECT_EQ(after, before);  // byte-identical, summary.json's run included
  EXPECT_EQ(read_file(dir / "summary.csv") + read_file(dir / "summary.md"), tables);
  EXPECT_EQ(temporaries(dir), std::vector<std::string>{});

  const auto r = run_statespace("analyze nooff --quiet --dot-limit 600 --out " + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(bundle(dir / "nooff"), bundle(reference / "nooff"));
  EXPECT_EQ(temporaries(dir), std::vector<std::string>{});
  fs::remove(log);
}

// A real full disk: a 64 KiB tmpfs (needs the right to mount; skipped without it).
TEST(Faults, FullDiskMidBundleKeepsTheEarlierBundle) {
  const auto dir = fresh_dir("faults-enospc");
  // Room for hex6's bundle (index.html draws 24 boards: 83 KB), not for its
  // graph.dot (342 KB).
  if (::mount("tmpfs", dir.c_str(), "tmpfs", 0, "size=256k") != 0) {
    GTEST_SKIP() << "cannot mount a tmpfs here (" << std::strerror(errno) << "); the size-limit test covers EFBIG";
  }
  struct Unmount {
    fs::path dir;
    ~Unmount() { ::umount2(dir.c_str(), MNT_DETACH); }
  } unmount{dir};
  const auto out = dir / "out";
  ASSERT_EQ(run_statespace("analyze hex6 --quiet --dot-limit 0 --out " + out.string()).exit_code, 0);
  const auto before = bundle(out / "hex6");
  const std::string json = read_file(out / "hex6" / "summary.json");
  const auto r = run_statespace("analyze hex6 --quiet --dot-limit 6000 --out " + out.string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "statespace: no space left on device while writing " + (out / "hex6" / "graph.dot").string() + "\n");
  EXPECT_EQ(bundle(out / "hex6"), before);
  EXPECT_EQ(read_file(out / "hex6" / "summary.json"), json);
  EXPECT_EQ(temporaries(dir), std::vector<std::string>{});
}

// SIGKILL at moments spread over a run that replaces a bundle: each time the folder
// holds the old bundle or the new one, whole; the next run clears what was left.
TEST(Faults, KillAtAnyMomentLeavesTheOldOrTheNewBundle) {
  const auto dir = fresh_dir("faults-kill");
  const auto reference = fresh_dir("faults-kill-reference");
  ASSERT_EQ(run_statespace("analyze hex6 --quiet --dot-limit 0 --out " + dir.string()).exit_code, 0);
  const auto old_bundle = bundle(dir / "hex6");
  const auto old_tables = read_file(dir / "summary.csv");
  const std::vector<std::string> args = {"analyze", "hex6", "--quiet", "--dot-limit", "6000", "--out"};
  auto with_out = [&](const fs::path& out) {
    auto a = args;
    a.push_back(out.string());
    return a;
  };
  const auto log = dir.parent_path() / (dir.filename().string() + ".log");
  const auto started = std::chrono::steady_clock::now();
  ASSERT_EQ(wait_for(spawn(with_out(reference), log)), 0) << read_file(log);
  const auto whole = std::chrono::steady_clock::now() - started;
  const auto new_bundle = bundle(reference / "hex6");
  ASSERT_NE(new_bundle, old_bundle);
  const auto new_tables = read_file(reference / "summary.csv");

  int old_seen = 0, new_seen = 0;
  for (int i = 0; i <= 12; ++i) {
    const pid_t pid = spawn(with_out(dir), log);
    std::this_thread::sleep_for(whole * i / 10);
    ::kill(pid, SIGKILL);
    (void)wait_for(pid);
    const auto now = bundle(dir / "hex6");
    EXPECT_TRUE(now == old_bundle || now == new_bundle) << "after " << i << "/10 of a run: a mixed bundle";
    (now == old_bundle ? old_seen : new_seen) += 1;
    const auto table = read_file(dir / "summary.csv");
    EXPECT_TRUE(table == old_tables || table == new_tables) << table;
  }
  EXPECT_GT(old_seen, 0);  // the earliest kill always comes before the swap
  ASSERT_EQ(wait_for(spawn(with_out(dir), log)), 0) << read_file(log);
  EXPECT_EQ(bundle(dir / "hex6"), new_bundle);
  EXPECT_EQ(read_file(dir / "summary.csv"), new_tables);
  EXPECT_EQ(temporaries(dir), std::vector<std::string>{});
  fs::remove(log);
}

// SIGKILL right after a bundle's swap, at the first call that removes the earlier
// bundle or syncs the folder (tests/kill_after_swap.cpp, preloaded): the folder's
// tables already describe the new bundle. Before, they were read, rendered and
// written only after that point, and a kill there left them describing the old
// bundle until the next run. The next run clears the earlier bundle left aside.
TEST(Faults, KillAfterTheSwapLeavesTablesOfTheNewBundle) {
  const auto dir = fresh_dir("faults-swap");
  const auto reference = fresh_dir("faults-swap-reference");
  ASSERT_EQ(run_statespace("analyze hex6 nooff --quiet --out " + dir.string()).exit_code, 0);
  const std::string args = " analyze hex6 --from '2 1 / 3 4 5 / 6 _' --quiet --out ";
  ASSERT_EQ(run_statespace(args + reference.string()).exit_code, 0);
  ASSERT_EQ(run_statespace("analyze nooff --quiet --out " + reference.string()).exit_code, 0);
  ASSERT_NE(read_file(dir / "summary.csv"), read_file(reference / "summary.csv"));

  const auto r = testing::run_command("LD_PRELOAD=" KILL_AFTER_SWAP_LIBRARY
                                      " ASAN_OPTIONS=verify_asan_link_order=0 exec " STATESPACE_BINARY +
                                      args + dir.string());
  EXPECT_EQ(r.exit_code, -1) << "not killed: " << r.out;
  EXPECT_EQ(bundle(dir / "hex6"), bundle(reference / "hex6"));
  for (const char* table : {"summary.csv", "summary.md", "index.html"}) {
    EXPECT_EQ(read_file(dir / table), read_file(reference / table)) << table;
  }
  EXPECT_FALSE(temporaries(dir).empty());  // the earlier bundle, left aside

  ASSERT_EQ(run_statespace(args + dir.string()).exit_code, 0);
  EXPECT_EQ(read_file(dir / "summary.csv"), read_file(reference / "summary.csv"));
  EXPECT_EQ(temporaries(dir), std::vector<std::string>{});
}

// The summary tables index every bundle in the folder, whichever run wrote it.
TEST(Faults, RunsIntoOneFolderKeepEveryRowInTheTables) {
  const auto dir = fresh_dir("faults-one-folder");
  ASSERT_EQ(run_statespace("analyze hex6 --quiet --out " + dir.string()).exit_code, 0);
  ASSERT_EQ(run_statespace("analyze nooff --quiet --out " + dir.string()).exit_code, 0);
  // The seeds in `--all` order, then the other folders by name.
  EXPECT_EQ(read_file(dir / "summary.csv"),
            "puzzle,start,states,edges,eccentricity,farthest,diameter,components,start_component\n"
            "nooff,L L N O / O F F _,540,570,56,3,,,\n"
            "hex6,1 2 / 3 4 5 / 6 _,5040,8640,15,24,,,\n");
  const auto theta0 = std::string(STATESPACE_EXAMPLES) + "/theta0.toml";
  ASSERT_EQ(run_statespace("analyze " + theta0 + " tiles:2x3 --quiet --out " + dir.string()).exit_code, 0);
  EXPECT_EQ(read_file(dir / "summary.md"),
            "| puzzle | start | states | edges | eccentricity | farthest positions | diameter | components |\n"
            "|---|---|--:|--:|--:|--:|--:|---|\n"
            "| nooff | `L L N O / O F F _` | 540 | 570 | 56 | 3 |  |  |\n"
            "| hex6 | `1 2 / 3 4 5 / 6 _` | 5,040 | 8,640 | 15 | 24 |  |  |\n"
            "| theta0 | `1 2 3 4 5 6 _` | 840 | 960 | 29 | 1 |  |  |\n"
            "| tiles:2x3 | `1 2 3 / 4 5 _` | 360 | 420 | 21 | 1 |  |  |\n");
}

TEST(Faults, ConcurrentRunsIntoOneFolderEqualASequentialRun) {
  const auto together = fresh_dir("faults-together");
  const auto one_by_one = fresh_dir("faults-one-by-one");
  const std::vector<std::string> puzzles = {"nooff", "hex6", "oshidori",
                                            std::string(STATESPACE_EXAMPLES) + "/theta0.toml"};
  for (int round = 0; round < 2; ++round) {
    fs::remove_all(together);
    std::vector<pid_t> children;
    std::vector<fs::path> logs;
    for (std::size_t i = 0; i < puzzles.size(); ++i) {
      logs.push_back(together.parent_path() / (together.filename().string() + std::to_string(i) + ".log"));
      children.push_back(spawn({"analyze", puzzles[i], "--quiet", "--out", together.string()}, logs.back()));
    }
    for (std::size_t i = 0; i < children.size(); ++i) {
      EXPECT_EQ(wait_for(children[i]), 0) << read_file(logs[i]);
      fs::remove(logs[i]);
    }
    if (round == 0) {
      for (const auto& p : puzzles)
        ASSERT_EQ(run_statespace("analyze " + p + " --quiet --out " + one_by_one.string()).exit_code, 0);
    }
    const auto csv = read_file(together / "summary.csv");
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5) << csv;
    EXPECT_EQ(csv, read_file(one_by_one / "summary.csv"));
    EXPECT_EQ(read_file(together / "summary.md"), read_file(one_by_one / "summary.md"));
    for (const char* folder : {"nooff", "hex6", "oshidori", "theta0"}) {
      EXPECT_EQ(bundle(together / folder), bundle(one_by_one / folder)) << folder;
    }
    EXPECT_EQ(temporaries(together), std::vector<std::string>{});
  }
}

// `analyze --all` into a fresh folder: the tables as they have always been.
// A bundle's files skip their own fsync only inside this process's staging folder,
// whose commit syncs the file system before the swap: a bundle then costs one
// syncfs and one fsync of the folder, not one fsync a file (200 Rush Hour rows with
// --out: 24 s before, 13 s after, on a loaded 2-core box).
TEST(Faults, OnlyThisRunsStagedFilesWaitForTheCommitsSync) {
  const std::string pid = std::to_string(::getpid());
  EXPECT_TRUE(reports::in_own_staging("/out/.tiles-2x3.staging-" + pid + "/summary.json"));
  EXPECT_TRUE(reports::in_own_staging("out/.tiles-2x3.staging-" + pid + "/sub/boards.svg"));
  EXPECT_FALSE(reports::in_own_staging("/out/.tiles-2x3.staging-1" + pid + "/summary.json"));  // another run's
  EXPECT_FALSE(reports::in_own_staging("/out/tiles-2x3/summary.json"));
  EXPECT_FALSE(reports::in_own_staging("/out/summary.csv"));
  EXPECT_FALSE(reports::in_own_staging("/out/.tiles-2x3.staging-" + pid));  // the folder, not a file in it
  EXPECT_FALSE(reports::in_own_staging("/out/tiles-2x3.staging-" + pid + "/summary.json"));  // not a staging name
}

TEST(Faults, AllSeedsTablesUnchanged) {
  const auto dir = fresh_dir("faults-all");
  const auto r = run_statespace("analyze --all --quiet --out " + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(read_file(dir / "summary.csv"),
            "puzzle,start,states,edges,eccentricity,farthest,diameter,components,start_component\n"
            "nooff,L L N O / O F F _,540,570,56,3,,,\n"
            "hex6,1 2 / 3 4 5 / 6 _,5040,8640,15,24,,,\n"
            "oshidori,B B B W W W _ _,140,300,6,1,,,\n"
            "tiles:3x3,1 2 3 / 4 5 6 / 7 8 _,181440,241920,31,2,,,\n");
  EXPECT_EQ(read_file(dir / "summary.md"),
            "| puzzle | start | states | edges | eccentricity | farthest positions | diameter | components |\n"
            "|---|---|--:|--:|--:|--:|--:|---|\n"
            "| nooff | `L L N O / O F F _` | 540 | 570 | 56 | 3 |  |  |\n"
            "| hex6 | `1 2 / 3 4 5 / 6 _` | 5,040 | 8,640 | 15 | 24 |  |  |\n"
            "| oshidori | `B B B W W W _ _` | 140 | 300 | 6 | 1 |  |  |\n"
            "| tiles:3x3 | `1 2 3 / 4 5 6 / 7 8 _` | 181,440 | 241,920 | 31 | 2 |  |  |\n");
}

// A damaged checkpoint is refused on --resume with one line, before any report.
TEST(Faults, TruncatedOrBitFlippedCheckpointIsRefusedOnResume) {
  const auto dir = fresh_dir("faults-checkpoint");
  const auto ck = dir / "ck";
  const auto first = run_statespace("analyze tiles:2x4 --engine implicit --quiet --checkpoint " + ck.string() +
                                    " --out " + (dir / "a").string());
  ASSERT_EQ(first.exit_code, 0) << first.out;
  const auto file = ck / "implicit-bfs.ckpt";
  const std::string good = read_file(file);
  ASSERT_GT(good.size(), 64u);
  struct Damage {
    std::string bytes;
    std::string message;
  };
  std::string flipped = good;
  flipped[flipped.size() - 5] = char(flipped[flipped.size() - 5] ^ 0x04);  // one bit of the tables
  std::string header_flipped = good;
  header_flipped[40] = char(header_flipped[40] ^ 0x01);
  const std::vector<Damage> damages = {
      {good.substr(0, good.size() - 8), "truncated tables"},
      {good.substr(0, 30), "header ends early"},
      {flipped, "data checksum mismatch (corrupt file)"},
      {header_flipped, "header checksum mismatch (corrupt file)"},
  };
  for (const auto& d : damages) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << d.bytes;
    const auto out = dir / "b";
    const auto r = run_statespace("analyze tiles:2x4 --quiet --resume " + ck.string() + " --out " + out.string());
    EXPECT_EQ(r.exit_code, 2) << d.message;
    EXPECT_EQ(r.std_out, "");
    EXPECT_TRUE(r.std_err.starts_with("statespace: checkpoint " + file.string() + ": " + d.message)) << r.std_err;
    EXPECT_EQ(std::count(r.std_err.begin(), r.std_err.end(), '\n'), 1) << r.std_err;
    EXPECT_FALSE(fs::exists(out / "tiles-2x4")) << d.message;
  }
}

// A file is refused unread past 1 MB, and numbers in a file are bounded by its
// declared sizes before anything is allocated by them.
TEST(Faults, StrangersFilesAreBoundedBeforeTheParserAllocates) {
  const auto dir = fresh_dir("faults-limits");
  const auto big = dir / "big.toml";
  {
    std::ofstream f(big, std::ios::binary);
    f << "name = \"big\"\nkind = \"graph\"\n";
    f << std::string((1 << 20) + 100 - 29, '#') << "\n";
  }
  ASSERT_EQ(fs::file_size(big), (1u << 20) + 100);
  const auto r = run_statespace("analyze " + big.string() + " --quiet --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(
      r.out,
      "statespace: " + big.string() +
          ": larger than 1 MiB (1,048,676 bytes; expected a puzzle file or manifest of at most 1,048,576 bytes)\n");
  EXPECT_FALSE(fs::exists(dir / "out"));

  std::string many_moves =
      "name = \"x\"\nkind = \"permutation\"\nstart = \"1 2 3 4 5 6\"\nmetric = \"given\"\n[moves]\n";
  for (int m = 1000; m < 2000; ++m) many_moves += std::string("m").append(std::to_string(m)).append(" = \"(1,2)\"\n");
  const std::string cells = "name = \"x\"\nkind = \"permutation\"\nstart = \"1 2 3\"\n[moves]\n";
  const std::vector<testing::BadFile> cases = {
      {cells + "A = \"(1,99999999)\"\n", "bad.toml:5:9: move 'A': cell 99999999 is out of range"},
      {cells + "A = \"(1,99999999999999999999)\"\n", "bad.toml:5:9: move 'A': a cycle that is not cell numbers"},
      // A thousand moves, all (1,2): refused at the 257th, before the quadratic check.
      {many_moves, "bad.toml:262:9: move 'm1256' makes more than 256 moves"},
      {"name = \"x\"\nkind = \"graph\"\nstart = \"1 2 _\"\nedges = \"1-2 2-99999999\"\n",
       "bad.toml:4:16: unknown vertex '99999999' in edge '2-99999999'"},
      // The 49th cell of a 100,000-cell picture: its own line and column.
      {"name = \"x\"\nkind = \"blocks\"\nstart = \"" + std::string(100000, 'A') + "\"\n",
       "bad.toml:3:58: the picture has more than 48 cells, too large for the state encoding (at most 48 cells)"},
      {"name = \"x\"\nkind = \"blocks\"\nstart = \"\"\"\nAB\n" + std::string(60, '.') + "\n\"\"\"\n",
       "bad.toml:5:47: the picture has more than 48 cells"},
  };
  testing::expect_refused(dir, cases);

  // Counted, not kept: the lines name the whole count.
  std::string spaced, edges;
  for (int i = 0; i < 200000; ++i) spaced += "A ";
  for (int i = 0; i < 100000; ++i) edges += "1-2 ";
  testing::expect_refused(dir, {{"name = \"x\"\nkind = \"graph\"\nstart = \"" + spaced + "\"\nedges = \"1-2\"\n",
                                 "bad.toml:3:9: start has 200000 cells (expected 1 to 32 labels separated by spaces)"},
                                {"name = \"x\"\nkind = \"graph\"\nstart = \"1 2 _\"\nedges = \"" + edges + "\"\n",
                                 "bad.toml:4:14: duplicate edge '1-2'"}});
}

// The child's peak resident memory in bytes (wait4's rusage).
long peak_bytes(const std::vector<std::string>& args, const fs::path& log) {
  const pid_t pid = spawn(args, log);
  int status = 0;
  rusage usage{};
  ::wait4(pid, &status, 0, &usage);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 2) << read_file(log);
  return usage.ru_maxrss * 1024;
}

// A file of nearly 1 MB whose numbers or counts are huge costs the parser a small
// multiple of its size over a tiny file's refusal, not a structure per character.
TEST(Faults, ParsingAHugeFileCostsAFewTimesItsSize) {
#if defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer's shadow memory and quarantine make a child's peak size say
  // nothing about the parser's own allocations; the Release pass measures them.
  GTEST_SKIP() << "peak memory is not the program's own under AddressSanitizer";
#endif
  const auto dir = fresh_dir("faults-parse-memory");
  const auto file = dir / "x.toml", log = dir / "log";
  const auto peak_for = [&](const std::string& text) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
    return peak_bytes({"analyze", file.string(), "--out", (dir / "out").string()}, log);
  };
  const long baseline = peak_for("name = \"x\"\nkind = \"blocks\"\nstart = \"A.\"\ncolour = 1\n");
  std::string spaced;
  for (int i = 0; i < 480000; ++i) spaced += "A ";
  std::string edges;
  for (int i = 0; i < 240000; ++i) edges += "1-2 ";
  const std::vector<std::string> texts = {
      "name = \"x\"\nkind = \"blocks\"\nstart = \"" + std::string(1000000, 'A') + "\"\n",
      "name = \"x\"\nkind = \"graph\"\nstart = \"" + spaced + "\"\nedges = \"1-2\"\n",
      "name = \"x\"\nkind = \"graph\"\nstart = \"A B _\"\nedges = \"" + edges + "\"\n",
  };
  for (const auto& text : texts) {
    ASSERT_LT(text.size(), std::size_t(1) << 20);
    EXPECT_LT(peak_for(text) - baseline, long(4 * text.size())) << text.substr(0, 60) << "\n" << read_file(log);
  }
}

// Each file kind, at the largest board its encoding takes, is refused under --memory
// before its tables are allocated: the line names what it needs.
TEST(Faults, LargeFilesOfEveryKindAreRefusedUnderTheMemoryBudget) {
  const auto dir = fresh_dir("faults-memory");
  std::string blocks = "name = \"x\"\nkind = \"blocks\"\nstart = \"\"\"\n";
  const std::string names = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  for (int r = 0; r < 6; ++r) blocks += names.substr(std::size_t(r) * 8, 8) + "\n";
  blocks.replace(blocks.size() - 2, 1, ".");
  blocks += "\"\"\"\n";
  std::string graph = "name = \"x\"\nkind = \"graph\"\nstart = \"_ A B C D E F G H I J K L M N O A B C D\"\nedges = \"";
  for (int v = 1; v < 20; ++v) graph += std::to_string(v) + "-" + std::to_string(v + 1) + " ";
  graph += "20-1 1-11\"\n";
  std::string permutation = "name = \"x\"\nkind = \"permutation\"\nmetric = \"given\"\nstart = \"";
  for (int c = 1; c <= 32; ++c) permutation += std::to_string(c) + (c < 32 ? " " : "\"\n[moves]\n");
  for (int c = 2; c <= 32; ++c)
    permutation +=
        std::string("m").append(std::to_string(c)).append(" = \"(1,").append(std::to_string(c)).append(")\"\n");
  testing::expect_refused(dir,
                          {{blocks, "x: explicit graph needs 566,231,040 bytes, over the memory budget of 1,048,576"},
                           {graph, "over the memory budget of 1,048,576 bytes"},
                           {permutation, "over the memory budget of 1,048,576 bytes"}},
                          " --memory 1M");
}

}  // namespace
}  // namespace statespace
