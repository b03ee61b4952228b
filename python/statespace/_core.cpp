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

#include "analysis/generate_plan.hpp"
#include "analysis/pipeline/analyze_puzzle.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"
#include "analysis/runtime/goal_table.hpp"
#include "analysis/runtime/memory.hpp"
#include "analysis/runtime/progress.hpp"
#include "analysis/solve_plan.hpp"
#include "analysis/solvers/ida.hpp"
#include "analysis/tables/table_probe.hpp"
#include "core/errors.hpp"
#include "core/lookup.hpp"
#include "core/notation.hpp"
#include "puzzles/puzzle_file.hpp"
#include "puzzles/registry.hpp"
#include "puzzles/toml_input.hpp"
#include "reports/summary_json.hpp"
#include "reports/table_file.hpp"

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

// Where a Puzzle came from, so that it can be read again with another symmetry: a
// built-in name or a file's path, or TOML text (with the file name its messages give).
struct Source {
  std::string name;
  std::optional<std::string> text;
};

// A model of the registry with the name it was made from.
class Puzzle {
 public:
  Puzzle(AnyPuzzle p, std::string kind, Source source)
      : p_(std::move(p)), kind_(std::move(kind)), source_(std::move(source)) {}

  [[nodiscard]] const AnyPuzzle& model() const { return p_; }
  [[nodiscard]] std::string name() const {
    return std::visit([](const auto& p) { return p.name(); }, p_);
  }
  [[nodiscard]] const std::string& kind() const { return kind_; }
  [[nodiscard]] const Source& source() const { return source_; }
  [[nodiscard]] bool from_file() const {
    return source_.text || source_.name.ends_with(".toml") || source_.name.ends_with(".tws");
  }

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
  Source source_;
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

// The puzzle `source` names; `symmetry` ("board" or "none") in place of a rules
// file's own `symmetry = ...`, refused for every other kind.
Puzzle make(const Source& source, const std::optional<std::string>& symmetry) {
  const auto no_symmetry = [&](const std::string& kind) {
    if (symmetry) {
      throw UsageError(source.name + ": symmetry= applies to rules files (kind = \"rules\"), not to " +
                       (kind.empty() ? "this puzzle" : "a " + kind + " puzzle") +
                       " (expected symmetry=None, the puzzle's own)");
    }
  };
  if (source.text || source.name.ends_with(".toml")) {
    std::string kind;
    AnyPuzzle p = load_file([&] {
      TomlInput file = source.text ? TomlInput(std::filesystem::path(source.name), *source.text)
                                   : TomlInput(std::filesystem::path(source.name));
      kind = file_kind(file);
      if (kind != "rules") no_symmetry(kind);
      if (symmetry) file.set_string("symmetry", *symmetry);
      return load_puzzle_file(file);
    });
    return {std::move(p), kind, source};
  }
  if (source.name.ends_with(".tws")) {
    no_symmetry("tws");
    return {load_file([&] { return *make_file_puzzle(source.name); }), "tws", source};
  }
  std::string kind = kind_of_name(source.name);
  no_symmetry(kind);
  return {make_puzzle(source.name), std::move(kind), source};
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
                                const std::optional<std::string>& lookup, const std::optional<std::string>& table,
                                const py::object& progress) {
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
  if (table) {
    if (table->empty()) throw UsageError(puzzle.name() + ": table= names no file (expected a path)");
    o.table = true;
  }
  // Counting from another position up to symmetry takes the group that fixes it.
  AnyPuzzle model = puzzle.model();
  if (from) {
    std::visit(
        [&](auto& p) {
          if constexpr (StartMovablePuzzle<std::decay_t<decltype(p)>>) p.start_at(*from);
        },
        model);
  }
  const AnyPlan plan = plan_puzzle(model, o);
  auto result = std::make_unique<Result>();
  watched(progress, [&] {
    const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(o.threads));
    Progress clock(puzzle.name(), false);
    const bool per_run_peak = reset_peak_rss();
    PuzzleRun run = analyze_puzzle(model, o, plan);
    result->r = std::move(run.result);
    result->r.threads = o.threads;
    result->r.seconds = clock.seconds();
    result->r.peak_bytes = peak_rss_bytes();
    result->r.peak_per_run = per_run_peak;
    // Written as the bundle's is (a temporary beside it, renamed), then let go: the
    // file is what Table maps.
    if (table && result->r.table) reports::write_goal_table(*table, *result->r.table);
    result->r.table.reset();
    return 0;
  });
  return result;
}

using Steps = std::vector<std::pair<std::optional<std::string>, std::string>>;

