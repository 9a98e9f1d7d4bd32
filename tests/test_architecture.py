"""The package's shape, read from its sources: no import circles, and imports only go down the layers.

Every ``import`` counts, at the top of a module, inside a function or under
``TYPE_CHECKING``: an import made late still ties two modules together. The layers are
``core`` < ``games`` < ``harness`` < ``analysis`` < ``cli``, ``web``, ``adapters``; a module
imports only from its own layer or below. The registry's discovery of the games (and of
the external-program agents) goes by module name through ``importlib``, which is the one
way up and is no import statement.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "snakelab"

LAYERS = {"core": 0, "games": 1, "harness": 2, "analysis": 3, "cli": 4, "web": 4, "adapters": 4}
"""Each subpackage's layer: a module may import from its own layer and the ones below."""

DISCOVERY = {("snakelab.core.registry", "snakelab.games")}
"""The one import up the layers: the registry walks the ``games`` package to find each game."""

CIRCLE_CHECKED = (PACKAGE,)
"""The packages whose modules must not import each other in a circle: all of them."""


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted((SRC / PACKAGE).rglob("*.py"))}


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The project's modules that ``name`` imports anywhere in its source (a package counts as its ``__init__``)."""
    is_package = path.name == "__init__.py"
    here = name if is_package else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            # ``from pkg import mod`` imports the module; ``from mod import name`` the module.
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name and t.startswith(PACKAGE):
                out.add(t)
    return out


@functools.cache
def _graph() -> dict[str, set[str]]:
    mods = _modules()
    known = set(mods)
    return {name: _imports(name, path, known) for name, path in mods.items()}


def _layer(name: str) -> int | None:
    parts = name.split(".")
    return LAYERS.get(parts[1]) if len(parts) > 1 else None


def _circles(graph: dict[str, set[str]], keep: tuple[str, ...]) -> list[list[str]]:
    """Strongly connected groups of more than one module among the modules under ``keep`` (Tarjan)."""
    nodes = [n for n in graph if n.startswith(keep)]
    inside = set(nodes)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v] & inside:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for n in nodes:
        if n not in index:
            visit(n)
    return found


def _is_face(name: str) -> bool:
    """A package's ``__init__`` that only hands names on (its imports are the package's own modules)."""
    return (SRC / Path(*name.split(".")) / "__init__.py").exists()


def test_the_import_graph_is_read_from_the_sources():
    graph = _graph()
    # Imports inside functions count: the CLI reaches the games only inside its commands.
    assert "snakelab.games.arena.config" in graph["snakelab.cli.arena"]
    assert "snakelab.core.registry" in graph["snakelab.games.arena.rules"]
    assert len(graph) > 100


def test_no_import_circles():
    graph = _graph()
    # A package's face imports its modules, and its modules import their siblings through
    # it only by name: the edge from a module up to its own package's face is no circle.
    trimmed = {n: {t for t in ts if not (_is_face(t) and n.startswith(t + "."))} for n, ts in graph.items()}
    assert _circles(trimmed, CIRCLE_CHECKED) == []


def test_a_planted_circle_is_found():
    graph = {"snakelab.core.a": {"snakelab.core.b"}, "snakelab.core.b": {"snakelab.core.a"}, "snakelab.core.c": set()}
    assert _circles(graph, ("snakelab.core",)) == [["snakelab.core.a", "snakelab.core.b"]]


@pytest.mark.parametrize("sub", sorted(LAYERS))
def test_imports_only_go_down_the_layers(sub):
    graph = _graph()
    wrong = [
        f"{name} -> {target}"
        for name, targets in graph.items()
        if name.startswith(f"{PACKAGE}.{sub}.") or name == f"{PACKAGE}.{sub}"
        for target in targets
        if (_layer(target) or 0) > LAYERS[sub] and (name, target) not in DISCOVERY
    ]
    assert wrong == []


def test_every_subpackage_has_a_layer():
    subs = {p.name for p in (SRC / PACKAGE).iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert subs <= set(LAYERS), subs - set(LAYERS)
