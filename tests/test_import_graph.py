"""The shape of the code, checked from its own imports (`python -m pytest tests/test_import_graph.py -q`).

Every `import` and `from … import` counts — at module level, inside functions and under TYPE_CHECKING alike: a lazy
import is still an arrow. A string handed to importlib is no arrow, so the last check below limits which modules a
string may name.

- The top-level parts point one way: benchmarks ← mcp_server ← evaluators ← shopbench_tui ← shopbench.
- No module imports its way back to itself inside a part (no cycle), so each part can be read from the bottom up.
- No file is over 600 lines.
- Shared code asks the registry what a benchmark is: nothing outside `benchmarks/` compares a benchmark's kind
  ("agentic", "qa") or a built-in benchmark's name.
- The shopping sandbox is a room of its own: the generic server (episodes, transports, trajectories, the server and
  its suites) imports nothing of `mcp_server.shopping`, and the trajectories (event types, writer, reader) stand on
  the ground floor: below them only the protocol's constants.
- No registry names a module in a string outside its own sub-package (a module at the top of a part: none, but for
  two listed registries of built-ins): a loop closed by a module name (a registry listing what registers into it
  from a layer above) is an import arrow the checks above cannot see.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PARTS = ("benchmarks", "mcp_server", "evaluators", "shopbench_tui", "shopbench")
"""Lowest first: a part may import only the parts before it."""
MAX_LINES = 600
KIND_VALUES = {"agentic", "qa"}
BUILTIN_NAMES = {"shoppingbench", "shopping-mmlu", "intentionqa", "session-intent"}
SHOPPING = "mcp_server.shopping"
OLD_PATHS = {"mcp_server.world", "mcp_server.world_build", "mcp_server.tools"}
"""Modules kept at their old paths for code written against them: each re-exports the shopping package's names."""
GROUND_FLOOR = {"mcp_server.trajectory": {"mcp_server.protocol_constants"}}
"""Module → all it may import of mcp_server."""
NAMED_IN_STRINGS = {
    ("benchmarks.registry", "benchmarks"),
    ("mcp_server.suite_registry", "mcp_server"),
    ("shopbench.commands.demo", "shopbench.cli"),
    ("shopbench_tui.study.serve", "shopbench.cli"),
}
"""(module, prefix) pairs whose strings may name modules under the prefix though it is wider than the module's own
sub-package: the two top-level registries that list their part's built-in benchmarks and suites, and the two
commands that start `python -m shopbench.cli` in a new process (run, not imported)."""


def modules() -> dict[str, Path]:
    """Dotted module name → file, for every module of the five parts."""
    found: dict[str, Path] = {}
    for part in PARTS:
        for path in sorted((REPO / part).rglob("*.py")):
            relative = path.relative_to(REPO).with_suffix("")
            parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
            found[".".join(parts)] = path
    return found


def imported_names(path: Path, module: str) -> Iterator[tuple[str, int]]:
    """(dotted name, line) of everything the file imports: `from a.b import c` gives "a.b.c" (c may be a module)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                yield f"{base}.{alias.name}", node.lineno
            yield base, node.lineno


def import_graph() -> dict[str, dict[str, int]]:
    """module → {module it imports: line}, within the five parts. `from pkg import name` counts as importing
    `pkg.name` when that is a module, else `pkg`."""
    known = modules()
    graph: dict[str, dict[str, int]] = {}
    for module, path in known.items():
        edges: dict[str, int] = {}
        for name, line in imported_names(path, module):
            target = name
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != module:
                edges.setdefault(target, line)
        graph[module] = edges
    return graph


def part_of(module: str) -> str:
    return module.split(".")[0]


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, {}):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_parts_point_one_way():
    graph = import_graph()
    order = {part: rank for rank, part in enumerate(PARTS)}
    upward = [
        f"{source} imports {target} (line {line})"
        for source, edges in graph.items()
        for target, line in edges.items()
        if order[part_of(target)] > order[part_of(source)]
    ]
    assert not upward, "\n".join(upward)


@pytest.mark.parametrize("part", PARTS)
def test_no_import_cycle_inside_a_part(part):
    graph = {
        source: {target: line for target, line in edges.items() if part_of(target) == part}
        for source, edges in import_graph().items()
        if part_of(source) == part
    }
    found = cycles(graph)
    shown = ["  " + " <-> ".join(component) for component in found]
    assert not found, f"{len(found)} import cycle(s) in {part}/:\n" + "\n".join(shown)


def test_no_file_over_600_lines():
    long = [
        f"{path.relative_to(REPO)}: {count} lines"
        for path in modules().values()
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    ]
    assert not long, "\n".join(long)


def kind_branches(path: Path) -> Iterator[str]:
    """Comparisons (==, !=, in, not in, match cases) against a benchmark kind or a built-in benchmark's name."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    watched = KIND_VALUES | BUILTIN_NAMES

    def literals(node: ast.AST) -> set[str]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return {node.value}
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            return {value for element in node.elts for value in literals(element)}
        return set()

    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            compared = [node.left, *node.comparators]
            hits = {value for operand in compared for value in literals(operand)} & watched
            if hits:
                yield f"{path.relative_to(REPO)}:{node.lineno}: compares with {', '.join(sorted(hits))}"
        elif isinstance(node, ast.MatchValue):
            hits = literals(node.value) & watched
            if hits:
                yield f"{path.relative_to(REPO)}:{node.lineno}: matches {', '.join(sorted(hits))}"


