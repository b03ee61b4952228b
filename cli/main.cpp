#include <malloc.h>

#include "cli/cli.hpp"

int main(int argc, char** argv) {
  // Every allocation of 256 KiB or more gets pages of its own, given back to the
  // system when freed. glibc would otherwise raise this threshold to the size of
  // each large block freed (up to 32 MiB), and the engines' per-level arrays would
  // then come from the heap, where a freed block below a live one stays resident:
  // the process would outgrow the --memory budget the engines check.
  mallopt(M_MMAP_THRESHOLD, 256 * 1024);
  mallopt(M_TRIM_THRESHOLD, 1024 * 1024);
  return statespace::cli::run(argc, argv);
}
