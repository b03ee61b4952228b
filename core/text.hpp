// Text shown to people: counts with thousands separators, and user input echoed
// safely in error lines.
#pragma once

#include <cstdint>
#include <optional>
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

// A character no text from a file may hold: the C0 controls and DEL (escape
// sequences drive a terminal, a line break splits a CSV row or an error line) and
// the Unicode bidirectional embeddings, overrides and isolates U+202A-202E and
// U+2066-2069 (they reorder what follows, so a name can read as another). Files
// are refused at load time when a name, label or move holds one (the one rule for
// text from files); error lines escape them.
struct ForbiddenCharacter {
  std::size_t offset = 0;  // in bytes
  std::size_t bytes = 1;   // 1, or 3 for a bidirectional control in UTF-8
  std::uint32_t code = 0;  // the code point
};

// The first forbidden character in `text` not in `allowed` (ASCII controls only, e.g.
// "\n\t" for a multi-line picture), or nothing.
[[nodiscard]] inline std::optional<ForbiddenCharacter> forbidden_character(std::string_view text,
                                                                           std::string_view allowed = {}) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 || c == 0x7f) && allowed.find(char(c)) == std::string_view::npos) return ForbiddenCharacter{i, 1, c};
    if (c == 0xe2 && i + 2 < text.size()) {
      const auto b1 = static_cast<unsigned char>(text[i + 1]), b2 = static_cast<unsigned char>(text[i + 2]);
      if ((b1 == 0x80 && b2 >= 0xaa && b2 <= 0xae) || (b1 == 0x81 && b2 >= 0xa6 && b2 <= 0xa9)) {
        return ForbiddenCharacter{i, 3, std::uint32_t(0x2000 + ((b1 & 0x3f) << 6) + (b2 & 0x3f))};
      }
    }
  }
  return std::nullopt;
}

// "U+001B": how a refusal names a forbidden character.
[[nodiscard]] inline std::string code_point_name(std::uint32_t code) {
  constexpr std::string_view kHex = "0123456789ABCDEF";
  std::string out = "U+";
  for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(code >> shift) & 15];
  return out;
}

// The refusal's wording after the location: "control character U+001B in WHAT
// (expected ...)".
// "control character U+001B", "bidirectional control U+202E".
[[nodiscard]] inline std::string forbidden_name(const ForbiddenCharacter& f) {
  std::string out = f.bytes == 1 ? "control character " : "bidirectional control ";
  out += code_point_name(f.code);
  return out;
}

[[nodiscard]] inline std::string forbidden_refusal(const ForbiddenCharacter& f, std::string_view what) {
  std::string out = forbidden_name(f);
  out += " in ";
  out += what;
  out += " (expected printable text: no control characters, DEL or bidirectional overrides)";
  return out;
}

// `text` with its forbidden characters visible: control bytes as \xNN, the
// bidirectional controls as \uNNNN. Escape sequences would drive the terminal, a
// line break would split an error line, an override would reorder it.
[[nodiscard]] inline std::string escape_controls(std::string_view text) {
  constexpr std::string_view kHex = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else if (const auto f = c == 0xe2 ? forbidden_character(text.substr(i, 3)) : std::nullopt) {
      out += "\\u";
      for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(f->code >> shift) & 15];
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

// The longest prefix of `text` of at most `bytes` bytes that ends between two UTF-8
// characters: a cut inside one would leave a broken character on the screen.
[[nodiscard]] inline std::size_t utf8_cut(std::string_view text, std::size_t bytes) {
  if (bytes >= text.size()) return text.size();
  while (bytes > 0 && (static_cast<unsigned char>(text[bytes]) & 0xC0) == 0x80) --bytes;
  return bytes;
}

// Input echoed in an error line, between single quotes, its control characters
// escaped; text longer than `keep` characters is cut to a prefix followed by its
// full length. Appended piece by piece: a chain of `+` makes GCC 12 report
// -Wrestrict false positives inside libstdc++.
[[nodiscard]] inline std::string quote_input(std::string_view text, std::size_t keep = 60) {
  std::string out = "'";
  out += escape_controls(text.substr(0, utf8_cut(text, keep)));
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