def test_no_kind_or_benchmark_name_branches_outside_the_registrations():
    found = [
        hit
        for module, path in modules().items()
        if part_of(module) != "benchmarks"
        for hit in kind_branches(path)
    ]
    assert not found, f"{len(found)} branch(es) on a benchmark kind or name:\n" + "\n".join(found)


def in_shopping(module: str) -> bool:
    return module == SHOPPING or module.startswith(SHOPPING + ".")


def test_the_generic_server_imports_nothing_of_the_shopping_sandbox():
    graph = import_graph()
    generic = [module for module in graph if part_of(module) == "mcp_server" and not in_shopping(module)]
    named = {"mcp_server.episodes", "mcp_server.transports", "mcp_server.trajectory", "mcp_server.server"}
    assert named <= set(generic)
    found = [
        f"{source} imports {target} (line {line})"
        for source in generic
        if source not in OLD_PATHS
        for target, line in graph[source].items()
        if in_shopping(target)
    ]
    assert not found, "\n".join(found)
    assert all(in_shopping(target) for alias in OLD_PATHS for target in graph[alias])


def test_trajectories_stand_on_the_ground_floor():
    graph = import_graph()
    found = [
        f"{module} imports {target} (line {line})"
        for module, allowed in GROUND_FLOOR.items()
        for target, line in graph[module].items()
        if part_of(target) == "mcp_server" and target not in allowed
    ]
    assert not found, "\n".join(found)


def docstring_ids(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are docstrings (of a module, class or function, or after an
    assignment): prose that may name a module."""
    found: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        for statement in body if isinstance(body, list) else []:
            if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant) and isinstance(
                    statement.value.value, str):
                found.add(id(statement.value))
    return found


def modules_named_in_strings(path: Path, known: dict[str, Path]) -> Iterator[tuple[str, int]]:
    """(module, line) for each string constant, outside docstrings, that is a dotted module name of the five parts,
    alone or as "module:attr" (what importlib or a "module:attr" resolver takes); a message that merely mentions one
    is no such string."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    prose = docstring_ids(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose:
            name = node.value.partition(":")[0]
            if "." in name and name in known:
                yield name, node.lineno


def own_package(module: str, path: Path) -> str | None:
    """The sub-package whose modules a module's strings may name; None for a module at the top of a part (its
    package is the whole part, which holds the layers above it)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    return None if package == part_of(module) else package


def test_no_registry_names_a_module_outside_its_own_package_in_a_string():
    known = modules()
    found = [
        f"{path.relative_to(REPO)}:{line}: names {named}"
        for module, path in known.items()
        for named, line in modules_named_in_strings(path, known)
        if not any(named == prefix or named.startswith(prefix + ".")
                   for prefix in [own_package(module, path) or "",
                                  *(allowed for source, allowed in NAMED_IN_STRINGS if source == module)] if prefix)
    ]
    assert not found, (f"{len(found)} string(s) naming a module outside the naming module's package: import it "
                       "(the composition root or the package that needs it), or let it register itself:\n"
                       + "\n".join(found))


def test_the_module_name_check_sees_a_registry_naming_a_layer_above(tmp_path: Path):
    """The check above fails for the string the model registry once held: the baselines' package, two layers up."""
    registry = tmp_path / "registry.py"
    registry.write_text('"""Doc naming evaluators.players.baselines is prose."""\n'
                        'BASELINES = "evaluators.players.baselines"\nHELP = "see evaluators.players.baselines"\n')
    known = modules()
    named = list(modules_named_in_strings(registry, known))
    assert named == [("evaluators.players.baselines", 2)]
    assert own_package("evaluators.models.registry", registry) == "evaluators.models"
    assert own_package("evaluators.parts", tmp_path / "parts.py") is None  # names no module of evaluators
