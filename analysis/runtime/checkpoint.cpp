#include "analysis/runtime/checkpoint.hpp"

#include <fcntl.h>
#include <tbb/parallel_for.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "core/errors.hpp"
#include "core/temporary_file.hpp"
#include "core/write_failure.hpp"

namespace statespace {

namespace {

constexpr char kMagic[8] = {'S', 'S', 'P', 'C', 'K', 'P', 'T', '\0'};
constexpr std::uint64_t kMaxHeaderBytes = 1 << 20;
constexpr std::uint64_t kBlockWords = 1 << 17;  // 1 MiB hashed per task
constexpr std::uint64_t kP1 = 11400714785074694791ULL, kP2 = 14029467366897019727ULL, kP3 = 1609587929392839161ULL;

constexpr std::uint64_t round(std::uint64_t acc, std::uint64_t input) { return std::rotl(acc + input * kP2, 31) * kP1; }
constexpr std::uint64_t avalanche(std::uint64_t h) {
  h = (h ^ (h >> 33)) * kP2;
  h = (h ^ (h >> 29)) * kP3;
  return h ^ (h >> 32);
}

// Four independent lanes so the multiplies overlap, as in xxHash64.
std::uint64_t hash_words(const std::uint64_t* w, std::uint64_t n, std::uint64_t seed) {
  std::uint64_t lane[4] = {seed + kP1 + kP2, seed + kP2, seed, seed - kP1};
  std::uint64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    for (int k = 0; k < 4; ++k) lane[k] = round(lane[k], w[i + k]);
  }
  for (; i < n; ++i) lane[i % 4] = round(lane[i % 4], w[i]);
  return avalanche(std::rotl(lane[0], 1) + std::rotl(lane[1], 7) + std::rotl(lane[2], 12) + std::rotl(lane[3], 18) +
                   n * 8);
}

std::uint64_t hash_bytes(const std::string& bytes) {
  std::vector<std::uint64_t> words((bytes.size() + 7) / 8, 0);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  return hash_words(words.data(), words.size(), bytes.size());
}

[[noreturn]] void io_error(const std::string& what, const std::filesystem::path& path) {
  throw std::runtime_error("checkpoint: cannot " + what + " " + path.string() + ": " + std::strerror(errno));
}

[[noreturn]] void bad_checkpoint(const std::filesystem::path& path, const std::string& why) {
  throw UsageError("checkpoint " + path.string() + ": " + why +
                   " (expected a checkpoint written by statespace analyze --checkpoint DIR)");
}

void put(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(char((v >> (8 * i)) & 0xFF));
}
void put_string(std::string& out, const std::string& s) {
  put(out, s.size(), 4);
  out += s;
}

class Cursor {
 public:
  Cursor(const std::string& bytes, const std::filesystem::path& path) : bytes_(bytes), path_(path) {}
  std::uint64_t get(int bytes) {
    if (pos_ + std::size_t(bytes) > bytes_.size()) bad_checkpoint(path_, "header ends early");
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= std::uint64_t(static_cast<unsigned char>(bytes_[pos_++])) << (8 * i);
    return v;
  }
  std::string get_string() {
    const std::uint64_t n = get(4);
    if (pos_ + n > bytes_.size()) bad_checkpoint(path_, "header ends early");
    std::string s = bytes_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  std::vector<std::uint64_t> get_list() {
    const std::uint64_t n = get(8);
    if (n > kMaxHeaderBytes) bad_checkpoint(path_, "implausible list length");
    std::vector<std::uint64_t> v(n);
    for (auto& x : v) x = get(8);
    return v;
  }

 private:
  const std::string& bytes_;
  const std::filesystem::path& path_;
  std::size_t pos_ = 0;
};

struct ParsedHeader {
  CheckpointState state;
  std::uint64_t header_bytes = 0;
  std::uint64_t data_checksum = 0;
};

class File {
 public:
  File(const std::filesystem::path& path, int flags)
      : path_(path), fd_(::open(path.c_str(), flags | O_CLOEXEC, 0644)) {}
  // Takes an open descriptor (create_exclusive's).
  File(const std::filesystem::path& path, int fd, std::nullptr_t) : path_(path), fd_(fd) {}
  ~File() {
    if (fd_ >= 0) ::close(fd_);
  }
  File(const File&) = delete;
  File& operator=(const File&) = delete;
  [[nodiscard]] bool is_open() const { return fd_ >= 0; }
  void write_all(const void* data, std::uint64_t n) {
    const char* p = static_cast<const char*>(data);
    while (n > 0) {
      const ssize_t k = ::write(fd_, p, std::min<std::uint64_t>(n, 1 << 30));
      if (k < 0 && errno == EINTR) continue;
      if (k <= 0) io_error("write", path_);
      p += k;
      n -= std::uint64_t(k);
    }
  }
  // Writes n words, skipping all-zero blocks as holes (the file stays sparse: early
  // levels of a big run have nearly empty tables). Call truncate_to at the end.
  void write_sparse(const std::uint64_t* words, std::uint64_t n) {
    for (std::uint64_t begin = 0; begin < n; begin += kBlockWords) {
      const std::uint64_t count = std::min(kBlockWords, n - begin);
      const std::uint64_t* block = words + begin;
      if (std::all_of(block, block + count, [](std::uint64_t w) { return w == 0; })) {
        if (::lseek(fd_, off_t(count * 8), SEEK_CUR) < 0) io_error("seek in", path_);
      } else {
        write_all(block, count * 8);
      }
    }
  }
  void truncate_to(std::uint64_t bytes) {
    if (::ftruncate(fd_, off_t(bytes)) != 0) io_error("extend", path_);
  }
  // False when the file ends first.
  bool read_all(void* data, std::uint64_t n) {
    char* p = static_cast<char*>(data);
    while (n > 0) {
      const ssize_t k = ::read(fd_, p, std::min<std::uint64_t>(n, 1 << 30));
      if (k < 0 && errno == EINTR) continue;
      if (k < 0) io_error("read", path_);
      if (k == 0) return false;
      p += k;
      n -= std::uint64_t(k);
    }
    return true;
  }
  void sync_and_close() {
    if (::fsync(fd_) != 0) io_error("sync", path_);
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) io_error("close", path_);
  }

