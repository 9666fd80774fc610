"""The one size rule for all of ``src/liarsdice``, its justified exceptions, and the import
circles: checked by ``make lint`` (``python tests/code_shape.py``) and by
``tests/test_architecture.py``.

The rule (docs/ARCHITECTURE.md, "Shape"): no class over 400 lines; no function over 80 lines
of its own (not counting the functions and classes nested in it; 150 with them); no function
of cyclomatic complexity over 20 (radon's measure); no ``if``/``elif`` chain over six branches
(a ``match`` or a table says it better). No import circle between modules, imports under
``TYPE_CHECKING`` included (an import inside a function, which loads an optional part on first
use, is not counted).

``python tests/code_shape.py [--census]`` prints what breaks the rule (and with ``--census`` a
count of each measure), and exits 1 when something not in :data:`EXCEPTIONS` does.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from radon.visitors import ComplexityVisitor  # type: ignore[import-untyped]

SRC = Path(__file__).resolve().parents[1] / "src" / "liarsdice"

MAX_CLASS_LINES = 400
MAX_OWN_FUNCTION_LINES = 80  # not counting the functions and classes nested in it
MAX_FUNCTION_LINES = 150  # counting them
MAX_COMPLEXITY = 20
MAX_ELIF_BRANCHES = 6

#: Places allowed over the rule, each with why (``path: what``, as :func:`problems` names
#: them, the figure left out). Keep it short: a stale entry fails the test too.
EXCEPTIONS: dict[str, str] = {}


@dataclass(frozen=True, slots=True)
class Problem:
    """One place over the rule: ``where`` (``path: qualified name`` or ``path:line``), what
    is measured and its figure."""

    where: str
    what: str
    figure: int

    @property
    def key(self) -> str:
        """The place and measure, without the figure (the key of :data:`EXCEPTIONS`)."""
        return f"{self.where} {self.what}"

    def __str__(self) -> str:
        return f"{self.where} {self.what} {self.figure}"


def _lines(node: ast.AST) -> int:
    first: int = getattr(node, "lineno", 0)
    last: int = getattr(node, "end_lineno", None) or first
    return last - first + 1


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _walk(node: ast.AST, prefix: str = "") -> Iterator[tuple[str, ast.AST]]:
    """Every node with the qualified name of the class or function around it (``A.f``)."""
    for child in ast.iter_child_nodes(node):
        name = prefix
        if isinstance(child, _SCOPES):
            name = f"{prefix}.{child.name}" if prefix else child.name
        yield name, child
        yield from _walk(child, name)


def _outer_scopes(node: ast.AST) -> Iterator[ast.AST]:
    """The functions and classes defined in ``node``, not counting those inside them."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, _SCOPES):
            yield child
        else:
            yield from _outer_scopes(child)


def _own_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    return _lines(node) - sum(_lines(inner) for inner in _outer_scopes(node))


def _chain(node: ast.If) -> list[ast.If]:
    """An ``if`` and its ``elif`` branches."""
    chain = [node]
    while len(chain[-1].orelse) == 1 and isinstance(chain[-1].orelse[0], ast.If):
        chain.append(chain[-1].orelse[0])
    return chain


def _complexities(source: str) -> Iterator[tuple[str, int]]:
    """``(qualified name, cyclomatic complexity)`` of every function and method (radon)."""
    visitor = ComplexityVisitor.from_code(source)

    def each(blocks: list[Any], prefix: str = "") -> Iterator[tuple[str, int]]:
        for block in blocks:
            name = f"{prefix}.{block.name}" if prefix else block.name
            if hasattr(block, "methods"):  # a class
                yield from each(block.methods, name)
                yield from each(getattr(block, "inner_classes", []), name)
            else:
                yield name, block.complexity
                yield from each(block.closures, name)

    yield from each(visitor.functions)
    yield from each(visitor.classes)


def problems(source: str, where: str) -> list[Problem]:
    """Every place of ``source`` (a module at path ``where``) over the rule."""
    out = []
    elifs: set[int] = set()
    for name, node in _walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and _lines(node) > MAX_CLASS_LINES:
            out.append(Problem(f"{where}: {name}", "class lines", _lines(node)))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            own, total = _own_lines(node), _lines(node)
            if own > MAX_OWN_FUNCTION_LINES:
                out.append(Problem(f"{where}: {name}", "own lines", own))
            elif total > MAX_FUNCTION_LINES:
                out.append(Problem(f"{where}: {name}", "lines with nested", total))
        elif isinstance(node, ast.If) and id(node) not in elifs:
            chain = _chain(node)
            elifs.update(id(branch) for branch in chain)
            if len(chain) > MAX_ELIF_BRANCHES:
                out.append(Problem(f"{where}:{node.lineno}", "if/elif branches", len(chain)))
    for name, complexity in _complexities(source):
        if complexity > MAX_COMPLEXITY:
            out.append(Problem(f"{where}: {name}", "complexity", complexity))
    return out


def _modules(src: Path) -> Iterator[tuple[str, Path]]:
    for path in sorted(src.rglob("*.py")):
        rel = path.relative_to(src)
        if "migrations" not in rel.parts:
            yield rel.as_posix(), path


def all_problems(src: Path = SRC) -> list[Problem]:
    """Every place of ``src`` over the rule, exceptions included."""
    return [p for rel, path in _modules(src) for p in problems(path.read_text("utf-8"), rel)]


# ------------------------------------------------------------------------ import circles
def _module_name(src: Path, path: Path) -> str:
    parts = [src.name, *path.relative_to(src).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(tree: ast.Module, package: str, known: set[str]) -> set[str]:
    """The project modules a module imports at its top level (``TYPE_CHECKING`` blocks
    included, imports inside functions not)."""

    def resolve(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    out: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if isinstance(child, ast.Import):
                out.update(filter(None, (resolve(a.name) for a in child.names)))
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    up = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join([*up, base] if base else up)
                for alias in child.names:
                    full = f"{base}.{alias.name}"
                    target = full if full in known else resolve(base)
                    if target:
                        out.add(target)
            visit(child)

    visit(tree)
    return out


def import_graph(src: Path = SRC) -> dict[str, set[str]]:
    """Each module of ``src`` and the modules of ``src`` it imports."""
    paths = {_module_name(src, path): path for _, path in _modules(src)}
    known = set(paths)
    graph = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        graph[name] = _imports(ast.parse(path.read_text("utf-8")), package, known) - {name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: each set of two or more modules that reach one another (Tarjan's
    strongly connected components), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return sorted(found)


# ------------------------------------------------------------------------------ the command
def census(found: list[Problem]) -> dict[str, int]:
    """How many places break each measure."""
    out: dict[str, int] = {}
    for p in found:
        out[p.what] = out.get(p.what, 0) + 1
    return out


def main(argv: list[str]) -> int:
    found = all_problems()
    loops = circles(import_graph())
    if "--census" in argv:
        print(f"over the rule, by measure: {census(found)}; import circles: {len(loops)}")
    bad = [p for p in found if p.key not in EXCEPTIONS]
    for p in bad:
        print(f"src/liarsdice/{p}", file=sys.stderr)
    for loop in loops:
        print("import circle: " + " -> ".join(loop), file=sys.stderr)
    stale = set(EXCEPTIONS) - {p.key for p in found}
    for key in sorted(stale):
        print(f"stale exception (no longer needed): {key}", file=sys.stderr)
    return 1 if bad or loops or stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