// (move name or None, position) for each step of `path` after its first.
template <statespace::Puzzle P>
Steps steps_of(const P& p, const std::vector<typename P::State>& path) {
  Steps steps;
  for (std::size_t i = 1; i < path.size(); ++i) {
    std::optional<std::string> name;
    if constexpr (MoveNamingPuzzle<P>) name = p.move_name(path[i - 1], path[i]);
    steps.emplace_back(std::move(name), p.format(path[i]));
  }
  return steps;
}

Engine solve_method(const std::string& method) {
  if (method == "auto") return Engine::automatic;
  if (method == "bfs") return Engine::bfs;
  if (method == "bidirectional") return Engine::bidirectional;
  if (method == "ida") return Engine::ida;
  throw ParseError("solve: unknown method " + quote_input(method) + " (expected auto, bfs, bidirectional or ida)");
}

class Table;
std::optional<Steps> walk(const Table& table, const Puzzle& puzzle, const std::string& position);

// `statespace solve`'s plan and methods: a walk along `table` when one is given, IDA*
// over pattern databases where the CLI takes it (tiles:4x4, method="ida"), else the
// planned search.
Steps solve(const Puzzle& puzzle, const std::optional<std::string>& position, const std::string& method,
            const std::optional<std::string>& goal, const py::object& memory, const Table* table,
            const std::optional<std::string>& pdb_dir) {
  SolveRequest request;
  request.from = position.value_or("");
  request.goal = goal.value_or("");
  request.from_file = puzzle.from_file();
  request.method = solve_method(method);
  request.memory = budget_of(memory);
  request.progress = false;
  if (table) {
    if (method != "auto" || goal)
      throw UsageError("solve: table= walks to the table's goal (expected method=\"auto\" and no goal=)");
    if (auto steps = walk(*table, puzzle, request.from)) return std::move(*steps);
  }
  return std::visit(
      [&](const auto& p) -> Steps {
        using P = std::decay_t<decltype(p)>;
        const SolvePlan<P> plan = plan_solve(p, request);
        if (std::holds_alternative<OptimalSolve>(plan.method)) {
          if constexpr (std::is_same_v<P, Tiles>) {
            const Tiles& t = p;
            if (!position) throw ParseError("solve: missing the position (statespace.solve(puzzle, position))");
            const Board b = t.parse(*position);
            if (!t.same_class(b, t.goal())) throw UsageError(unsolvable_reason(t, b, t.goal(), 0));
            return watched(py::none(), [&] {
              const PartitionPlan partition = plan_partition(t, "", request.memory);
              std::ostringstream log;
              const PdbHeuristic h = load_heuristic(t, partition.partition,
                                                    pdb_dir ? std::filesystem::path(*pdb_dir) : default_pdb_dir(), log);
              const IdaResult r = solve_ida(*h.heuristic, b);
              Steps steps;
              for (std::size_t i = 1; i < r.path.size(); ++i) steps.emplace_back(std::nullopt, t.format(r.path[i]));
              return steps;
            });
          } else {
            throw UsageError(p.name() + ": the optimal solver (method=\"ida\") solves sliding tiles only");
          }
        }
        const SolveRun<P> run = watched(py::none(), [&] { return run_solve(p, request, plan); });
        return steps_of(p, run.solution.path);
      },
      puzzle.model());
}

// One row of Table.moves(): the move's name (or None), the position after it, its
// standing ("distance", "dead" or "not reachable"), the distance (or None) and what
// the move does to the distance ("closer", "same", "farther", or the standing).
using MoveRow = std::tuple<std::optional<std::string>, std::string, std::string, std::optional<unsigned>, std::string>;

// A table's probe for one model, behind one interface so that Table holds any.
struct AnyProbe {
  virtual ~AnyProbe() = default;
  [[nodiscard]] virtual TableEntry entry(const std::string& position) const = 0;
  [[nodiscard]] virtual std::vector<MoveRow> moves(const std::string& position) const = 0;
  // Up to n best moves from `position` toward the goal, as real moves.
  [[nodiscard]] virtual Steps line(const std::string& position, std::uint64_t n) const = 0;
  [[nodiscard]] virtual std::string start() const = 0;
};

