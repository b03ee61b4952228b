#include "cli/cli.hpp"

int main(int argc, char** argv) { return statespace::cli::run(argc, argv); }
