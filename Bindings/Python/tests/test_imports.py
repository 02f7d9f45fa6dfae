"""The package's modules import one another one way only: every import of the package's own modules
at the top of a module, and no module importing one that imports it back (directly or through
others). A cycle that works today only because of where an import sits breaks with the next import
added; these checks catch it when it comes in. An import under `if TYPE_CHECKING:` names types for
annotations, never runs, and is not counted. No emulator, no network."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Set

import pytest

import msal_native_auth as m

PACKAGE = Path(m.__file__).parent
MODULES = sorted(path.stem for path in PACKAGE.glob("*.py"))


class Import:
    """An import of one of the package's modules: which, on which line, and whether at the top level."""

    def __init__(self, target: str, line: int, top: bool) -> None:
        self.target, self.line, self.top = target, line, top


def imports(module: str) -> List[Import]:
    """Every import of the package's own modules in ``module``, at any depth."""
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    top = {id(node) for node in tree.body}
    # Imports under a top-level `if TYPE_CHECKING:` name types for annotations and never run.
    annotations_only = {
        id(inner)
        for node in tree.body
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
        for inner in ast.walk(node)
    }
    found: List[Import] = []
    for node in ast.walk(tree):
        if id(node) in annotations_only:
            continue
        names: List[str] = []
        if isinstance(node, ast.ImportFrom) and node.level == 1:  # from . import x, from .x import y
            names = [alias.name for alias in node.names] if node.module is None else [node.module.split(".")[0]]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "msal_native_auth":
            parts = (node.module or "").split(".")
            names = [parts[1]] if len(parts) > 1 else [alias.name for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [(alias.name.split(".") + ["__init__"])[1] for alias in node.names if alias.name.split(".")[0] == "msal_native_auth"]
        # A name that is not a module (from . import x, x defined in __init__.py) is an import of the package.
        found += [Import(name if name in MODULES else "__init__", node.lineno, id(node) in top) for name in names]
    return found


def cycles(graph: Dict[str, Set[str]]) -> List[List[str]]:
    """The import cycles of ``graph`` (module: the modules it imports), each as a path back to its start."""
    found: List[List[str]] = []
    done: Set[str] = set()

    def visit(module: str, path: List[str]) -> None:
        for target in sorted(graph.get(module, set())):
            if target in path:
                found.append(path[path.index(target) :] + [target])
            elif target not in done:
                visit(target, path + [target])
        done.add(module)

    for module in sorted(graph):
        if module not in done:
            visit(module, [module])
    return found


def test_the_cycle_check_finds_cycles() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []
    assert cycles({"client": {"accounts"}, "accounts": {"client"}}) == [["accounts", "client", "accounts"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]


def test_the_package_has_the_modules_this_test_reads() -> None:
    assert {"__init__", "client", "results", "_calls", "accounts", "browser", "options"} <= set(MODULES)


def test_every_import_of_the_package_is_at_the_top_of_its_module() -> None:
    nested = [f"{module}.py:{found.line}" for module in MODULES for found in imports(module) if not found.top]
    assert nested == [], "imports of the package inside a function, class or condition"


def test_no_module_imports_one_that_imports_it_back() -> None:
    graph = {module: {found.target for found in imports(module)} - {module} for module in MODULES}
    assert cycles(graph) == []


@pytest.mark.parametrize("module", [module for module in MODULES if module not in ("__init__", "__main__")])
def test_each_module_imports_alone_in_a_fresh_interpreter(module: str) -> None:
    completed = subprocess.run(
        [sys.executable, "-c", f"import msal_native_auth.{module}"], capture_output=True, text=True, timeout=60, cwd=PACKAGE.parent
    )
    assert completed.returncode == 0, completed.stderr
