// The pattern databases' cache folder: one file per pattern, a header with a format
// version and a checksum, memory-mapped on later runs; a file that fails any check is
// rebuilt (analysis/solvers/pdb.hpp).
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <tbb/parallel_for.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "analysis/solvers/pdb.hpp"
#include "core/errors.hpp"

namespace statespace {

namespace {

constexpr std::array<char, 8> kMagic = {'S', 'S', 'P', 'D', 'B', '\n', '\x1a', '\0'};
constexpr std::uint32_t kFormatVersion = 1;

// The file's first 64 bytes; the values follow.
struct Header {
  std::array<char, 8> magic{};
  std::uint32_t version = 0;
  std::uint32_t rows = 0;
  std::uint32_t cols = 0;
  std::uint32_t k = 0;
  std::array<std::uint8_t, 16> tiles{};
  std::uint64_t entries = 0;
  std::uint64_t checksum = 0;
  std::array<std::uint8_t, 8> reserved{};
};
static_assert(sizeof(Header) == 64);

Header header_for(const Tiles& t, const std::vector<int>& tiles) {
  Header h;
  h.magic = kMagic;
  h.version = kFormatVersion;
  h.rows = std::uint32_t(t.rows());
  h.cols = std::uint32_t(t.cols());
  h.k = std::uint32_t(tiles.size());
  for (std::size_t i = 0; i < tiles.size(); ++i) h.tiles[i] = std::uint8_t(tiles[i]);
  h.entries = placements(t.cells(), int(tiles.size()));
  return h;
}

// 64-bit checksum of the values: a multiply-xorshift hash per 1 MiB block, the block
// hashes combined in order, so it runs in parallel and gives the same number.
std::uint64_t checksum(const std::uint8_t* data, std::uint64_t size) {
  constexpr std::uint64_t kBlock = std::uint64_t{1} << 20;
  const std::uint64_t blocks = (size + kBlock - 1) / kBlock;
  std::vector<std::uint64_t> part(blocks);
  const auto mix = [](std::uint64_t h, std::uint64_t w) {
    h = (h ^ w) * 0x9E3779B97F4A7C15ULL;
    return h ^ (h >> 29);
  };
  tbb::parallel_for(std::uint64_t{0}, blocks, [&](std::uint64_t b) {
    const std::uint64_t begin = b * kBlock;
    const std::uint64_t end = std::min(size, begin + kBlock);
    std::uint64_t h = 0x243F6A8885A308D3ULL ^ b;
    std::uint64_t i = begin;
    for (; i + 8 <= end; i += 8) {
      std::uint64_t w = 0;
      std::memcpy(&w, data + i, 8);
      h = mix(h, w);
    }
    for (; i < end; ++i) h = mix(h, data[i]);
    part[b] = h;
  });
  std::uint64_t h = size;
  for (const auto p : part) h = mix(h, p);
  return h;
}

struct Mapping {
  std::shared_ptr<const std::uint8_t> base;  // the whole file
  std::uint64_t size = 0;
};

Mapping map_file(const std::filesystem::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  struct stat st {};
  if (::fstat(fd, &st) != 0 || st.st_size < std::int64_t(sizeof(Header))) {
    ::close(fd);
    return {nullptr, st.st_size < 0 ? 0 : std::uint64_t(st.st_size)};
  }
  const auto size = std::uint64_t(st.st_size);
  void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (p == MAP_FAILED) return {};
  std::shared_ptr<const std::uint8_t> base(static_cast<const std::uint8_t*>(p), [size](const std::uint8_t* q) {
    ::munmap(const_cast<std::uint8_t*>(q), size);
  });
  return {std::move(base), size};
}

// Why the mapped file cannot be used, or "" when it can.
std::string problem_of(const Mapping& m, const Tiles& t, const std::vector<int>& tiles) {
  if (!m.base) return m.size ? "shorter than its header" : "cannot be read";
  Header h;
  std::memcpy(&h, m.base.get(), sizeof h);
  const Header want = header_for(t, tiles);
  if (h.magic != kMagic) return "not a statespace pattern database";
  if (h.version != kFormatVersion) {
    return "format version " + std::to_string(h.version) + ", expected " + std::to_string(kFormatVersion) + " (stale)";
  }
  if (h.rows != want.rows || h.cols != want.cols || h.k != want.k || h.tiles != want.tiles) {
    return "holds another board or pattern";
  }
  if (h.entries != want.entries || m.size != sizeof(Header) + h.entries) return "truncated or padded";
  if (checksum(m.base.get() + sizeof(Header), h.entries) != h.checksum) return "checksum mismatch (corrupt)";
  return "";
}

void save(const std::filesystem::path& file, const Tiles& t, const PatternDatabase& db) {
  Header h = header_for(t, db.tiles());
  h.checksum = checksum(db.data(), db.entries());
  std::filesystem::create_directories(file.parent_path());
  const std::filesystem::path tmp = file.string() + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(&h), sizeof h);
    out.write(reinterpret_cast<const char*>(db.data()), std::streamsize(db.entries()));
    out.flush();
    if (!out) {
      std::error_code ignored;
      std::filesystem::remove(tmp, ignored);
      throw std::runtime_error("cannot write " + tmp.string());
    }
  }
  std::filesystem::rename(tmp, file);
}

}  // namespace

std::filesystem::path default_pdb_dir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::filesystem::path(xdg) / "statespace";
  if (const char* home = std::getenv("HOME"); home && *home) {
    return std::filesystem::path(home) / ".cache" / "statespace";
  }
  return std::filesystem::path(".statespace-cache");
}

std::filesystem::path pdb_file(const std::filesystem::path& dir, const Tiles& t, const std::vector<int>& tiles) {
  std::string name = "tiles" + std::to_string(t.rows()) + "x" + std::to_string(t.cols()) + "-p";
  for (std::size_t i = 0; i < tiles.size(); ++i) {
    if (i) name += '.';
    name += std::to_string(tiles[i]);
  }
  return dir / (name + ".pdb");
}

std::string pdb_file_problem(const std::filesystem::path& file, const Tiles& t, const std::vector<int>& tiles) {
  return problem_of(map_file(file), t, tiles);
}

LoadedDatabase load_or_build(const Tiles& t, const std::vector<int>& tiles, const std::filesystem::path& dir,
                             std::ostream& log, bool show_progress) {
  check_pattern(t, tiles);
  const std::filesystem::path file = pdb_file(dir, t, tiles);
  const Progress clock("", false);
  std::error_code ec;
  if (std::filesystem::exists(file, ec)) {
    Mapping m = map_file(file);
    const std::string problem = problem_of(m, t, tiles);
    if (problem.empty()) {
      std::shared_ptr<const std::uint8_t> values(m.base, m.base.get() + sizeof(Header));
      return {PatternDatabase(tiles, std::move(values), placements(t.cells(), int(tiles.size()))), false,
              clock.seconds()};
    }
    log << "statespace: warning: " << file.string() << ": " << problem << "; rebuilding it\n";
  }
  std::string label = t.name() + " pattern";
  for (const int v : tiles) {
    label += ' ';
    label += std::to_string(v);
  }
  Progress progress(label, show_progress);
  PatternDatabase db = build_pattern_database(t, tiles, &progress);
  try {
    save(file, t, db);
  } catch (const std::exception& e) {
    log << "statespace: warning: pattern database not cached in " << dir.string() << ": " << e.what() << "\n";
  }
  return {std::move(db), true, clock.seconds()};
}

}  // namespace statespace
