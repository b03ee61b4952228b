#include "puzzles/toml_input.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>

#include "core/errors.hpp"
#include "core/text.hpp"

namespace statespace {

std::string name_problem(std::string_view name, std::string_view extra) {
  if (name.empty()) return "is empty";
  if (name.front() == '.') return "starts with '.'";
  if (name.size() > kMaxNameLength) return "is " + std::to_string(name.size()) + " characters long";
  const auto bad = std::find_if(name.begin(), name.end(), [&](char c) {
    return !std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.' &&
           extra.find(c) == std::string_view::npos;
  });
  if (bad == name.end()) {
    // The folder a report writes holds these beside the puzzles' folders.
    if (name == "summary.csv" || name == "summary.md") return "is the name of a file of the output folder";
    return "";
  }
  // The whole character, when it is one of several bytes (UTF-8).
  const auto lead = static_cast<unsigned char>(*bad);
  const std::size_t bytes = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
  const std::size_t at = std::size_t(bad - name.begin());
  return "holds '" + shown_text(name.substr(at, std::min(bytes, name.size() - at))) + "'";
}

std::string shown_text(std::string_view text) {
  std::string out;
  const std::size_t shown = utf8_cut(text, 40);
  for (std::size_t i = 0; i < shown; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", unsigned(c));
      out += hex;
    } else if (c == 0xe2 && forbidden_character(text.substr(i, 3))) {
      out += escape_controls(text.substr(i, 3));
      i += 2;
    } else {
      out += char(c);
    }
  }
  return text.size() > 40 ? out + "..." : out;
}
namespace {

[[noreturn]] void too_large(const std::filesystem::path& file, std::uintmax_t bytes) {
  throw ParseError(file.string() + ": larger than 1 MiB (" + with_commas(bytes) +
                   " bytes; expected a puzzle file or manifest of at most 1,048,576 bytes)");
}

}  // namespace

TomlInput::TomlInput(const std::filesystem::path& file) : file_(file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw ParseError(file.string() + ": cannot read the file (expected a readable TOML file)");
  std::error_code ec;
  const auto size = std::filesystem::file_size(file, ec);
  if (!ec && size > kMaxBytes) too_large(file, size);
  // At most one byte past the limit, also from a pipe or a file that grows.
  text_.resize(kMaxBytes + 1);
  in.read(text_.data(), std::streamsize(text_.size()));
  text_.resize(std::size_t(in.gcount()));
  if (text_.size() > kMaxBytes) too_large(file, ec ? text_.size() : std::max<std::uintmax_t>(size, text_.size()));
  parse();
}

TomlInput::TomlInput(const std::filesystem::path& file, std::string text) : file_(file), text_(std::move(text)) {
  parse();
}

void TomlInput::parse() {
  if (text_.size() > kMaxBytes) too_large(file_, text_.size());
  try {
    root_ = toml::parse(text_, file_.string());
  } catch (const toml::parse_error& e) {
    fail(e.source(), std::string(e.description()) + " (expected TOML syntax)");
  }
  check_characters(root_);
}

// Every key and string of the file, whatever it becomes (a name, a label, a move,
// a picture, a title): one rule for all text from files, so that no writer (CSV,
// Markdown, DOT, SVG, the terminal) ever meets a control character.
void TomlInput::check_characters(const toml::node& node) const {
  if (const auto* table = node.as_table()) {
    for (const auto& [key, value] : *table) {
      if (const auto f = forbidden_character(key.str())) fail(key.source(), forbidden_refusal(*f, "a key"));
      check_characters(value);
    }
  } else if (const auto* array = node.as_array()) {
    for (const auto& element : *array) check_characters(element);
  } else if (const auto* string = node.as_string()) {
    // Line breaks and tabs lay out pictures, also written with escapes on one line;
    // what must be one line (names, rule names) is checked where it is read.
    if (const auto f = forbidden_character(string->get(), "\n\r\t")) {
      fail(node, forbidden_refusal(*f, "a string"));
    }
  }
}

// Messages echo the file (toml++'s "saw 'in<newline>'", quoted keys): escaped, they stay one line.
void TomlInput::fail(const toml::source_region& at, std::string_view message) const {
  throw ParseError(file_.string() + ":" + std::to_string(std::max<unsigned>(at.begin.line, 1)) + ":" +
                   std::to_string(std::max<unsigned>(at.begin.column, 1)) + ": " + escape_controls(message));
}

void TomlInput::fail(const toml::node& at, std::string_view message) const { fail(at.source(), message); }

void TomlInput::fail_in_string(const toml::node& string, std::pair<int, int> where, std::string_view message) const {
  // Where the string's text starts in the file: the line and column of its first
  // character, after the opening quotes and the newline a multi-line string drops.
  const auto& b = string.source().begin;
  std::size_t offset = 0;
  for (unsigned line = 1; line < b.line && offset != std::string::npos; ++line) {
    offset = text_.find('\n', offset);
    if (offset != std::string::npos) ++offset;
  }
  int line = int(b.line), column = int(b.column) + 1;
  if (offset == std::string::npos) {
    column = int(b.column);
  } else {
    offset += b.column - 1;
    if (text_.compare(offset, 3, "\"\"\"") == 0 || text_.compare(offset, 3, "'''") == 0) {
      std::size_t after = offset + 3;
      if (after < text_.size() && text_[after] == '\r') ++after;
      if (after < text_.size() && text_[after] == '\n') {
        line = int(b.line) + 1;
        column = 1;
      } else {
        column = int(b.column) + 3;
      }
    }
  }
  toml::source_region at;
  at.begin.line = toml::source_index(line + where.first);
  at.begin.column = toml::source_index(where.first == 0 ? column + where.second : 1 + where.second);
  fail(at, message);
}

void TomlInput::check_keys(const toml::table& table, std::initializer_list<std::string_view> allowed) const {
  for (const auto& [key, value] : table) {
    bool known = false;
    for (const auto a : allowed) known = known || key.str() == a;
    if (known) continue;
    std::string names;
    for (const auto a : allowed) names += (names.empty() ? "" : ", ") + std::string(a);
    fail(key.source(), "unknown key '" + std::string(key.str()) + "' (expected one of: " + names + ")");
  }
}

std::optional<std::string> TomlInput::string(const toml::table& table, std::string_view key, bool required,
                                             std::string_view expected) const {
  const toml::node* node = table.get(key);
  if (!node) {
    if (required) fail(table, "missing key '" + std::string(key) + "' (expected " + std::string(expected) + ")");
    return std::nullopt;
  }
  if (const auto* s = node->as_string()) return s->get();
  fail(*node, std::string("'").append(key) + "' must be a string (expected " + std::string(expected) + ")");
}

std::optional<std::string> TomlInput::name(const toml::table& table, std::string_view key, bool required) const {
  const std::string form(kNameForm);
  auto value = string(table, key, required, form);
  if (value) {
    const std::string problem = name_problem(*value);
    if (!problem.empty()) {
      fail(*table.get(key),
           "bad " + std::string(key) + " '" + shown_text(*value) + "': it " + problem + " (expected " + form + ")");
    }
  }
  return value;
}

}  // namespace statespace
