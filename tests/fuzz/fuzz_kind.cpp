// The puzzle kind a puzzle file harness forces (puzzle_file_fuzz.cpp): FUZZ_KIND, which
// tests/fuzz/CMakeLists.txt sets for each harness but fuzz_puzzle_file, or none. A
// file of its own so that the harness's code is compiled once for all of them.
namespace statespace::fuzz {

#ifdef FUZZ_KIND
const char* forced_kind() { return FUZZ_KIND; }
#else
const char* forced_kind() { return ""; }
#endif

}  // namespace statespace::fuzz
