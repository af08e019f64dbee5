"""The engine's named bundles: the docs list each one's fields as the code defines them, and no engine code reads
a bundle by position."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from wizsim.engine import bundles

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "wizsim" / "engine"


def _documented() -> dict[str, list[str]]:
    """The bundle table of docs/architecture.md: name -> fields."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    rows = re.findall(r"^\| `(\w+)` \| ([^|]+) \|$", text, re.M)
    return {name: [f.strip() for f in fields.split(",")] for name, fields in rows}


def test_the_docs_list_every_bundle_with_its_fields_in_order():
    documented = _documented()
    defined = {b.__name__: list(b._fields) for b in bundles.BUNDLES}
    assert documented == defined


def test_every_named_tuple_of_the_engine_is_a_listed_bundle():
    """A bundle defined elsewhere would escape the docs check above."""
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "namedtuple":
                found.append((path.name, node.args[0].value))
    assert found and all(name == "bundles.py" for name, _ in found), found
    assert sorted(n for _, n in found) == sorted(b.__name__ for b in bundles.BUNDLES)


# the names the engine gives its bundles (``acc`` is also learned.py's array of hidden sums: checked in run.py only)
BUNDLE_NAMES = {"tables", "seats", "ws", "pre", "models", "feats", "view", "net", "rec", "trick", "turn", "snaps"}


def test_no_engine_code_reads_a_bundle_by_integer_index():
    offenders = []
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text())
        names = BUNDLE_NAMES | ({"acc"} if path.name == "run.py" else set())
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Subscript)
                and isinstance(node.value, ast.Name)
                and node.value.id in names
                and isinstance(node.slice, ast.Constant)
                and isinstance(node.slice.value, int)
            ):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value.id}[{node.slice.value}]")
    assert not offenders, offenders
