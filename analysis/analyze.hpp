// The analysis pipeline: every engine's analysis of one puzzle from one start.
#pragma once

#include "analysis/engines/explicit/analyze_explicit.hpp"
#include "analysis/engines/implicit/analyze_implicit.hpp"
#include "analysis/engines/levels/analyze_levels.hpp"
#include "analysis/engines/options.hpp"
