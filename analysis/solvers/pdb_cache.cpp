// The pattern databases' cache folder: one file per pattern, memory-mapped on later
// runs; a file that fails any check (header, size, checksum) is rebuilt
// (analysis/solvers/pdb.hpp). A file appears only whole: it is written unnamed
// (O_TMPFILE) and linked under its name once complete, so a build or a save
// interrupted at any point leaves nothing a later run could trust.
//
// Layout, version 2: the 64-byte header; the value counts, 256 x 8 bytes; the packed
// four-bit entries; the exceptions, 16 bytes each (rank, value). The checksum covers
// everything after the header.
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <tbb/parallel_for.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>

#include "analysis/solvers/pdb.hpp"
#include "core/errors.hpp"

namespace statespace {

namespace {

constexpr std::array<char, 8> kMagic = {'S', 'S', 'P', 'D', 'B', '\n', '\x1a', '\0'};
constexpr std::uint32_t kFormatVersion = 2;
constexpr std::size_t kCounts = 256;
constexpr std::uint64_t kCountsBytes = kCounts * 8;

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
  std::uint64_t exceptions = 0;
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

// 64-bit checksum of bytes: a multiply-xorshift hash per 1 MiB block, the
// block hashes combined in order, so it runs in parallel and gives the same number.
std::uint64_t checksum(std::span<const std::uint8_t> data) {
  constexpr std::uint64_t kBlock = std::uint64_t{1} << 20;
  const std::uint64_t size = data.size();
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
      std::memcpy(&w, data.data() + i, 8);
      h = mix(h, w);
    }
    for (; i < end; ++i) h = mix(h, data[i]);
    part[b] = h;
  });
  std::uint64_t h = size;
  for (const auto p : part) h = mix(h, p);
  return h;
}

// The checksum of the three parts of the payload, combined in order.
std::uint64_t checksum(std::span<const std::uint8_t> counts, std::span<const std::uint8_t> packed,
                       std::span<const std::uint8_t> exceptions) {
  std::uint64_t h = 0;
  for (const auto part : {counts, packed, exceptions}) h = (h ^ checksum(part)) * 0x9E3779B97F4A7C15ULL;
  return h;
}

