// The error types the CLI turns into one line on stderr and exit code 2. Thrown by
// core and analysis on bad input; caught once, in main.
#pragma once

#include <stdexcept>
#include <string>

namespace statespace {

// A position or puzzle name that does not parse; the message names the token and
// the expected form.
struct ParseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A well-formed request we refuse: too much memory, an unsolvable position, an
// option combination that makes no sense.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A run refused because it would not fit the memory budget (--memory): a UsageError
// to the CLI, told apart by callers that answer it differently (Python's MemoryError).
struct BudgetError : UsageError {
  using UsageError::UsageError;
};

}  // namespace statespace