 private:
  std::filesystem::path path_;
  int fd_;
};

// The size of the header whose first 16 bytes `head` holds, after checking the
// magic, the version and that the size is plausible.
std::uint64_t header_size(std::string_view head, const std::filesystem::path& path) {
  if (head.size() < 16 || std::memcmp(head.data(), kMagic, 8) != 0) bad_checkpoint(path, "not a statespace checkpoint");
  const std::string bytes(head.substr(0, 16));
  Cursor c(bytes, path);
  (void)c.get(8);
  const std::uint64_t version = c.get(4);
  const std::uint64_t header_bytes = c.get(4);
  if (version != kCheckpointVersion) {
    bad_checkpoint(path, "version " + std::to_string(version) + ", this build reads version " +
                             std::to_string(kCheckpointVersion));
  }
  if (header_bytes < 32 || header_bytes > kMaxHeaderBytes) bad_checkpoint(path, "bad header size");
  return header_bytes;
}

ParsedHeader decode_header(std::string_view bytes, const std::filesystem::path& path) {
  const std::uint64_t header_bytes = header_size(bytes, path);
  if (bytes.size() < header_bytes) bad_checkpoint(path, "header ends early");
  const std::string header(bytes.substr(0, header_bytes));
  std::uint64_t stored = 0;
  for (int i = 7; i >= 0; --i) stored = stored << 8 | static_cast<unsigned char>(header[header_bytes - 8 + i]);
  if (stored != hash_bytes(header.substr(0, header_bytes - 8))) {
    bad_checkpoint(path, "header checksum mismatch (corrupt file)");
  }

  ParsedHeader h;
  h.header_bytes = header_bytes;
  Cursor in(header, path);
  (void)in.get(8), (void)in.get(4), (void)in.get(4);
  h.state.engine = in.get_string();
  h.state.puzzle = in.get_string();
  h.state.identity = in.get_string();
  h.state.start = in.get_string();
  h.state.level = std::uint32_t(in.get(4));
  h.state.layers = in.get_list();
  h.state.edges_to_next = in.get_list();
  h.state.level_counts = in.get_list();
  const std::uint64_t tables = in.get(4);
  if (tables > 16) bad_checkpoint(path, "implausible table count");
  for (std::uint64_t t = 0; t < tables; ++t) h.state.table_entries.push_back(in.get(8));
  h.data_checksum = in.get(8);
  if (h.state.layers.size() != h.state.level + 1ull || h.state.edges_to_next.size() != h.state.level) {
    bad_checkpoint(path, "layer counts do not match the level");
  }
  return h;
}

ParsedHeader parse_header(const std::filesystem::path& dir) {
  const auto path = checkpoint_path(dir);
  File f(path, O_RDONLY);
  if (!f.is_open()) bad_checkpoint(path, std::string("cannot open: ") + std::strerror(errno));
  std::string header(16, '\0');
  if (!f.read_all(header.data(), header.size())) bad_checkpoint(path, "not a statespace checkpoint");
  const std::uint64_t header_bytes = header_size(header, path);
  header.resize(header_bytes);
  if (!f.read_all(header.data() + 16, header_bytes - 16)) bad_checkpoint(path, "header ends early");
  return decode_header(header, path);
}

}  // namespace

