#include "analysis/runtime/goal_table.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cstring>
#include <utility>

#include "analysis/runtime/checkpoint.hpp"
#include "core/errors.hpp"

namespace statespace {

namespace {

constexpr char kMagic[8] = {'S', 'S', 'P', 'T', 'A', 'B', 'L', 'E'};
constexpr std::uint64_t kMaxHeaderBytes = 1 << 20;

// Bit i of x to bit 2i, for the 32 low bits.
constexpr std::uint64_t spread(std::uint64_t x) {
  x &= 0xFFFFFFFFULL;
  x = (x | x << 16) & 0x0000FFFF0000FFFFULL;
  x = (x | x << 8) & 0x00FF00FF00FF00FFULL;
  x = (x | x << 4) & 0x0F0F0F0F0F0F0F0FULL;
  x = (x | x << 2) & 0x3333333333333333ULL;
  return (x | x << 1) & 0x5555555555555555ULL;
}
static_assert(spread(0b1011) == 0b01000101);

void put(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(char((v >> (8 * i)) & 0xFF));
}
void put_string(std::string& out, const std::string& s) {
  put(out, s.size(), 4);
  out += s;
}

[[noreturn]] void bad_table(const std::filesystem::path& path, const std::string& why) {
  throw UsageError("table " + path.string() + ": " + why +
                   " (expected a distance table written by statespace analyze --table)");
}

class Cursor {
 public:
  Cursor(std::string_view bytes, const std::filesystem::path& path) : bytes_(bytes), path_(path) {}
  std::uint64_t get(int bytes) {
    if (pos_ + std::size_t(bytes) > bytes_.size()) bad_table(path_, "header ends early");
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= std::uint64_t(static_cast<unsigned char>(bytes_[pos_++])) << (8 * i);
    return v;
  }
  std::string get_string() {
    const std::uint64_t n = get(4);
    if (pos_ + n > bytes_.size()) bad_table(path_, "header ends early");
    std::string s(bytes_.substr(pos_, n));
    pos_ += n;
    return s;
  }

 private:
  std::string_view bytes_;
  const std::filesystem::path& path_;
  std::size_t pos_ = 0;
};

}  // namespace

void GoalTable::set_distance(const std::uint64_t* bits, std::uint64_t first, std::uint64_t last, unsigned d) {
  std::uint64_t* const data = data_.words();
  const std::uint64_t words = data_.word_count();
  if (header_.encoding == TableEncoding::two_bits) {
    const std::uint64_t code = d % 3 + 1;
    for (std::uint64_t w = first; w < last; ++w) {
      const std::uint64_t b = bits[w];
      if (!b) continue;
      data[2 * w] |= spread(b) * code;
      if (2 * w + 1 < words) data[2 * w + 1] |= spread(b >> 32) * code;
    }
    return;
  }
  auto* const bytes = reinterpret_cast<unsigned char*>(data);
  const auto code = static_cast<unsigned char>(kByteFirstDistance + d);
  for (std::uint64_t w = first; w < last; ++w) {
    for (std::uint64_t hit = bits[w]; hit; hit &= hit - 1) bytes[w * 64 + unsigned(std::countr_zero(hit))] = code;
  }
}

void GoalTable::set_distance(const std::uint64_t* bits, unsigned d) {
  const std::uint64_t words = (header_.entries + 63) / 64;
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, words, 1 << 12),
                    [&](const auto& range) { set_distance(bits, range.begin(), range.end(), d); });
}

void GoalTable::set_dead_where_clear(const std::uint64_t* seen) {
  if (header_.encoding != TableEncoding::byte) return;
  const std::uint64_t entries = header_.entries, words = (entries + 63) / 64;
  auto* const bytes = reinterpret_cast<unsigned char*>(data_.words());
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, words, 1 << 12), [&](const auto& range) {
    for (std::uint64_t w = range.begin(); w != range.end(); ++w) {
      std::uint64_t clear = ~seen[w];
      if (w + 1 == words && entries % 64) clear &= (std::uint64_t{1} << (entries % 64)) - 1;
      for (; clear; clear &= clear - 1) bytes[w * 64 + unsigned(std::countr_zero(clear))] = kByteDead;
    }
  });
}