// The value counts as the file holds them.
std::vector<std::uint8_t> counts_bytes(const PatternDatabase& db) {
  std::vector<std::uint8_t> out(kCountsBytes, 0);
  const auto& counts = db.counts();
  std::memcpy(out.data(), counts.data(), std::min(counts.size(), kCounts) * 8);
  return out;
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

std::uint64_t file_bytes(std::uint64_t entries, std::uint64_t exceptions) {
  return sizeof(Header) + kCountsBytes + PatternDatabase::packed_bytes(entries) + 16 * exceptions;
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
  if (h.entries != want.entries || h.exceptions > h.entries || m.size != file_bytes(h.entries, h.exceptions)) {
    return "truncated or padded";
  }
  const std::uint8_t* counts = m.base.get() + sizeof(Header);
  const std::uint8_t* packed = counts + kCountsBytes;
  const std::uint64_t packed_size = PatternDatabase::packed_bytes(h.entries);
  if (checksum({counts, kCountsBytes}, {packed, packed_size}, {packed + packed_size, 16 * h.exceptions}) !=
      h.checksum) {
    return "checksum mismatch (corrupt)";
  }
  return "";
}

// The database of an intact mapped file.
PatternDatabase database_of(const Mapping& m, const Tiles& t, const std::vector<int>& tiles) {
  Header h;
  std::memcpy(&h, m.base.get(), sizeof h);
  const std::uint8_t* at = m.base.get() + sizeof(Header);
  std::vector<std::uint64_t> counts(kCounts);
  std::memcpy(counts.data(), at, kCountsBytes);
  while (counts.size() > 1 && counts.back() == 0) counts.pop_back();
  at += kCountsBytes;
  std::shared_ptr<const std::uint8_t> packed(m.base, at);
  at += PatternDatabase::packed_bytes(h.entries);
  std::vector<PatternDatabase::Exception> exceptions(h.exceptions);
  for (auto& e : exceptions) {
    std::memcpy(&e.rank, at, 8);
    std::memcpy(&e.value, at + 8, 8);
    at += 16;
  }
  return PatternDatabase(t, tiles, std::move(packed), std::move(exceptions), std::move(counts));
}

// Writes all of `data` to fd; false on any error.
bool write_all(int fd, std::span<const std::uint8_t> data) {
  while (!data.empty()) {
    const ::ssize_t n = ::write(fd, data.data(), std::min<std::size_t>(data.size(), std::size_t{1} << 30));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data = data.subspan(std::size_t(n));
  }
  return true;
}

void save(const std::filesystem::path& file, const Tiles& t, const PatternDatabase& db) {
  Header h = header_for(t, db.tiles());
  h.exceptions = db.exceptions().size();
  std::vector<std::uint8_t> tail(kCountsBytes + 16 * db.exceptions().size());
  {
    const auto counts = counts_bytes(db);
    std::memcpy(tail.data(), counts.data(), kCountsBytes);
    std::uint8_t* at = tail.data() + kCountsBytes;
    for (const auto& e : db.exceptions()) {
      std::memcpy(at, &e.rank, 8);
      std::memcpy(at + 8, &e.value, 8);
      at += 16;
    }
  }
  const std::span<const std::uint8_t> counts(tail.data(), kCountsBytes);
  const std::span<const std::uint8_t> packed(db.packed(), PatternDatabase::packed_bytes(db.entries()));
  const std::span<const std::uint8_t> exceptions(tail.data() + kCountsBytes, tail.size() - kCountsBytes);
  h.checksum = checksum(counts, packed, exceptions);
  std::filesystem::create_directories(file.parent_path());
  const std::filesystem::path tmp = file.string() + ".tmp." + std::to_string(::getpid());
  // Unnamed until complete where the file system allows it; else a named temporary,
  // which remove_stale_temporaries() clears if this process dies before the rename.
  int fd = ::open(file.parent_path().c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
  const bool unnamed = fd >= 0;
  if (!unnamed) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);  // a link planted there goes; a new one makes O_EXCL fail
    fd = ::open(tmp.c_str(), O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, 0644);
  }
  if (fd < 0) throw std::runtime_error("cannot create a file in " + file.parent_path().string());
  const bool ok = write_all(fd, {reinterpret_cast<const std::uint8_t*>(&h), sizeof h}) && write_all(fd, counts) &&
                  write_all(fd, packed) && write_all(fd, exceptions);
  bool linked = ok;
  if (ok && unnamed) {
    const std::string self = "/proc/self/fd/" + std::to_string(fd);
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    linked = ::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, tmp.c_str(), AT_SYMLINK_FOLLOW) == 0;
  }
  ::close(fd);
  if (!linked) {
    std::error_code ignored;
    if (!unnamed) std::filesystem::remove(tmp, ignored);
    throw std::runtime_error("cannot write " + file.string());
  }
  std::filesystem::rename(tmp, file);
}

// Named temporaries of saves whose process is gone (the fallback where O_TMPFILE is
// not supported): never complete, so removed.
void remove_stale_temporaries(const std::filesystem::path& file) {
  std::error_code ec;
  const std::string prefix = file.filename().string() + ".tmp.";
  for (const auto& entry : std::filesystem::directory_iterator(file.parent_path(), ec)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with(prefix)) continue;
    const std::string pid = name.substr(prefix.size());
    int id = 0;
    const auto [end, err] = std::from_chars(pid.data(), pid.data() + pid.size(), id);
    if (err != std::errc{} || end != pid.data() + pid.size() || id <= 0) continue;
    if (::kill(id, 0) == 0 || errno != ESRCH) continue;  // its process still runs
    std::error_code ignored;
    std::filesystem::remove(entry.path(), ignored);
  }
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
  remove_stale_temporaries(file);
  if (std::filesystem::exists(file, ec)) {
    Mapping m = map_file(file);
    const std::string problem = problem_of(m, t, tiles);
    if (problem.empty()) return {database_of(m, t, tiles), false, clock.seconds()};
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
