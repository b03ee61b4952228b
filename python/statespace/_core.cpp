// statespace._core: the analysis pipeline, the registry's models and the summary
// writer as a Python extension (pybind11). The Python package (__init__.py) adds
// the pure-Python parts (pandas readers, progress records) on top of this module.
//
// Every error of the library reaches Python as an exception carrying the CLI's one-line
// message: ParseError and UsageError as ValueError, a refused memory budget
// (BudgetError) as MemoryError, a broken puzzle file as PuzzleFileError (a ValueError
// with file, line and column). An analysis runs without the GIL; between levels it
// takes the GIL back for the progress callable and for Python's pending signals, so
// that Ctrl-C stops it there with KeyboardInterrupt.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <tbb/global_control.h>
#include <tbb/info.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "analysis/pipeline/analyze_puzzle.hpp"
#include "analysis/runtime/memory.hpp"
#include "analysis/runtime/progress.hpp"
#include "analysis/solvers/solve.hpp"
#include "core/errors.hpp"
#include "core/lookup.hpp"
#include "core/notation.hpp"
#include "puzzles/puzzle_file.hpp"
#include "puzzles/registry.hpp"
#include "puzzles/toml_input.hpp"
#include "reports/summary_json.hpp"

namespace py = pybind11;

namespace statespace::python {

namespace {

// Raised from a ProgressObserver when Python has an exception pending (a
// KeyboardInterrupt from the signal handler, or one the progress callable raised):
// the engine unwinds, and the caller, holding the GIL again, re-raises the pending one.
struct PythonErrorPending {};

py::object puzzle_file_error;  // statespace.PuzzleFileError, made in PYBIND11_MODULE

// A ParseError from reading a puzzle file as PuzzleFileError(message, file, line,
// column): the message's FILE:LINE:COLUMN: prefix, split.
[[noreturn]] void raise_file_error(const ParseError& e) {
  static const std::regex located(R"(^(.*?):(\d+):(\d+): )");
  const std::string message = e.what();
  std::smatch m;
  py::object file = py::none(), line = py::none(), column = py::none();
  if (std::regex_search(message, m, located)) {
    file = py::str(m[1].str());
    line = py::int_(std::stoi(m[2].str()));
    column = py::int_(std::stoi(m[3].str()));
  }
  PyErr_SetObject(puzzle_file_error.ptr(), py::make_tuple(message, file, line, column).ptr());
  throw py::error_already_set();
}

// Runs `load`, turning a ParseError into PuzzleFileError.
template <class F>
AnyPuzzle load_file(F&& load) {
  try {
    return load();
  } catch (const BudgetError&) {
    throw;
  } catch (const ParseError& e) {
    raise_file_error(e);
  }
}

// A model of the registry with the name it was made from.
class Puzzle {
 public:
  Puzzle(AnyPuzzle p, std::string kind) : p_(std::move(p)), kind_(std::move(kind)) {}

  [[nodiscard]] const AnyPuzzle& model() const { return p_; }
  [[nodiscard]] std::string name() const {
    return std::visit([](const auto& p) { return p.name(); }, p_);
  }
  [[nodiscard]] const std::string& kind() const { return kind_; }

  // The position a puzzle file names as its start; a built-in model's goal, as
  // `statespace solve` takes them.
  [[nodiscard]] std::string start() const {
    return std::visit(
        [](const auto& p) {
          if constexpr (requires { p.start(); }) {
            return p.format(p.start());
          } else {
            return p.format(p.goal());
          }
        },
        p_);
  }
  // The goal picture of a partial goal ('*' for any content), else the goal position.
  [[nodiscard]] std::string goal() const {
    return std::visit(
        [](const auto& p) {
          if constexpr (GoalPredicatePuzzle<std::decay_t<decltype(p)>>) {
            if (p.has_goal()) return p.goal_text();
          }
          return p.format(p.goal());
        },
        p_);
  }
  [[nodiscard]] std::string parse(const std::string& text) const {
    return std::visit([&](const auto& p) { return p.format(p.parse(text)); }, p_);
  }
  [[nodiscard]] std::string board(const std::string& text) const { return with_row_separator(parse(text), "\n"); }
  // (move name or None, position after) for each move from `text`, in the model's order.
  [[nodiscard]] std::vector<std::pair<std::optional<std::string>, std::string>> moves(const std::string& text) const {
    return std::visit(
        [&](const auto& p) {
          using P = std::decay_t<decltype(p)>;
          const auto s = p.parse(text);
          std::vector<std::pair<std::optional<std::string>, std::string>> out;
          p.for_each_successor(s, [&](const typename P::State& t) {
            std::optional<std::string> name;
            if constexpr (MoveNamingPuzzle<P>) name = p.move_name(s, t);
            out.emplace_back(std::move(name), p.format(t));
          });
          return out;
        },
        p_);
  }