void GoalTable::set(std::uint64_t index, unsigned code) {
  std::uint64_t* const data = data_.words();
  const unsigned bits = header_.bits();
  const std::uint64_t per = 64 / bits, mask = (std::uint64_t{1} << bits) - 1;
  std::uint64_t& w = data[index / per];
  const unsigned shift = unsigned(bits * (index % per));
  w = (w & ~(mask << shift)) | (std::uint64_t{code} << shift);
}

std::uint64_t goal_table_checksum(const std::uint64_t* words, std::uint64_t count) {
  return words_checksum(words, count);
}

std::string encode_goal_table_header(const GoalTableHeader& h, std::uint64_t data_checksum) {
  std::string out(kMagic, 8);
  put(out, kGoalTableVersion, 4);
  put(out, 0, 4);  // header bytes, patched below
  put_string(out, h.puzzle);
  put_string(out, h.identity);
  put_string(out, h.goal);
  put_string(out, h.index);
  put(out, std::uint32_t(h.encoding), 4);
  put(out, h.directed ? 1 : 0, 4);
  put(out, h.entries, 8);
  put(out, h.reached, 8);
  put(out, h.dead, 8);
  if (h.encoding == TableEncoding::wide_words) {
    put(out, h.groups, 8);
    put(out, h.low_bytes, 8);
  }
  put(out, h.layers.size(), 8);
  for (auto v : h.layers) put(out, v, 8);
  put(out, h.data_words() * 8, 8);
  put(out, data_checksum, 8);
  out.resize((out.size() + 7) / 8 * 8, '\0');
  const std::uint64_t bytes = out.size() + 8;
  for (int i = 0; i < 4; ++i) out[12 + i] = char((bytes >> (8 * i)) & 0xFF);
  put(out, header_checksum(out), 8);
  return out;
}

