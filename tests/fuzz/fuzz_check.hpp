// What every harness asserts of a parser: it returns a value, or throws one of our
// error types (core/errors.hpp) with a non-empty one-line message, as the CLI prints
// it. Anything else (another exception type, a message over several lines) aborts,
// and libFuzzer keeps the input as a crash; sanitizers catch the rest.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string_view>
#include <typeinfo>

#include "core/errors.hpp"

namespace statespace::fuzz {

[[noreturn]] inline void finding(std::string_view what, std::string_view detail) {
  std::fprintf(stderr, "fuzz finding: %.*s: %.*s\n", int(what.size()), what.data(), int(detail.size()), detail.data());
  std::abort();
}

inline void check_message(std::string_view message) {
  if (message.empty()) finding("empty error message", "");
  if (message.find('\n') != message.npos) finding("error message over several lines", message);
}

template <class F>
void expect_clean(F&& parse) {
  try {
    parse();
  } catch (const ParseError& e) {
    check_message(e.what());
  } catch (const UsageError& e) {
    check_message(e.what());
  } catch (const std::exception& e) {
    finding(typeid(e).name(), e.what());
  }
}

}  // namespace statespace::fuzz