 private:
  AnyPuzzle p_;
  std::string kind_;
};

// The registry row's form ("tiles:RxC") of a built-in name, or the file's kind.
std::string kind_of_name(std::string_view name) {
  for (const auto& row : models()) {
    if (row.form.starts_with("FILE.")) continue;
    try {
      if (row.make(name)) return std::string(row.form);
    } catch (const ParseError&) {
      return std::string(row.form);
    }
  }
  return "";
}

std::string file_kind(const TomlInput& file) {
  const auto kind = file.root()["kind"].value<std::string>();
  return kind ? *kind : "";
}

Puzzle make(const std::string& name) {
  if (name.ends_with(".toml")) {
    std::string kind;
    AnyPuzzle p = load_file([&] {
      const TomlInput file{std::filesystem::path(name)};
      kind = file_kind(file);
      return load_puzzle_file(file);
    });
    return {std::move(p), kind};
  }
  if (name.ends_with(".tws")) return {load_file([&] { return *make_file_puzzle(name); }), "tws"};
  return {make_puzzle(name), kind_of_name(name)};
}

Puzzle from_toml(const std::string& text, const std::string& file) {
  std::string kind;
  AnyPuzzle p = load_file([&] {
    const TomlInput input{std::filesystem::path(file), text};
    kind = file_kind(input);
    return load_puzzle_file(input);
  });
  return {std::move(p), kind};
}

// One analysis: the library's result, kept alive by the numpy views of it.
struct Result {
  AnalysisResult r;
};

// Passes each finished level to `progress` and stops the run on a pending Python
// exception (KeyboardInterrupt included), taking the GIL for both.
class Watcher : public ProgressObserver {
 public:
  explicit Watcher(py::object progress) : progress_(std::move(progress)) {}
  void level(std::string_view label, unsigned depth, std::uint64_t added, std::uint64_t total) override {
    py::gil_scoped_acquire gil;
    if (!progress_.is_none()) {
      try {
        progress_(std::string(label), depth, added, total);
      } catch (py::error_already_set& e) {
        e.restore();
        throw PythonErrorPending{};
      }
    }
    if (PyErr_CheckSignals() != 0) throw PythonErrorPending{};
  }
  void step(std::string_view) override {
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) throw PythonErrorPending{};
  }

 private:
  py::object progress_;
};

MemoryBudget budget_of(const py::object& memory) {
  if (memory.is_none()) return {};
  if (py::isinstance<py::str>(memory)) return MemoryBudget(parse_bytes(memory.cast<std::string>()));
  const auto bytes = memory.cast<long long>();
  if (bytes <= 0) throw ParseError("bad memory budget " + std::to_string(bytes) + " (expected a positive byte count)");
  return MemoryBudget(std::uint64_t(bytes));
}

std::size_t threads_of(const py::object& threads) {
  if (threads.is_none()) return std::size_t(tbb::info::default_concurrency());
  const auto n = threads.cast<long long>();
  if (n < 1 || n > 1024) {
    throw ParseError("bad thread count " + std::to_string(n) + " (expected a whole number from 1 to 1024)");
  }
  return std::size_t(n);
}

// Runs `fn` without the GIL under a Watcher; a pending Python exception stops it.
// The Watcher is made and destroyed with the GIL held, as it holds a Python object.
template <class F>
auto watched(const py::object& progress, F&& fn) {
  Watcher watcher(progress);
  try {
    py::gil_scoped_release nogil;
    return fn();
  } catch (const PythonErrorPending&) {
    throw py::error_already_set();
  }
}

std::unique_ptr<Result> analyze(const Puzzle& puzzle, const std::string& engine, const py::object& threads,
                                const py::object& memory, const std::optional<std::string>& from,
                                const std::optional<std::string>& lookup, const py::object& progress) {
  AnalyzeOptions o;
  o.engine = parse_engine(engine);
  if (lookup) o.lookup = parse_lookup(*lookup);
  if (o.engine == Engine::mpi) {
    throw UsageError(puzzle.name() +
                     ": --engine mpi runs from the analyze command only (mpirun -np N statespace "
                     "analyze ...)");
  }
  o.memory = budget_of(memory);
  o.threads = int(threads_of(threads));
  o.progress = false;
  // The CLI's --dot-limit stays, so that auto picks the CLI's engine (a small space's
  // report is the explicit engine's), but no graph is drawn.
  o.draw_graph = false;
  if (from) o.from = *from;
  const AnyPlan plan = plan_puzzle(puzzle.model(), o);
  auto result = std::make_unique<Result>();
  watched(progress, [&] {
    const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(o.threads));
    Progress clock(puzzle.name(), false);
    const bool per_run_peak = reset_peak_rss();
    PuzzleRun run = analyze_puzzle(puzzle.model(), o, plan);
    result->r = std::move(run.result);
    result->r.threads = o.threads;
    result->r.seconds = clock.seconds();
    result->r.peak_bytes = peak_rss_bytes();
    result->r.peak_per_run = per_run_peak;
    return 0;
  });
  return result;
}

