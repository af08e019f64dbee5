"""The package's import graph: no import circles, no private names imported across modules.

The graph is read from the source (``ast``) of every ``wizsim/**/*.py``,
counting every import: at the top of a module, inside functions (lazy ones)
and under ``if TYPE_CHECKING``. ``from . import x`` goes to the submodule
``x`` when there is one, else to the package's ``__init__``.

Private names (``_x``, not ``__x__``; modules too) may be imported only
within the Numba kernel layer, the ``wizsim.engine`` package.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "wizsim"
KERNEL_LAYER = ("wizsim.engine",)


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _in_kernel_layer(module: str) -> bool:
    return any(module == k or module.startswith(k + ".") for k in KERNEL_LAYER)


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def import_graph() -> tuple[dict[str, set[str]], list[str]]:
    """(module -> the wizsim modules it imports, private imports that cross modules as 'a: from b import _c')."""
    modules = _modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    private: list[str] = []
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in modules:
                        graph[name].add(alias.name)
                    crossing = not (_in_kernel_layer(name) and _in_kernel_layer(alias.name))
                    if alias.name.startswith("wizsim.") and crossing and any(map(_is_private, alias.name.split("."))):
                        private.append(f"{name}: import {alias.name}")
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    target = ".".join([*base, node.module] if node.module else base)
                else:
                    target = node.module or ""
                if target not in modules:
                    continue
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    graph[name].add(sub if sub in modules else target)
                    crossing = not (_in_kernel_layer(name) and _in_kernel_layer(target))
                    if crossing and (_is_private(alias.name) or any(map(_is_private, target.split(".")))):
                        private.append(f"{name}: from {target} import {alias.name}")
        graph[name].discard(name)
    return graph, private


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle (``[a, b, ..., a]``), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_graph_is_read():
    graph, _ = import_graph()
    assert "wizsim.run.spec" in graph["wizsim.run.simulate"]
    assert "wizsim.run.parallel" in graph["wizsim.tools.tournament"]  # a lazy import counts
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_circles():
    graph, _ = import_graph()
    cycle = find_cycle(graph)
    assert cycle is None, "import circle: " + " -> ".join(cycle)


def test_no_private_names_imported_across_modules():
    _, private = import_graph()
    assert private == [], "private names imported across modules:\n" + "\n".join(private)
