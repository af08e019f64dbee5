"""Every public function and class has a numpydoc docstring with its parameters and returns.

The public API is :data:`wizsim.public_api.PUBLIC` (the names the docs' API
reference documents). For each function, and for each class and each public
method or property the class defines in wizsim, the docstring must parse as
numpydoc without a warning (``numpydoc.docscrape``) and pass
``numpydoc.validate.validate`` on the error codes of :data:`CHECKED`: a
docstring at all, a summary, known sections in order, every parameter of the
signature documented and no documented one absent from it (``*args`` and
``**kwargs`` as such; ``nrows, ncols`` may share an entry), and a Returns (or
Yields) section when the function returns (or yields) something.
"""

from __future__ import annotations

import importlib
import inspect
import warnings
from typing import Any

import pytest

from wizsim.public_api import PUBLIC

numpydoc = pytest.importorskip("numpydoc")
from numpydoc.docscrape import ClassDoc, FunctionDoc  # noqa: E402
from numpydoc.validate import validate  # noqa: E402

CHECKED = {
    "GL06": "unknown section",
    "GL07": "sections in the wrong order",
    "GL08": "no docstring",
    "SS01": "no summary",
    "PR01": "a parameter of the signature is not documented",
    "PR02": "a documented parameter is not in the signature",
    "RT01": "no Returns section",
    "YD01": "no Yields section",
}

# The names that need an optional extra: skipped (not failed) where it is not installed.
NEEDS = {"wizsim.env.WizardEnv": "pettingzoo", "wizsim.env.agent": "pettingzoo", "wizsim.env.openspiel": "pyspiel"}


def _load(dotted: str) -> Any:
    for prefix, module in NEEDS.items():
        if dotted == prefix or dotted.startswith(prefix + "."):
            pytest.importorskip(module)
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


def _members(cls: type, dotted: str) -> list[str]:
    """The public methods and properties ``cls`` itself defines in wizsim (not those it inherits)."""
    out = []
    for name, raw in vars(cls).items():
        if name.startswith("_"):
            continue
        fn = raw.__func__ if isinstance(raw, (classmethod, staticmethod)) else raw
        fn = fn.fget if isinstance(fn, property) else fn
        if inspect.isfunction(fn) and fn.__module__.startswith("wizsim"):
            out.append(f"{dotted}.{name}")
    return out


def _targets() -> list[str]:
    out = []
    for dotted in PUBLIC:
        out.append(dotted)
        try:
            obj = _load(dotted)
        except pytest.skip.Exception:
            continue
        if inspect.isclass(obj):
            out += _members(obj, dotted)
    return out


def test_public_names_exist() -> None:
    assert len(PUBLIC) == len(set(PUBLIC)), "PUBLIC lists a name twice"
    import wizsim

    for name in wizsim.__all__:
        obj = getattr(wizsim, name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            assert f"wizsim.{name}" in PUBLIC, f"wizsim.{name} is in wizsim.__all__ but not in PUBLIC"
    for dotted in PUBLIC:
        obj = _load(dotted)
        assert inspect.isclass(obj) or callable(obj), f"{dotted} is neither a function nor a class"


def _parsed(dotted: str) -> None:
    """Parse the docstring as numpydoc; any warning of the parser (an unknown section...) is an error."""
    *owner, name = dotted.split(".")
    obj = _load(dotted) if dotted in PUBLIC else getattr(_load(".".join(owner)), name)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        if inspect.isclass(obj):
            ClassDoc(obj)
        elif isinstance(obj, property) or inspect.isfunction(obj) or inspect.ismethod(obj):
            FunctionDoc(obj.fget if isinstance(obj, property) else obj)
        else:
            FunctionDoc(obj)


@pytest.mark.parametrize("dotted", _targets())
def test_numpydoc_docstring(dotted: str) -> None:
    _parsed(dotted)
    errors = [f"{code} {msg}" for code, msg in validate(dotted)["errors"] if code in CHECKED]
    assert not errors, f"{dotted}: " + "; ".join(errors)
