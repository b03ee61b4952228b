// Strict number parsing for names and options: the whole text must be the number,
// no sign for unsigned types, no spaces, no fraction (std::from_chars, not
// lexical_cast, which reads "-1" as 2^64 - 1 for unsigned types).
#pragma once

#include <charconv>
#include <concepts>
#include <optional>
#include <string_view>

namespace statespace {

template <std::integral T>
[[nodiscard]] std::optional<T> parse_number(std::string_view text) {
  T value{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

[[nodiscard]] inline std::optional<int> parse_int(std::string_view text) { return parse_number<int>(text); }

}  // namespace statespace
