// Inputs the fuzz harnesses (tests/fuzz) found, each with the clean error it must
// get; the same inputs sit in the harnesses' seed folders as crash-*.
//
// The first two reach code in toml++ 3.3 that is only safe as the Debian library is built:
// the parser lives in libtomlplusplus.so, compiled by g++ with NDEBUG. There the
// assert of the first is off, and the second's __builtin_unreachable (the library's
// non-ASCII whitespace test has no case for some characters) happens to fall
// through to "not whitespace". These tests pin that behaviour of the installed
// library, character by character, so an update that changes it fails here.
#include <gtest/gtest.h>

#include <string>

#include "core/errors.hpp"
#include "puzzles/puzzle_file.hpp"
#include "puzzles/toml_input.hpp"

namespace statespace {
namespace {

std::string refusal(const std::string& text) {
  try {
    (void)TomlInput("bad.toml", text);
  } catch (const ParseError& e) {
    return e.what();
  }
  return "accepted";
}

std::string utf8(char32_t c) {
  std::string s;
  if (c < 0x80) {
    s += char(c);
  } else if (c < 0x800) {
    s += char(0xC0 | (c >> 6));
    s += char(0x80 | (c & 0x3F));
  } else {
    s += char(0xE0 | (c >> 12));
    s += char(0x80 | ((c >> 6) & 0x3F));
    s += char(0x80 | (c & 0x3F));
  }
  return s;
}

// A row length written as a float past the integer range: converting it to an
// integer is undefined, so only integers are read as lengths.
TEST(FuzzRegression, FloatRowLengthPastTheIntegerRange) {
  const std::string text =
      "kind = \"graph\"\nedges = \"1-2 2-3\"\nstart = \"1 2 _\"\nrows = [1, 9" + std::string(70, '9') + "3E00]\n";
  std::string message = "accepted";
  try {
    (void)load_puzzle_file(TomlInput("bad.toml", text));
  } catch (const ParseError& e) {
    message = e.what();
  }
  EXPECT_NE(message.find("bad.toml:4:12: bad row length (expected rows = [2, 3, 2]"), std::string::npos) << message;
}

// toml++ asserts that a table header's key starts with a key character; '=' does not.
TEST(FuzzRegression, TableHeaderWithoutKey) {
  EXPECT_EQ(refusal("[= \"(1,2)\"\nY = \"(2,1)\"\n"),
            "bad.toml:1:2: Error while parsing key: expected bare key starting character or string delimiter, saw "
            "'=' (expected TOML syntax)");
  EXPECT_EQ(refusal("[[=]]\n"),
            "bad.toml:1:3: Error while parsing key: expected bare key starting character or string delimiter, saw "
            "'=' (expected TOML syntax)");
}

TEST(FuzzRegression, FefbInBareKey) {
  EXPECT_EQ(refusal("[a\xef\xbb\xbb]\n"),
            "bad.toml:1:3: Error while parsing table header: expected ']', saw '\xef\xbb\xbb' (expected TOML syntax)");
  EXPECT_EQ(
      refusal("a\xef\xbb\xbb = 1\n"),
      "bad.toml:1:2: Error while parsing key-value pair: expected '=', saw '\xef\xbb\xbb' (expected TOML syntax)");
}

// toml++ echoes what it saw, here a line break; the error must stay one line.
TEST(FuzzRegression, LineBreakInTomlMessage) {
  EXPECT_EQ(refusal("rows = [2, 3, in\n"),
            "bad.toml:1:17: Error while parsing floating-point: expected 'inf', saw 'in\\x0a' (expected TOML syntax)");
  EXPECT_EQ(refusal("\"a\\nb\" = 1\n\"a\\nb\" = 2\n"),
            "bad.toml:2:10: Error while parsing key-value pair: cannot redefine existing integer '\"a\\a\\nb\" ' "
            "(expected TOML syntax)");
}

// Every character toml++'s whitespace test has no case for (the blocks of 1018
// code points from U+00A0 whose only whitespace is U+00A0, U+3000 or U+FEFF):
// a quoted key holding it is that key, a bare key holding it a syntax error.
TEST(FuzzRegression, CharactersWithoutAWhitespaceCase) {
  int checked = 0;
  for (const char32_t block : {0xA0u, 0xA0u + 11 * 0x3FAu, 0xA0u + 63 * 0x3FAu}) {
    for (char32_t c = block; c < block + 0x3FA && c < 0xFF00; ++c) {
      if (c == 0xA0 || c == 0x3000 || c == 0xFEFF) continue;
      const std::string ch = utf8(c);
      const TomlInput quoted("key.toml", "\"" + ch + "\" = 1\n[\"t" + ch + "\"]\nx = 2\n");
      EXPECT_EQ(quoted.root().size(), 2u) << std::hex << unsigned(c);
      EXPECT_TRUE(quoted.root().contains(ch)) << std::hex << unsigned(c);
      EXPECT_TRUE(quoted.root().contains("t" + ch)) << std::hex << unsigned(c);
      EXPECT_EQ(refusal("a" + ch + " = 1\n").substr(0, 57), "bad.toml:1:2: Error while parsing key-value pair: expecte")
          << std::hex << unsigned(c);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 1018 - 1 + 1018 - 1 + (0xFF00 - (0xA0 + 63 * 0x3FA)) - 1);
}

}  // namespace
}  // namespace statespace