template <statespace::Puzzle P>
class ProbeOf final : public AnyProbe {
 public:
  ProbeOf(const P& p, const GoalTableFile& file, bool from_file) : p_(p), probe_(p, file), from_file_(from_file) {}
  [[nodiscard]] TableEntry entry(const std::string& position) const override { return probe_.entry(at(position)); }
  [[nodiscard]] std::vector<MoveRow> moves(const std::string& position) const override {
    const auto s = at(position);
    const TableEntry here = probe_.entry(s);
    std::vector<MoveRow> rows;
    for (const auto& m : probe_.moves(s, here)) {
      std::optional<std::string> name;
      if constexpr (MoveNamingPuzzle<P>) name = p_.move_name(s, m.to);
      std::optional<unsigned> d;
      if (m.entry.standing == Standing::distance) d = m.entry.distance;
      rows.emplace_back(std::move(name), p_.format(m.to), standing_name(m.entry.standing), d,
                        change_name(here, m.entry));
    }
    return rows;
  }
  [[nodiscard]] Steps line(const std::string& position, std::uint64_t n) const override {
    return steps_of(p_, real_path(p_, probe_.line(at(position), n)));
  }
  [[nodiscard]] std::string start() const override { return p_.format(at("")); }

 private:
  // The position `text` names; empty: a puzzle file's start, else the goal (query's).
  [[nodiscard]] typename P::State at(const std::string& text) const {
    if (!text.empty()) return p_.parse(text);
    if constexpr (requires { p_.start(); }) {
      if (from_file_) return p_.start();
    }
    return p_.goal();
  }
  const P& p_;
  TableProbe<P> probe_;
  bool from_file_;
};

// A distance table (analyze --table), mapped, with its header checked against the
// puzzle: distances and best moves by probes, the data as numpy views (no copy).
class Table {
 public:
  Table(const std::string& path, Puzzle puzzle) : file_(GoalTableFile::open(path)), puzzle_(std::move(puzzle)) {
    probe_ = std::visit(
        [&](const auto& p) -> std::unique_ptr<AnyProbe> {
          return std::make_unique<ProbeOf<std::decay_t<decltype(p)>>>(p, file_, puzzle_.from_file());
        },
        puzzle_.model());
  }
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  [[nodiscard]] const GoalTableFile& file() const { return file_; }
  [[nodiscard]] const Puzzle& puzzle() const { return puzzle_; }
  [[nodiscard]] const AnyProbe& probe() const { return *probe_; }

 private:
  GoalTableFile file_;
  Puzzle puzzle_;
  std::unique_ptr<AnyProbe> probe_;  // refers to file_ and puzzle_
};