std::filesystem::path checkpoint_path(const std::filesystem::path& dir) { return dir / "implicit-bfs.ckpt"; }

namespace {

// The hash of each 1 MiB block of `words`, in parallel: the same values for any thread count.
std::vector<std::uint64_t> block_hashes(const std::uint64_t* words, std::uint64_t count) {
  const std::uint64_t blocks = (count + kBlockWords - 1) / kBlockWords;
  std::vector<std::uint64_t> block_hash(blocks);
  tbb::parallel_for(std::uint64_t{0}, blocks, [&](std::uint64_t b) {
    const std::uint64_t begin = b * kBlockWords;
    block_hash[b] = hash_words(words + begin, std::min(kBlockWords, count - begin), b);
  });
  return block_hash;
}

}  // namespace

std::uint64_t table_checksum(std::span<const BitTable> tables) {
  std::uint64_t h = tables.size();
  for (const auto& t : tables) {
    h = avalanche(round(h, t.entries()));
    for (auto bh : block_hashes(t.words(), t.word_count())) h = avalanche(round(h, bh));
  }
  return h;
}

std::uint64_t words_checksum(const std::uint64_t* words, std::uint64_t count) {
  std::uint64_t h = avalanche(round(1, count));
  for (auto bh : block_hashes(words, count)) h = avalanche(round(h, bh));
  return h;
}

