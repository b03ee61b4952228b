// A harness without libFuzzer: runs LLVMFuzzerTestOneInput over files, as
// `fuzz_NAME -runs=0 FOLDER` does, so that every tree with the tests (g++, and the
// sanitizer tree) replays the seed folders in CTest. Each input is cut to MAX_LEN
// bytes, as libFuzzer cuts what it loads, and sits in a buffer of exactly its size,
// so that ASan sees a read past its end. A finding aborts (fuzz_check.hpp).
//   fuzz_NAME MAX_LEN PATH...   PATH: a file, or a folder (its files, by name)
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
// Only the harnesses that set up state define it.
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace {

void run(const std::string& bytes) {
  const auto buffer = std::make_unique<std::uint8_t[]>(bytes.size());
  std::copy(bytes.begin(), bytes.end(), buffer.get());
  LLVMFuzzerTestOneInput(buffer.get(), bytes.size());
}

}  // namespace

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s MAX_LEN PATH... (PATH: an input file or a folder of them)\n", argv[0]);
    return 2;
  }
  const std::size_t max_len = std::stoul(argv[1]);
  std::vector<std::filesystem::path> inputs;
  for (int i = 2; i < argc; ++i) {
    const std::filesystem::path path = argv[i];
    if (!std::filesystem::is_directory(path)) {
      inputs.push_back(path);
      continue;
    }
    for (const auto& entry : std::filesystem::directory_iterator(path)) {
      if (entry.is_regular_file()) inputs.push_back(entry.path());
    }
  }
  std::sort(inputs.begin(), inputs.end());
  run("");  // libFuzzer's first input
  for (const auto& path : inputs) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "%s: cannot read %s\n", argv[0], path.c_str());
      return 2;
    }
    std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    bytes.resize(std::min(bytes.size(), max_len));
    run(bytes);
  }
  std::printf("%s: %zu inputs, no findings\n", argv[0], inputs.size());
  return 0;
}
