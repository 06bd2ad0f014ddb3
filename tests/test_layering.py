"""The package's layering: the engine loads no third-party package, and no modules import each other in a circle.

Import cycles are found from the source: every module-level ``import`` of a
``tabla_cli`` module (imports under ``if TYPE_CHECKING:`` never run and do
not count). Importing ``a.b.c`` also runs the ``__init__`` of ``a.b``, so
that is an edge too, except towards the importing module's own packages.
No module-level circle is allowed. Imports deferred into functions are
allowed, but a circle through them is a layering fault too, and none is
allowed either; a registry that imports its package's modules by name
(``importlib.import_module(f"tabla_cli.formats.{name}")``) is taken to
import every module of that package. Counting the type-only imports too,
the one circle is the variants' (a variant's written notation names the
variant class it serves).
"""

from __future__ import annotations

import ast
import functools
import subprocess
import sys
from pathlib import Path

import pytest

import helpers

PACKAGE = helpers.ROOT / "tabla_cli"

ENGINE = ["tabla_cli.board", "tabla_cli.variant", "tabla_cli.notation", "tabla_cli.variants"]
HEAVY = ["lark", "pandas", "click"]


def module_names() -> dict[str, Path]:
    """Every module of the package, by dotted name."""
    names = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names[".".join(parts)] = path
    return names


def _runtime_imports(
    body: list[ast.stmt], deferred: bool, type_only: bool = False
) -> list[ast.Import | ast.ImportFrom]:
    """The import statements that run when the module is imported (``deferred``: or a function is called;
    ``type_only``: with those under ``if TYPE_CHECKING:``)."""
    if type_only:
        return [node for node in ast.walk(ast.Module(body, [])) if isinstance(node, (ast.Import, ast.ImportFrom))]
    found: list[ast.Import | ast.ImportFrom] = []
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif isinstance(node, ast.If):
            if not (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"):
                found += _runtime_imports(node.body, deferred)
            found += _runtime_imports(node.orelse, deferred)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody, *(h.body for h in node.handlers)):
                found += _runtime_imports(block, deferred)
        elif isinstance(node, ast.ClassDef) or (deferred and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))):
            found += _runtime_imports(node.body, deferred)
        elif deferred and isinstance(node, (ast.With, ast.For, ast.While)):
            found += _runtime_imports(node.body, deferred)
    return found


def _targets(module: str, is_package: bool, node: ast.Import | ast.ImportFrom, known: set[str]) -> set[str]:
    """The package modules one import statement loads."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names}
    base = node.module or ""
    if node.level:
        anchor = module.split(".")
        anchor = anchor if is_package else anchor[:-1]
        anchor = anchor[: len(anchor) - node.level + 1]
        base = ".".join(anchor + ([base] if base else []))
    return {base} | {f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in known}


def _registry_imports(tree: ast.Module, known: set[str]) -> set[str]:
    """The package modules ``importlib.import_module`` calls may load: for a name built as
    ``f"tabla_cli.pkg.{...}"``, every module of ``tabla_cli.pkg``."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        func = node.func
        if (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)) != "import_module":
            continue
        name = node.args[0]
        if isinstance(name, ast.Constant) and name.value in known:
            found.add(name.value)
        elif isinstance(name, ast.JoinedStr) and name.values and isinstance(name.values[0], ast.Constant):
            prefix = str(name.values[0].value)
            found |= {m for m in known if m.startswith(prefix) and "." not in m[len(prefix) :]}
    return found


