// Positions as `--from`, `--goal` and `solve` take them, on every built-in form at a
// few sizes and every example puzzle file. An input names its model on its first
// line ("tiles:3x3", "cube2.tws"), the rest is the text its parse() gets; a first
// line that names no model (the mutator's work) leaves the whole input to the model
// its first byte picks. Keyed by name, a seed keeps its model when models are added.
// A position that parses must format to text that parses back to it: reports print
// positions that users paste back.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fuzz_check.hpp"
#include "puzzles/registry.hpp"

namespace {

using namespace statespace;

// Each model and the key inputs name it by.
std::vector<std::pair<std::string, AnyPuzzle>>& fuzz_models() {
  static std::vector<std::pair<std::string, AnyPuzzle>> m;
  return m;
}

// The seed file for `key`: its name with ':' and '/' made file-name safe.
std::string seed_name(std::string key, std::size_t k) {
  std::replace(key.begin(), key.end(), ':', '_');
  return key + "-" + std::to_string(k);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  for (const char* name : {"nooff", "hex6", "oshidori", "oshidori:1", "oshidori:7", "tiles:2x2", "tiles:2x3",
                           "tiles:3x3", "tiles:4x4", "tiles:2x8"}) {
    fuzz_models().emplace_back(name, make_puzzle(name));
  }
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(STATESPACE_SOURCE_DIR "/examples/puzzles")) {
    files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) fuzz_models().emplace_back(f.filename().string(), make_puzzle(f.string()));
  // Seeds: each model's goal and two positions one move away, behind the model's
  // key (scripts/fuzz.sh --seeds).
  if (const char* dir = std::getenv("STATESPACE_FUZZ_WRITE_SEEDS")) {
    for (const auto& entry : fuzz_models()) {
      const std::string& key = entry.first;  // a structured binding: no lambda capture in C++20
      std::visit(
          [&](const auto& p) {
            std::vector<std::string> texts = {p.format(p.goal())};
            p.for_each_successor(p.goal(), [&](const auto& s) { texts.push_back(p.format(s)); });
            for (std::size_t k = 0; k < texts.size() && k < 3; ++k) {
              std::ofstream(std::filesystem::path(dir) / seed_name(key, k), std::ios::binary) << key << '\n'
                                                                                              << texts[k];
            }
          },
          entry.second);
    }
    std::exit(0);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto& models = fuzz_models();
  const AnyPuzzle* model = &models[data[0] % models.size()].second;
  std::string_view text = input;
  if (const auto line = input.find('\n'); line != std::string_view::npos) {
    const auto named =
        std::find_if(models.begin(), models.end(), [&](const auto& m) { return m.first == input.substr(0, line); });
    if (named != models.end()) {
      model = &named->second;
      text = input.substr(line + 1);
    }
  }
  fuzz::expect_clean([&] {
    std::visit(
        [&](const auto& p) {
          const auto s = p.parse(text);
          const std::string shown = p.format(s);
          if (!(p.parse(shown) == s)) fuzz::finding("position does not parse back", shown);
        },
        *model);
  });
  return 0;
}
