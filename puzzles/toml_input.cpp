#include "puzzles/toml_input.hpp"

#include <fstream>
#include <sstream>

#include "core/errors.hpp"
#include "core/text.hpp"

namespace statespace {

TomlInput::TomlInput(const std::filesystem::path& file) : file_(file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw ParseError(file.string() + ": cannot read the file (expected a readable TOML file)");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  text_ = bytes.str();
  parse();
}

TomlInput::TomlInput(const std::filesystem::path& file, std::string text) : file_(file), text_(std::move(text)) {
  parse();
}

void TomlInput::parse() {
  try {
    root_ = toml::parse(text_, file_.string());
  } catch (const toml::parse_error& e) {
    fail(e.source(), std::string(e.description()) + " (expected TOML syntax)");
  }
}

// Messages echo the file (toml++'s "saw 'in<newline>'", quoted keys): escaped, they stay one line.
void TomlInput::fail(const toml::source_region& at, std::string_view message) const {
  throw ParseError(file_.string() + ":" + std::to_string(std::max<unsigned>(at.begin.line, 1)) + ":" +
                   std::to_string(std::max<unsigned>(at.begin.column, 1)) + ": " + escape_controls(message));
}

void TomlInput::fail(const toml::node& at, std::string_view message) const { fail(at.source(), message); }

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
  fail(*node, "'" + std::string(key) + "' must be a string (expected " + std::string(expected) + ")");
}

}  // namespace statespace
