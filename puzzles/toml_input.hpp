// Reading TOML input (puzzle files, report manifests) with toml++: every error is one
// line `FILE:LINE:COLUMN: problem (expected form)`, thrown as ParseError, so the CLI
// reports it with exit code 2 before any work starts.
#pragma once

#include <toml++/toml.h>

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace statespace {

// Names from files (a puzzle's `name`, a manifest's labels and table and figure
// names) become folder and file names under --out, so they are held to what is safe
// there on every system: letters, digits, '-', '_' and '.' (and the caller's
// `extra`), not starting with '.' (no "..", no hidden folder), 1 to kMaxNameLength
// characters. No '/', '\\' or line break can reach a path.
inline constexpr std::size_t kMaxNameLength = 64;
inline constexpr std::string_view kNameForm =
    "1 to 64 letters, digits, '-', '_' or '.', not starting with '.', e.g. \"my-puzzle\"";
// Empty when `name` is one; else what is wrong with it ("holds '/'").
std::string name_problem(std::string_view name, std::string_view extra = "");
// `text` for a one-line message: at most 40 characters, control characters escaped.
std::string shown_text(std::string_view text);

class TomlInput {
 public:
  // Puzzle files and manifests are a few kilobytes; a larger one is refused unread,
  // so no file makes the parser hold more than a small multiple of this.
  static constexpr std::uintmax_t kMaxBytes = 1 << 20;

  // Parses the file; a missing file, one over kMaxBytes or a syntax error is a ParseError.
  explicit TomlInput(const std::filesystem::path& file);
  // Parses `text` as if read from `file` (tests feed many texts without writing them).
  TomlInput(const std::filesystem::path& file, std::string text);

  [[nodiscard]] const toml::table& root() const { return root_; }
  // A caller's string in place of the file's at the top-level `key` (Python's
  // `symmetry=`): it has no place in the file, so a failure at it names the file's start.
  void set_string(std::string_view key, std::string value) { root_.insert_or_assign(key, std::move(value)); }
  [[nodiscard]] const std::filesystem::path& file() const { return file_; }
  // The file's bytes, e.g. for a content hash.
  [[nodiscard]] const std::string& text() const { return text_; }

  // "FILE:LINE:COLUMN: message" at a node (or the file's start when it has no source).
  [[noreturn]] void fail(const toml::node& at, std::string_view message) const;
  [[noreturn]] void fail(const toml::source_region& at, std::string_view message) const;
  // "FILE:LINE:COLUMN: message" at a character inside a string value (a picture's
  // cell): `where` is its 0-based (line, column) in the string's own text.
  [[noreturn]] void fail_in_string(const toml::node& string, std::pair<int, int> where, std::string_view message) const;

  // Fails on a key of `table` that is not in `allowed`, naming the allowed keys.
  void check_keys(const toml::table& table, std::initializer_list<std::string_view> allowed) const;

  // The string at `key`: nothing when absent (and not required), a failure when it has
  // another type or when required and absent (the failure names `expected`).
  [[nodiscard]] std::optional<std::string> string(const toml::table& table, std::string_view key, bool required,
                                                  std::string_view expected) const;
  // string(), and a failure at the value when it is not a name (name_problem).
  [[nodiscard]] std::optional<std::string> name(const toml::table& table, std::string_view key, bool required) const;

 private:
  void parse();
  void check_characters(const toml::node& node) const;
  std::filesystem::path file_;
  std::string text_;
  toml::table root_;
};

}  // namespace statespace
