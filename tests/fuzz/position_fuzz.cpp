// Positions as `--from`, `--goal` and `solve` take them: the first byte picks a
// model (every built-in form at a few sizes, and every example puzzle file), the
// rest is the text its parse() gets. A position that parses must format to text
// that parses back to it: reports print positions that users paste back.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_check.hpp"
#include "puzzles/registry.hpp"

namespace {

using namespace statespace;

std::vector<AnyPuzzle>& fuzz_models() {
  static std::vector<AnyPuzzle> m;
  return m;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  for (const char* name : {"nooff", "hex6", "oshidori", "oshidori:1", "oshidori:7", "tiles:2x2", "tiles:2x3",
                           "tiles:3x3", "tiles:4x4", "tiles:2x8"}) {
    fuzz_models().push_back(make_puzzle(name));
  }
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(STATESPACE_SOURCE_DIR "/examples/puzzles")) {
    files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());  // the byte -> model map must not depend on the directory order
  for (const auto& f : files) fuzz_models().push_back(make_puzzle(f));
  // Seeds: each model's goal and the positions one move away, behind the byte that
  // picks the model (scripts/fuzz.sh --seeds).
  if (const char* dir = std::getenv("STATESPACE_FUZZ_WRITE_SEEDS")) {
    for (std::size_t i = 0; i < fuzz_models().size(); ++i) {
      std::visit(
          [&](const auto& p) {
            std::vector<std::string> texts = {p.format(p.goal())};
            p.for_each_successor(p.goal(), [&](const auto& s) { texts.push_back(p.format(s)); });
            for (std::size_t k = 0; k < texts.size() && k < 3; ++k) {
              std::ofstream(std::filesystem::path(dir) / (std::to_string(i) + "-" + std::to_string(k)),
                            std::ios::binary)
                  << char(i) << texts[k];
            }
          },
          fuzz_models()[i]);
    }
    std::exit(0);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const AnyPuzzle& model = fuzz_models()[data[0] % fuzz_models().size()];
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  fuzz::expect_clean([&] {
    std::visit(
        [&](const auto& p) {
          const auto s = p.parse(text);
          const std::string shown = p.format(s);
          if (!(p.parse(shown) == s)) fuzz::finding("position does not parse back", shown);
        },
        model);
  });
  return 0;
}