void write_checkpoint(const std::filesystem::path& dir, const CheckpointState& state,
                      std::span<const BitTable> tables) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error("checkpoint: cannot create " + dir.string() + ": " + ec.message());
  std::string header(kMagic, 8);
  put(header, kCheckpointVersion, 4);
  put(header, 0, 4);  // header bytes, patched below
  put_string(header, state.engine);
  put_string(header, state.puzzle);
  put_string(header, state.identity);
  put_string(header, state.start);
  put(header, state.level, 4);
  put(header, state.layers.size(), 8);
  for (auto v : state.layers) put(header, v, 8);
  put(header, state.edges_to_next.size(), 8);
  for (auto v : state.edges_to_next) put(header, v, 8);
  put(header, state.level_counts.size(), 8);
  for (auto v : state.level_counts) put(header, v, 8);
  put(header, tables.size(), 4);
  for (const auto& t : tables) put(header, t.entries(), 8);
  put(header, table_checksum(tables), 8);
  header.resize((header.size() + 7) / 8 * 8, '\0');  // the tables start 8-byte aligned
  const std::uint64_t header_bytes = header.size() + 8;
  for (int i = 0; i < 4; ++i) header[12 + i] = char((header_bytes >> (8 * i)) & 0xFF);
  put(header, hash_bytes(header), 8);

  const auto path = checkpoint_path(dir);
  // What killed runs left here would fill the disk one checkpoint at a time.
  remove_stale_temporaries(dir, path.filename().string());
  const auto tmp = temporary_beside(path);
  try {
    // A link planted at the guessable name is refused (UsageError), not followed.
    File f(tmp, create_exclusive(tmp), nullptr);
    if (!f.is_open()) io_error("create", tmp);
    f.write_all(header.data(), header.size());
    std::uint64_t bytes = header.size();
    for (const auto& t : tables) {
      f.write_sparse(t.words(), t.word_count());
      bytes += t.word_count() * 8;
    }
    f.truncate_to(bytes);  // a trailing hole still counts
    f.sync_and_close();
  } catch (const std::runtime_error&) {
    const int error = errno;  // io_error's, which nothing since has changed
    std::filesystem::remove(tmp, ec);
    if (error == ENOSPC || error == EDQUOT || error == EFBIG) throw std::runtime_error(write_failure(path, error));
    throw;
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::filesystem::remove(tmp, ec);
    io_error("rename over", path);
  }
  // The rename itself must reach the disk before the run moves on.
  File d(dir, O_RDONLY | O_DIRECTORY);
  if (d.is_open()) d.sync_and_close();
}

CheckpointState read_checkpoint_header(const std::filesystem::path& dir) { return parse_header(dir).state; }

void require_checkpoint_of(const CheckpointState& state, const std::filesystem::path& dir, const std::string& puzzle,
                           const std::string& start, const std::string& engine, const std::string& identity) {
  if (state.engine != engine) {
    throw UsageError("checkpoint in " + dir.string() + " was written by the " + state.engine + " engine, not the " +
                     engine + " one (pass --engine " + state.engine + ")");
  }
  if (state.puzzle == puzzle && state.identity != identity) {
    throw UsageError("checkpoint in " + dir.string() + " is for " + state.puzzle + " with " + state.identity +
                     ", not with " + identity + " (pass the same puzzle file, --moves and --metric)");
  }
  if (state.puzzle != puzzle || state.start != start) {
    throw UsageError("checkpoint in " + dir.string() + " is for " + state.puzzle + " from \"" + state.start +
                     "\", not " + puzzle + " from \"" + start + "\" (pass the same puzzle and --from)");
  }
}

CheckpointState decode_checkpoint_header(std::string_view bytes, const std::filesystem::path& path) {
  return decode_header(bytes, path).state;
}

std::uint64_t header_checksum(std::string_view bytes) { return hash_bytes(std::string(bytes)); }

void read_checkpoint_tables(const std::filesystem::path& dir, std::span<BitTable> tables) {
  const ParsedHeader h = parse_header(dir);
  const auto path = checkpoint_path(dir);
  if (h.state.table_entries.size() != tables.size()) bad_checkpoint(path, "table count differs");
  File f(path, O_RDONLY);
  if (!f.is_open()) bad_checkpoint(path, std::string("cannot open: ") + std::strerror(errno));
  std::string skip(h.header_bytes, '\0');
  if (!f.read_all(skip.data(), skip.size())) bad_checkpoint(path, "header ends early");
  for (std::size_t t = 0; t < tables.size(); ++t) {
    if (tables[t].entries() != h.state.table_entries[t]) bad_checkpoint(path, "table size differs");
    if (!f.read_all(tables[t].words(), tables[t].word_count() * 8)) bad_checkpoint(path, "truncated tables");
  }
  char extra = 0;
  if (f.read_all(&extra, 1)) bad_checkpoint(path, "trailing bytes after the tables");
  if (table_checksum(std::span<const BitTable>(tables.data(), tables.size())) != h.data_checksum) {
    bad_checkpoint(path, "data checksum mismatch (corrupt file)");
  }
}

}  // namespace statespace