def import_graph(*, deferred: bool = False, type_only: bool = False) -> dict[str, set[str]]:
    """Module -> the package modules it loads at import time (``deferred``: or later, in a function,
    registries included; ``type_only``: or only for the type checker)."""
    modules = module_names()
    known = set(modules)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        own = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 2)}
        tree = ast.parse(path.read_text(encoding="utf-8"))
        targets: set[str] = set()
        for node in _runtime_imports(tree.body, deferred or type_only, type_only):
            targets |= _targets(name, path.name == "__init__.py", node, known)
        if deferred or type_only:
            targets |= _registry_imports(tree, known)
        edges: set[str] = set()
        for target in targets:
            parts = target.split(".")
            loaded = {".".join(parts[:i]) for i in range(1, len(parts) + 1)}
            edges |= {m for m in loaded if m in known and m not in own}
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = set()
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.add(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycles() -> None:
    assert [sorted(c) for c in cycles(import_graph())] == []


def test_no_cycles_through_deferred_imports() -> None:
    assert [sorted(c) for c in cycles(import_graph(deferred=True))] == []


def test_the_one_circle_of_type_only_imports_is_the_variants() -> None:
    assert [sorted(c) for c in cycles(import_graph(type_only=True))] == [
        ["tabla_cli.variants.common", "tabla_cli.variants.position_text", "tabla_cli.variants.written"]
    ]


def test_cycle_finder_sees_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [frozenset({"a", "b", "c"})]


def test_graph_ignores_type_checking_and_function_imports() -> None:
    graph = import_graph()
    assert "tabla_cli.variants.common" not in graph["tabla_cli.variants.written"]
    assert "tabla_cli.reader" not in graph["tabla_cli"]
    assert "tabla_cli.variants" in graph["tabla_cli.variant"]
    assert "tabla_cli.reader" in import_graph(deferred=True)["tabla_cli"]
    assert "tabla_cli.variants.common" in import_graph(type_only=True)["tabla_cli.variants.written"]


def test_graph_sees_what_a_registry_imports_by_name() -> None:
    assert "tabla_cli.formats.mat" not in import_graph()["tabla_cli.formats"]
    assert {"tabla_cli.formats.mat", "tabla_cli.formats.xg"} <= import_graph(deferred=True)["tabla_cli.formats"]
    assert "tabla_cli.writers.sgf" in import_graph(deferred=True)["tabla_cli.writers"]


@pytest.mark.parametrize("module", ENGINE)
def test_engine_loads_no_third_party_package(module: str) -> None:
    code = f"import sys, {module}; print(sorted(name for name in {HEAVY!r} if name in sys.modules))"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=PACKAGE.parent
    )
    assert result.stdout.strip() == "[]"


def test_package_reader_loads_on_first_use() -> None:
    code = (
        "import sys, tabla_cli; assert 'tabla_cli.reader' not in sys.modules;"
        "f = tabla_cli.read_match; print('tabla_cli.reader' in sys.modules, f.__module__)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=PACKAGE.parent
    )
    assert result.stdout.split() == ["True", "tabla_cli.reader"]


def _package(module: str) -> str:
    """The top-level part of the package a module belongs to (``tabla_cli.formats.mat`` -> ``formats``)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


UNDER_THE_PIPELINE = {
    "board",
    "cube",
    "match_state",
    "errors",
    "findings",
    "variant",
    "variants",
    "notation",
    "scoring",
    "written",
    "evaluation",
    "ids",
    "model",
    "formats",
    "writers",
    "replay",
    "results",
    "visitor",
    "digest",
    "reader",
}
"""What a transcript is and what the replay makes of it: none of these reaches up to a command's library."""

ABOVE = {"pipeline", "check", "convert", "analysis", "reports", "cli"}

LAYERS = [
    ("evaluation", {"board", "errors", "evaluation"}),
    ("analysis", ABOVE - {"reports", "cli"} | UNDER_THE_PIPELINE | {"source", "columns", "cluster"}),
]
"""A package and every package its modules may import (at import time or in a function)."""


@pytest.mark.parametrize("package", sorted(UNDER_THE_PIPELINE))
def test_the_model_and_its_readers_and_writers_import_no_command(package: str) -> None:
    graph = import_graph(deferred=True)
    upward = {
        f"{m} -> {t}" for m, targets in graph.items() if _package(m) == package for t in targets if _package(t) in ABOVE
    }
    assert upward == set()


@pytest.mark.parametrize(("package", "allowed"), LAYERS, ids=[p for p, _ in LAYERS])
def test_a_package_imports_only_what_lies_under_it(package: str, allowed: set[str]) -> None:
    graph = import_graph(deferred=True)
    found = {_package(t) for m, targets in graph.items() if _package(m) == package for t in targets} - {""}
    assert found <= allowed, sorted(found - allowed)


def test_only_the_cli_imports_the_cli() -> None:
    graph = import_graph(deferred=True)
    assert {
        m
        for m, targets in graph.items()
        if _package(m) not in ("cli", "__main__") and any(_package(t) == "cli" for t in targets)
    } == set()


def test_reports_and_analysis_sit_over_the_pipeline() -> None:
    graph = import_graph(deferred=True)
    assert not any(_package(t) == "reports" for m, ts in graph.items() if _package(m) == "analysis" for t in ts)
    assert any(_package(t) == "pipeline" for m, ts in graph.items() if _package(m) == "analysis" for t in ts)