GoalTableFile GoalTableFile::open(const std::filesystem::path& path) {
  GoalTableFile f;
  f.path_ = path;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) bad_table(path, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    bad_table(path, "not a regular file");
  }
  const auto size = std::uint64_t(st.st_size);
  if (size < 16) {
    ::close(fd);
    bad_table(path, "not a statespace distance table");
  }
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) bad_table(path, std::string("cannot map: ") + std::strerror(errno));
  f.map_ = map;
  f.map_bytes_ = size;
  const std::string_view bytes(static_cast<const char*>(map), size);
  if (std::memcmp(bytes.data(), kMagic, 8) != 0) bad_table(path, "not a statespace distance table");
  Cursor head(bytes, path);
  (void)head.get(8);
  const std::uint64_t version = head.get(4);
  if (version != kGoalTableVersion) {
    bad_table(path,
              "version " + std::to_string(version) + ", this build reads version " + std::to_string(kGoalTableVersion));
  }
  const std::uint64_t header_bytes = head.get(4);
  if (header_bytes < 32 || header_bytes > kMaxHeaderBytes || header_bytes % 8) bad_table(path, "bad header size");
  if (header_bytes > size) bad_table(path, "truncated (the header ends early)");
  std::uint64_t stored = 0;
  for (int i = 7; i >= 0; --i) stored = stored << 8 | static_cast<unsigned char>(bytes[header_bytes - 8 + i]);
  if (stored != header_checksum(bytes.substr(0, header_bytes - 8))) {
    bad_table(path, "header checksum mismatch (corrupt file)");
  }
  Cursor in(bytes.substr(0, header_bytes - 8), path);
  (void)in.get(8), (void)in.get(4), (void)in.get(4);
  GoalTableHeader& h = f.header_;
  h.puzzle = in.get_string();
  h.identity = in.get_string();
  h.goal = in.get_string();
  h.index = in.get_string();
  const std::uint64_t encoding = in.get(4);
  if (encoding < std::uint32_t(TableEncoding::two_bits) || encoding > std::uint32_t(TableEncoding::wide_words)) {
    bad_table(path, "unknown encoding " + std::to_string(encoding));
  }
  h.encoding = TableEncoding(encoding);
  h.directed = (in.get(4) & 1) != 0;
  h.entries = in.get(8);
  h.reached = in.get(8);
  h.dead = in.get(8);
  if (h.encoding == TableEncoding::wide_words) {
    h.groups = in.get(8);
    const std::uint64_t low_bytes = in.get(8);
    if (low_bytes < 1 || low_bytes > 8 || h.groups > h.entries || (h.groups == 0) != (h.entries == 0)) {
      bad_table(path, "bad groups of wide words");
    }
    h.low_bytes = unsigned(low_bytes);
  }
  const std::uint64_t layers = in.get(8);
  if (layers > 1 << 16) bad_table(path, "implausible layer count");
  for (std::uint64_t d = 0; d < layers; ++d) h.layers.push_back(in.get(8));
  const std::uint64_t data_bytes = in.get(8);
  const std::uint64_t data_checksum = in.get(8);
  if (h.entries > (std::uint64_t{1} << 58) || data_bytes != h.data_words() * 8) {
    bad_table(path, "data size does not fit the header");
  }
  if (size != header_bytes + data_bytes) {
    bad_table(path, size < header_bytes + data_bytes ? "truncated (" + std::to_string(size) + " bytes, expected " +
                                                           std::to_string(header_bytes + data_bytes) + ")"
                                                     : "trailing bytes after the data");
  }
  f.data_ = reinterpret_cast<const std::uint64_t*>(bytes.data() + header_bytes);
  if (words_checksum(f.data_, h.data_words()) != data_checksum)
    bad_table(path, "data checksum mismatch (corrupt file)");
  const auto* const data_bytes_at = reinterpret_cast<const unsigned char*>(f.data_);
  switch (h.encoding) {
    case TableEncoding::two_bits:
      break;
    case TableEncoding::byte:
      f.codes_ = data_bytes_at;
      break;
    case TableEncoding::words:
      f.codes_ = data_bytes_at + 8 * h.entries;
      break;
    case TableEncoding::wide_words:
      f.wide_ = WideWords(f.data_, h);
      if (!f.wide_.consistent()) bad_table(path, "wide words out of order (corrupt file)");
      f.codes_ = f.wide_.codes();
      break;
  }
  ::madvise(map, size, MADV_RANDOM);  // probes jump about the data
  return f;
}

GoalTableFile::GoalTableFile(GoalTableFile&& o) noexcept
    : path_(std::move(o.path_)),
      header_(std::move(o.header_)),
      data_(std::exchange(o.data_, nullptr)),
      codes_(std::exchange(o.codes_, nullptr)),
      wide_(o.wide_),
      map_(std::exchange(o.map_, nullptr)),
      map_bytes_(std::exchange(o.map_bytes_, 0)) {}

GoalTableFile& GoalTableFile::operator=(GoalTableFile&& o) noexcept {
  if (this != &o) {
    if (map_) ::munmap(map_, map_bytes_);
    path_ = std::move(o.path_);
    header_ = std::move(o.header_);
    data_ = std::exchange(o.data_, nullptr);
    codes_ = std::exchange(o.codes_, nullptr);
    wide_ = o.wide_;
    map_ = std::exchange(o.map_, nullptr);
    map_bytes_ = std::exchange(o.map_bytes_, 0);
  }
  return *this;
}

GoalTableFile::~GoalTableFile() {
  if (map_) ::munmap(map_, map_bytes_);
}

}  // namespace statespace