std::vector<std::pair<std::optional<std::string>, std::string>> solve(const Puzzle& puzzle, const std::string& position,
                                                                      const py::object& memory) {
  const MemoryBudget budget = budget_of(memory);
  return std::visit(
      [&](const auto& p) {
        using P = std::decay_t<decltype(p)>;
        bool partial = false;
        if constexpr (GoalPredicatePuzzle<P>) partial = p.has_goal();
        const auto start = p.parse(position);
        const auto goal = p.goal();
        if constexpr (ParityClassPuzzle<P>) {
          if (!p.same_class(start, goal)) throw UsageError(unsolvable_reason(p, start, goal, 0));
        }
        const auto reaches = [&](const typename P::State& s) {
          if constexpr (GoalPredicatePuzzle<P>) {
            if (partial) return p.is_goal(s);
          }
          return s == goal;
        };
        Solution<P> sol = watched(py::none(), [&] {
          Progress progress(p.name() + " solve", false);
          return with_lookup(LookupKind::kHashed, p, [&](auto& visited) {
            return solve_bfs_until(p, start, reaches, visited, budget, &progress);
          });
        });
        if constexpr (GoalPredicatePuzzle<P>) {
          if (sol.path.empty() && partial) {
            throw UsageError(p.name() + ": no solution from " + p.format(start) + ": none of the " +
                             std::to_string(sol.stored) + " positions it reaches matches the goal " + p.goal_text());
          }
        }
        if (sol.path.empty()) throw UsageError(unsolvable_reason(p, start, goal, sol.stored));
        std::vector<std::pair<std::optional<std::string>, std::string>> steps;
        for (std::size_t i = 1; i < sol.path.size(); ++i) {
          std::optional<std::string> name;
          if constexpr (MoveNamingPuzzle<P>) name = p.move_name(sol.path[i - 1], sol.path[i]);
          steps.emplace_back(std::move(name), p.format(sol.path[i]));
        }
        return steps;
      },
      puzzle.model());
}

// A read-only int64 view of `v`, owned by `owner` (no copy). The counts stay below 2^63.
py::array_t<std::int64_t> view_of(const std::vector<std::uint64_t>& v, py::handle owner) {
  static_assert(sizeof(std::int64_t) == sizeof(std::uint64_t));
  py::array_t<std::int64_t> a({py::ssize_t(v.size())}, {py::ssize_t(sizeof(std::int64_t))},
                              reinterpret_cast<const std::int64_t*>(v.data()), owner);
  a.attr("setflags")(py::arg("write") = false);
  return a;
}

py::object goal_facts(const AnalysisResult& r) {
  if (!r.goal) return py::none();
  const GoalView& g = *r.goal;
  py::dict d;
  d["goal"] = g.goal;
  d["reached"] = g.reached;
  d["shortest"] = g.shortest ? py::object(py::int_(*g.shortest)) : py::object(py::none());
  d["distribution"] = g.layers;
  d["hardest_distance"] = g.layers.empty() ? 0 : g.layers.size() - 1;
  d["hardest"] = g.hardest;
  d["dead_ends"] = g.dead_ends ? py::object(py::int_(*g.dead_ends)) : py::object(py::none());
  return d;
}

}  // namespace

}  // namespace statespace::python

