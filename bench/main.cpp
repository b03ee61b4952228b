// statespace_bench: Google Benchmark's own main; the benchmarks register themselves
// (enumerate_bench.cpp: whole enumerations, lookup_bench.cpp: the lookups alone).
// scripts/bench.sh runs it and renders the Markdown table docs/benchmarks.md quotes.
#include <benchmark/benchmark.h>

BENCHMARK_MAIN();
