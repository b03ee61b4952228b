// Helpers shared by the tests: running the statespace binary and reading files.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

namespace statespace::testing {

struct CommandResult {
  int exit_code = -1;
  std::string std_out;
  std::string std_err;  // progress lines (timing-dependent) and error messages
  std::string out;      // std_out followed by std_err
};

inline std::string read_file(const std::filesystem::path& p);

// Runs a shell command line and captures its output.
inline CommandResult run_command(const std::string& command_line) {
  CommandResult r;
  const auto err_path = std::filesystem::temp_directory_path() /
                        ("statespace-test-stderr-" + std::to_string(::getpid()) + "-" + std::to_string(std::rand()));
  const std::string cmd = command_line + " 2>" + err_path.string();
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.std_out.append(buf.data(), n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.std_err = read_file(err_path);
  std::filesystem::remove(err_path);
  r.out = r.std_out + r.std_err;
  return r;
}

// Runs the statespace binary with `args` (shell syntax) and captures its output.
inline CommandResult run_statespace(const std::string& args) {
  return run_command(std::string(STATESPACE_BINARY) + " " + args);
}

// Writes `text` to `file` (replacing it) and returns the path, for files a test builds.
inline std::filesystem::path write_file(const std::filesystem::path& file, const std::string& text) {
  std::ofstream(file, std::ios::binary) << text;
  return file;
}

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A rules file's text with `symmetry = "board"` added before its first rule.
inline std::string rules_with_board_symmetry(const std::filesystem::path& file) {
  std::string text = read_file(file);
  text.insert(text.find("[[rule]]"), "symmetry = \"board\"\n");
  return text;
}

// The folders fresh_dir_path named in this process, removed when it exits if no test
// failed (a failed test's files stay for a look): each test is a process of its own
// under CTest, and a suite must not leave thousands of folders in the temp dir.
class FreshDirs {
 public:
  void add(const std::filesystem::path& dir) {
    const std::lock_guard lock(mutex_);
    dirs_.push_back(dir);
  }
  ~FreshDirs() {
    if (::testing::UnitTest::GetInstance()->Failed()) return;
    std::error_code ignored;
    for (const auto& dir : dirs_) std::filesystem::remove_all(dir, ignored);
  }

 private:
  std::mutex mutex_;
  std::vector<std::filesystem::path> dirs_;
};
inline FreshDirs& fresh_dirs() {
  static FreshDirs dirs;
  return dirs;
}

// A fresh empty folder under the system temp dir, one per process, so that suites
// running at once (two build trees, ctest --parallel) never share one.
inline std::filesystem::path fresh_dir_path(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("statespace-test-" + name + "-" + std::to_string(::getpid()));
  fresh_dirs().add(dir);
  return dir;
}
inline std::filesystem::path fresh_dir(const std::string& name) {
  const auto dir = fresh_dir_path(name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace statespace::testing