std::optional<Steps> walk(const Table& table, const Puzzle& puzzle, const std::string& position) {
  if (table.puzzle().name() != puzzle.name()) {
    throw UsageError("table " + table.file().path().string() + " is for " + table.puzzle().name() + ", not " +
                     puzzle.name() + " (expected the table of the puzzle solved)");
  }
  const TableEntry e = table.probe().entry(position);
  if (e.standing != Standing::distance) return std::nullopt;
  return table.probe().line(position, e.distance);
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

// The table's codes as a read-only uint8 view of the mapping, owned by `owner`: one
// byte a rank (byte tables), four ranks a byte from the low bits (two-bit tables), or
// one byte a sorted word (words and wide words tables).
py::array_t<std::uint8_t> codes_view(const Table& t, py::handle owner) {
  const GoalTableHeader& h = t.file().header();
  const auto* data = reinterpret_cast<const std::uint8_t*>(t.file().data());
  if (h.encoding != TableEncoding::two_bits) data = t.file().codes();
  const std::uint64_t bytes = (h.entries * h.bits() + 7) / 8;
  py::array_t<std::uint8_t> a({py::ssize_t(bytes)}, {py::ssize_t(1)}, data, owner);
  a.attr("setflags")(py::arg("write") = false);
  return a;
}

// The table at `path` for `puzzle`; without one, the built-in puzzle its header names.
std::unique_ptr<Table> make_table(const std::string& path, const std::optional<Puzzle>& puzzle) {
  if (puzzle) return std::make_unique<Table>(path, *puzzle);
  const std::string name = GoalTableFile::open(path).header().puzzle;
  if (kind_of_name(name).empty()) {
    throw UsageError("table " + path + " is for " + name +
                     ", which is no built-in puzzle (expected statespace.Table(path, puzzle) with the puzzle file)");
  }
  return std::make_unique<Table>(path, make(Source{name, std::nullopt}, std::nullopt));
}

std::string encoding_name(TableEncoding e) {
  switch (e) {
    case TableEncoding::two_bits:
      return "two-bits";
    case TableEncoding::byte:
      return "byte";
    case TableEncoding::words:
      break;
    case TableEncoding::wide_words:
      return "wide-words";
  }
  return "words";
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

  m.def(
      "_puzzle",
      [](const std::string& name, const std::optional<std::string>& symmetry) {
        return make(Source{name, std::nullopt}, symmetry);
      },
      py::arg("name"), py::arg("symmetry"));
  m.def(
      "_puzzle_from_toml",
      [](const std::string& text, const std::string& file, const std::optional<std::string>& symmetry) {
        return make(Source{file, text}, symmetry);
      },
      py::arg("text"), py::arg("file"), py::arg("symmetry"));
  m.def(
      "_with_symmetry",
      [](const python::Puzzle& p, const std::optional<std::string>& symmetry) { return make(p.source(), symmetry); },
      py::arg("puzzle"), py::arg("symmetry"));
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
        py::arg("start"), py::arg("lookup"), py::arg("table"), py::arg("progress"));
  m.def("_solve", &python::solve, py::arg("puzzle"), py::arg("position"), py::arg("method"), py::arg("goal"),
        py::arg("memory"), py::arg("table"), py::arg("pdb_dir"));

  py::class_<Table>(m, "Table",
                    "A distance table that analyze(table=PATH) or `statespace analyze --table` wrote, memory-mapped: "
                    "each position's distance to the goal and every move's, by a few probes, no search.")
      .def(py::init([](const py::object& path, const std::optional<python::Puzzle>& puzzle) {
             return make_table(py::module_::import("os").attr("fspath")(path).cast<std::string>(), puzzle);
           }),
           py::arg("path"), py::arg("puzzle") = py::none(),
           "Maps the table at `path` and checks its header against `puzzle` (default: the built-in puzzle the "
           "header names; a puzzle file's table needs its puzzle). ValueError for another puzzle's table, a "
           "damaged or truncated file.")
      .def_property_readonly("path", [](const Table& t) { return t.file().path().string(); })
      .def_property_readonly("puzzle", &Table::puzzle)
      .def_property_readonly(
          "goal", [](const Table& t) { return t.file().header().goal; },
          "The goal position, or a partial goal's picture, the distances lead to.")
      .def_property_readonly(
          "encoding", [](const Table& t) { return encoding_name(t.file().header().encoding); },
          "\"two-bits\" (distance mod 3 by rank), \"byte\" (distance by rank), \"words\" "
          "(sorted position words, a byte each) or \"wide-words\" (128-bit words grouped by their high part): "
          "docs/tables.md.")
      .def_property_readonly("directed", [](const Table& t) { return t.file().header().directed; })
      .def_property_readonly(
          "entries", [](const Table& t) { return t.file().header().entries; }, "Ranks (or words) the table holds.")
      .def_property_readonly(
          "reached", [](const Table& t) { return t.file().header().reached; },
          "Positions with a distance, and the dead ones.")
      .def_property_readonly(
          "dead", [](const Table& t) { return t.file().header().dead; }, "Positions from which no goal can be reached.")
      .def_property_readonly(
          "distribution",
          [](py::object self) { return view_of(self.cast<const Table&>().file().header().layers, self); },
          "Positions at each distance to the goal (int64, a view of the header).")
      .def(
          "distance",
          [](const Table& t, const std::optional<std::string>& position) {
            const TableEntry e = t.probe().entry(position.value_or(""));
            return e.standing == Standing::distance ? std::optional<unsigned>(e.distance) : std::nullopt;
          },
          py::arg("position") = py::none(),
          "The distance to the goal (default position: a puzzle file's start, else the goal); None when the "
          "position is dead or not in the table (standing() says which).")
      .def(
          "standing",
          [](const Table& t, const std::optional<std::string>& position) {
            return standing_name(t.probe().entry(position.value_or("")).standing);
          },
          py::arg("position") = py::none(), "\"distance\", \"dead\" or \"not reachable\".")
      .def(
          "moves",
          [](const Table& t, const std::optional<std::string>& position) {
            return t.probe().moves(position.value_or(""));
          },
          py::arg("position") = py::none(),
          "Every move, best first: (move name or None, position after, standing, distance or None, change), "
          "change being \"closer\", \"same\", \"farther\" or the standing; as `statespace query` prints.")
      .def(
          "line",
          [](const Table& t, const std::optional<std::string>& position, const std::optional<std::uint64_t>& n) {
            return t.probe().line(position.value_or(""), n.value_or(~std::uint64_t{0}));
          },
          py::arg("position") = py::none(), py::arg("n") = py::none(),
          "Up to n best moves toward the goal (all the way by default): (move name or None, position after).")
      .def(
          "ranks", [](py::object self) { return codes_view(self.cast<const Table&>(), self); },
          "The codes as a read-only uint8 view of the mapped file (no copy): one byte a rank on byte tables (0 "
          "not reached, 1 dead, 2 + d distance d), four ranks a byte from the low bits on two-bit tables (0 not "
          "reached, 1 + d mod 3), one byte a word on words tables.")
      .def("__repr__", [](const Table& t) {
        return "statespace.Table(" + py::repr(py::str(t.file().path().string())).cast<std::string>() + ")";
      });
}
