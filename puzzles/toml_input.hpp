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

namespace statespace {

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
  [[nodiscard]] const std::filesystem::path& file() const { return file_; }
  // The file's bytes, e.g. for a content hash.
  [[nodiscard]] const std::string& text() const { return text_; }

  // "FILE:LINE:COLUMN: message" at a node (or the file's start when it has no source).
  [[noreturn]] void fail(const toml::node& at, std::string_view message) const;
  [[noreturn]] void fail(const toml::source_region& at, std::string_view message) const;

  // Fails on a key of `table` that is not in `allowed`, naming the allowed keys.
  void check_keys(const toml::table& table, std::initializer_list<std::string_view> allowed) const;

  // The string at `key`: nothing when absent (and not required), a failure when it has
  // another type or when required and absent (the failure names `expected`).
  [[nodiscard]] std::optional<std::string> string(const toml::table& table, std::string_view key, bool required,
                                                  std::string_view expected) const;

 private:
  void parse();
  std::filesystem::path file_;
  std::string text_;
  toml::table root_;
};

}  // namespace statespace
