// Report manifests, through the loader `statespace report MANIFEST` uses. The text
// reads as if it were examples/fuzz.toml, so puzzle files resolve against
// examples/ ("puzzles/klotski.toml") as examples/article.toml's do.
#include <cstddef>
#include <cstdint>
#include <string>

#include "cli/report_manifest.hpp"
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  statespace::fuzz::expect_clean([&] {
    (void)statespace::cli::load_manifest(STATESPACE_SOURCE_DIR "/examples/fuzz.toml",
                                         std::string(reinterpret_cast<const char*>(data), size));
  });
  return 0;
}
