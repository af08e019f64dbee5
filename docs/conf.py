"""Sphinx configuration of wizsim's documentation site.

Build it offline with ``pip install -e ".[docs]"`` and
``python -m sphinx -b html docs docs/_build/html`` (README, "Documentation").
The API reference is generated from :data:`wizsim.public_api.PUBLIC`, the
command line from :func:`wizsim.cli.build_parser`, the rules page from
``../shared/RULES.md`` when the checkout has it beside it, and the gallery
from ``docs/examples/plot_*.py`` (sphinx-gallery runs each one).
"""

from __future__ import annotations

import os
from pathlib import Path

import wizsim
from wizsim.public_api import PUBLIC

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
GENERATED = DOCS / "_generated"

project = "wizsim"
author = "the wizsim developers"
copyright = "2026, the wizsim developers"  # noqa: A001 (Sphinx's name)
release = version = wizsim.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.intersphinx",
    "sphinx.ext.mathjax",
    "numpydoc",
    "sphinxarg.ext",
    "sphinx_gallery.gen_gallery",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "examples/README.md", "auto_examples/*.ipynb", "auto_examples/*.py"]
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]
suppress_warnings = ["myst.xref_missing", "myst.header"]  # the Markdown pages link files of the repository too

# numpydoc: no autosummary tables of members (the reference lists them itself)
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
autodoc_typehints = "none"  # the docstrings say the types
autodoc_member_order = "bysource"
intersphinx_mapping: dict = {}  # offline: no inventories fetched

html_theme = "pydata_sphinx_theme"
html_title = f"wizsim {release}"
html_theme_options = {"navigation_with_keys": False, "show_toc_level": 2}
html_last_updated_fmt = None

sphinx_gallery_conf = {
    "examples_dirs": "examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "download_all_examples": True,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "image_scrapers": ("matplotlib",),
    "matplotlib_animations": False,
    "reset_modules": ("matplotlib",),
    "show_memory": False,
    "min_reported_time": 1,
}
if os.environ.get("WIZSIM_EXAMPLES") == "off":  # a quick build of the pages without running the gallery
    sphinx_gallery_conf["plot_gallery"] = "False"


def _write(path: Path, text: str) -> None:
    """Write a generated page only when it changed (Sphinx rebuilds what changed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def _api_page() -> str:
    """The API reference: every name of wizsim.public_api.PUBLIC, grouped by module, from its docstring."""
    import importlib
    import inspect

    lines = [
        "API reference",
        "=============",
        "",
        "The public API (:mod:`wizsim.public_api` lists it; a test checks each docstring has its",
        "parameters and returns). Everything else is internal and may change.",
        "",
    ]
    by_module: dict[str, list[str]] = {}
    for dotted in PUBLIC:
        module, _, name = dotted.rpartition(".")
        by_module.setdefault(module, []).append(name)
    for module, names in by_module.items():
        lines += [f"``{module}``", "-" * (len(module) + 4), "", f".. currentmodule:: {module}", ""]
        for name in names:
            obj = getattr(importlib.import_module(module), name)
            kind = "autoclass" if inspect.isclass(obj) else "autofunction"
            lines += [f".. {kind}:: {name}", ""]
            if kind == "autoclass":
                lines += ["   :members:", ""]
    return "\n".join(lines)


def _rules_page() -> str:
    rules = ROOT.parent / "shared" / "RULES.md"
    if rules.is_file():  # rendered as it is: the specification, not a copy kept in this repository
        return rules.read_text(encoding="utf-8")
    return (
        "# The rules\n\nThis build had no `../shared/RULES.md` beside the checkout: the rules wizsim implements are"
        " that file (the project's specification); the choices where it is silent are in"
        " [the choices](../decisions.md).\n"
    )


GENERATED.mkdir(exist_ok=True)
_write(GENERATED / "api.rst", _api_page())
_write(GENERATED / "rules.md", _rules_page())