PYBIND11_MODULE(_core, m) {
  using namespace statespace;
  using namespace statespace::python;
  m.doc() = "statespace's C++ core; use the statespace package.";
  m.attr("__version__") = STATESPACE_VERSION;

  puzzle_file_error = py::reinterpret_steal<py::object>(
      PyErr_NewExceptionWithDoc("statespace.PuzzleFileError",
                                "A puzzle file that cannot be read: file, line and column say where (None when the "
                                "message names no place).",
                                PyExc_ValueError, nullptr));
  m.attr("PuzzleFileError") = puzzle_file_error;
  py::register_exception_translator([](std::exception_ptr e) {
    try {
      if (e) std::rethrow_exception(e);
    } catch (const BudgetError& x) {
      PyErr_SetString(PyExc_MemoryError, x.what());
    } catch (const ParseError& x) {
      PyErr_SetString(PyExc_ValueError, x.what());
    } catch (const UsageError& x) {
      PyErr_SetString(PyExc_ValueError, x.what());
    }
  });

  py::class_<python::Puzzle>(m, "Puzzle", "A puzzle: a built-in model or one read from a file.")
      .def_property_readonly("name", &python::Puzzle::name, "The puzzle's name (its report folder's).")
      .def_property_readonly("kind", &python::Puzzle::kind,
                             "The built-in form (\"tiles:RxC\") or the file's kind (\"blocks\", ...).")
      .def_property_readonly("start", &python::Puzzle::start,
                             "The file's start position; a built-in model's goal (`statespace solve`'s).")
      .def_property_readonly("goal", &python::Puzzle::goal, "The goal position, or a partial goal's picture.")
      .def("moves", &python::Puzzle::moves, py::arg("position"),
           "Every move from `position`: (move name or None, position after).")
      .def("parse", &python::Puzzle::parse, py::arg("text"),
           "`text` in the canonical notation; ValueError when it is no position.")
      .def("format", &python::Puzzle::board, py::arg("position"), "`position` as a board, one row a line.")
      .def("__repr__", [](const python::Puzzle& p) {
        return "statespace.puzzle(" + py::repr(py::str(p.name())).cast<std::string>() + ")";
      });

  m.def("_puzzle", &make, py::arg("name"));
  m.def("_puzzle_from_toml", &from_toml, py::arg("text"), py::arg("file"));
  m.def("_listed", &listed_puzzles);
  m.def("_seeds", &seed_puzzles);

  py::class_<Result>(m, "Result", "What one analysis found (summary.json's facts).")
      .def_property_readonly("puzzle", [](const Result& x) { return x.r.puzzle; })
      .def_property_readonly("start", [](const Result& x) { return x.r.start; })
      .def_property_readonly("states", [](const Result& x) { return x.r.states; })
      .def_property_readonly("positions", [](const Result& x) { return x.r.positions(); })
      .def_property_readonly("edges",
                             [](const Result& x) {
                               return x.r.gives(kViewEdges) ? py::object(py::int_(x.r.edges)) : py::object(py::none());
                             })
      .def_property_readonly("eccentricity", [](const Result& x) { return x.r.eccentricity(); })
      .def_property_readonly(
          "distribution", [](py::object self) { return view_of(self.cast<const Result&>().r.layers, self); },
          "Positions at each distance: an int64 numpy view of the result (no copy, read-only).")
      .def_property_readonly(
          "positions_distribution",
          [](py::object self) {
            const auto& r = self.cast<const Result&>().r;
            return r.layer_positions.empty() ? py::object(py::none()) : py::object(view_of(r.layer_positions, self));
          },
          "Up to symmetry: the positions each class count of distribution stands for; else None.")
      .def_property_readonly("farthest", [](const Result& x) { return x.r.farthest; })
      .def_property_readonly("goal", [](const Result& x) { return goal_facts(x.r); })
      .def_property_readonly("directed", [](const Result& x) { return x.r.directed; })
      .def_property_readonly("engine", [](const Result& x) { return x.r.engine; })
      .def_property_readonly("comparisons",
                             [](const Result& x) {
                               return x.r.comparisons ? py::object(py::int_(*x.r.comparisons)) : py::object(py::none());
                             })
      .def_property_readonly("threads", [](const Result& x) { return x.r.threads; })
      .def_property_readonly("seconds", [](const Result& x) { return x.r.seconds; })
      .def_property_readonly(
          "summary_json", [](const Result& x) { return reports::summary_json(x.r); },
          "summary.json's text, byte for byte what `statespace analyze` writes.");

  m.def("_analyze", &python::analyze, py::arg("puzzle"), py::arg("engine"), py::arg("threads"), py::arg("memory"),
        py::arg("start"), py::arg("lookup"), py::arg("progress"));
  m.def("_solve", &python::solve, py::arg("puzzle"), py::arg("position"), py::arg("memory"));
}
