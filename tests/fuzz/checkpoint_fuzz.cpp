// Checkpoint headers, as `analyze --resume DIR` reads them. The bytes are decoded
// twice: as they are (the checksum rejects nearly all), and with the size field and
// the trailing checksum patched to match, so the mutator reaches the fields behind
// them. Patching leaves magic and version to the input: the seeds have them right.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "analysis/runtime/checkpoint.hpp"
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace statespace;
  std::string bytes(reinterpret_cast<const char*>(data), size);
  fuzz::expect_clean([&] { (void)decode_checkpoint_header(bytes, "fuzz.ckpt"); });
  if (bytes.size() < 32) return 0;
  const std::size_t header_bytes = std::min<std::size_t>(bytes.size(), 1 << 20);
  for (int i = 0; i < 4; ++i) bytes[12 + i] = char((header_bytes >> (8 * i)) & 0xFF);
  const std::uint64_t sum = header_checksum(std::string_view(bytes).substr(0, header_bytes - 8));
  for (int i = 0; i < 8; ++i) bytes[header_bytes - 8 + i] = char((sum >> (8 * i)) & 0xFF);
  fuzz::expect_clean([&] { (void)decode_checkpoint_header(bytes, "fuzz.ckpt"); });
  return 0;
}
