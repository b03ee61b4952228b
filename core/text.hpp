// Text shown to people: counts with thousands separators, and user input echoed
// safely in error lines.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace statespace {

// 181440 -> "181,440"
[[nodiscard]] inline std::string with_commas(std::uint64_t n) {
  // Written from the right into a fixed buffer: inserting commas into a std::string
  // makes GCC 12 report -Wrestrict false positives inside libstdc++ wherever this
  // is inlined.
  char buffer[32];  // 20 digits and 6 commas at most
  char* first = buffer + sizeof buffer;
  int digits = 0;
  do {
    if (digits > 0 && digits % 3 == 0) *--first = ',';
    *--first = char('0' + n % 10);
    n /= 10;
    ++digits;
  } while (n != 0);
  return std::string(first, buffer + sizeof buffer);
}

// "1 state", "2 states", "1,024 states"
[[nodiscard]] inline std::string count_of(std::uint64_t n, std::string_view singular, std::string_view plural) {
  return with_commas(n) + " " + std::string(n == 1 ? singular : plural);
}

// `text` with its control characters as \xNN: escape sequences would drive the
// terminal, and a line break would split an error line.
[[nodiscard]] inline std::string escape_controls(std::string_view text) {
  constexpr std::string_view kHex = "0123456789abcdef";
  std::string out;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += ch;
    }
  }
  return out;
}

// Input echoed in an error line, between single quotes, its control characters
// escaped; text longer than `keep` characters is cut to a prefix followed by its
// full length. Appended piece by piece: a chain of `+` makes GCC 12 report
// -Wrestrict false positives inside libstdc++.
[[nodiscard]] inline std::string quote_input(std::string_view text, std::size_t keep = 60) {
  std::string out = "'";
  out += escape_controls(text.substr(0, keep));
  if (text.size() > keep) {
    out += "...' (";
    out += with_commas(text.size());
    out += " characters)";
  } else {
    out += '\'';
  }
  return out;
}

}  // namespace statespace