READERS_NEVER_REACH = {"replay", "results", "visitor", "scoring", "writers", "reader", "digest"}
"""What the readers (``formats/``) never import: they say what a file writes, and the replay alone makes
game state of it (the cube and score a ``DA`` is read at, the scoring rule set a name means)."""


def test_the_readers_never_replay() -> None:
    graph = import_graph(deferred=True)
    reached = {
        f"{m} -> {t}"
        for m, targets in graph.items()
        if _package(m) == "formats"
        for t in targets
        if _package(t) in READERS_NEVER_REACH
    }
    assert reached == set()


PAGE_LAYERS: list[tuple[str, set[str]]] = [
    ("vocabulary", {"errors", "findings", "words"}),
    ("engine", {"board", "variant", "variants", "notation", "position_key", "ids", "render", "svg"}),
    (
        "model",
        {"model", "formats", "files", "grammar", "pasted", "evaluation", "written", "signatures", "output", "columns"},
    ),
    ("replay", {"replay", "cube", "match_state", "results", "scoring", "visitor"}),
    ("visitors", {"writers", "digest", "reports.rows", "reports.schema", "analysis.decisions"}),
    ("pipeline", {"pipeline", "reader", "check", "convert", "source", "parallel", "cluster", "mirror"}),
    ("applications", {"reports", "analysis", "analyse", "show", "study"}),
    ("command line", {"cli", "__main__"}),
]
"""The layers of docs/architecture.md from the bottom up, each with the modules and packages (under
``tabla_cli``) it holds; the most specific name places a module (``reports.rows`` is a visitor, the rest of
``reports`` an application). ``visitor`` (the protocol the replay calls) sits with the replay; the errors,
the finding codes and the words of messages are a vocabulary under every layer (the engine's variants name
their findings' codes with it)."""


@functools.cache
def _graph(deferred: bool) -> dict[str, set[str]]:
    return import_graph(deferred=deferred)


def page_layer(module: str) -> int:
    """The index in :data:`PAGE_LAYERS` of the layer that holds ``module`` (``tabla_cli.formats.mat``)."""
    parts = module.split(".")[1:]
    best: tuple[int, int] | None = None
    for index, (_, names) in enumerate(PAGE_LAYERS):
        for name in names:
            prefix = name.split(".")
            if parts[: len(prefix)] == prefix and (best is None or len(prefix) > best[1]):
                best = (index, len(prefix))
    if best is None:
        raise LookupError(f"{module} is in no layer of docs/architecture.md")
    return best[0]


def test_every_module_has_a_layer_on_the_page() -> None:
    page = (helpers.ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    for module in _graph(False):
        if module != "tabla_cli":
            page_layer(module)
    named = {name.replace(".", "/") for _, names in PAGE_LAYERS for name in names} - {"__main__"}
    assert {name for name in named if f"`{name}`" not in page and f"`{name}/`" not in page} == set()


@pytest.mark.parametrize("deferred", [False, True], ids=["module-level", "deferred"])
def test_no_import_runs_up_the_layers_of_the_page(deferred: bool) -> None:
    upward = {
        f"{m} -> {t}"
        for m, targets in _graph(deferred).items()
        if m != "tabla_cli"
        for t in targets
        if t != "tabla_cli" and page_layer(t) > page_layer(m)
    }
    assert upward == set()


def test_the_layer_finder_sees_an_arrow_up() -> None:
    assert page_layer("tabla_cli.formats.mat") < page_layer("tabla_cli.replay") < page_layer("tabla_cli.writers.sgf")
    assert page_layer("tabla_cli.reports.rows") < page_layer("tabla_cli.pipeline") < page_layer("tabla_cli.reports")
    with pytest.raises(LookupError):
        page_layer("tabla_cli.nowhere")


def _third_party(module: str) -> set[str]:
    """The top-level names of what ``module`` imports from outside the package (in a function too)."""
    path = module_names()[module]
    found: set[str] = set()
    for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8")).body, deferred=True):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif not node.level and node.module:
            found.add(node.module.split(".")[0])
    return found - {"tabla_cli"}


def test_nothing_under_the_pipeline_imports_dask_or_click() -> None:
    pipeline = [name for name, _ in PAGE_LAYERS].index("pipeline")
    reached = {
        f"{m} -> {lib}"
        for m in _graph(True)
        if m != "tabla_cli" and page_layer(m) < pipeline
        for lib in _third_party(m) & {"dask", "distributed", "click"}
    }
    assert reached == set()
