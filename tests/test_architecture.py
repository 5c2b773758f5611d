"""The layers of docs/architecture.md: every module imports, none imports a higher layer, no import cycle.

Imports are read from the source (``ast``), those inside functions and ``if TYPE_CHECKING``
blocks included, so a late import cannot hide a wrong direction or a cycle. Modules are
found by walking the package's directories: a module that becomes a package (as
``kernel/dd.py`` → ``kernel/dd/``) is checked the same way.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "wiezen_sim"

# (layer, the modules it holds: a dotted prefix covers a package and everything below it);
# lowest first, as in docs/architecture.md. A module may import its own layer and lower ones.
LAYERS = [
    (
        "notation",
        ("wiezen_sim.cards", "wiezen_sim.vocabulary", "wiezen_sim.paths", "wiezen_sim.pbn", "wiezen_sim.defaults"),
    ),
    ("rules", ("wiezen_sim.rules",)),
    ("kernel", ("wiezen_sim.kernel",)),
    ("solvers", ("wiezen_sim.solvers",)),
    ("parallel", ("wiezen_sim.parallel", "wiezen_sim.stops")),
    ("analysis", ("wiezen_sim.analysis",)),
    ("web", ("wiezen_sim.web",)),
    ("cli", ("wiezen_sim.cli",)),
    ("facade", ()),  # wiezen_sim/__init__.py: the package's top-level names
]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer_of(module: str) -> int:
    """Index in LAYERS of the module's layer (ValueError for a module outside every layer)."""
    if module == "wiezen_sim":
        return len(LAYERS) - 1
    for i, (_, prefixes) in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return i
    raise ValueError(f"{module} is in no layer: add it to docs/architecture.md and LAYERS")


def imports_of(module: str, source: str, is_package: bool = False) -> set[str]:
    """The package's modules that ``module`` imports anywhere in ``source`` (its text)."""
    package = module if is_package else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # a relative import
                parts = package.split(".")
                base = ".".join([*parts[: len(parts) - node.level + 1], *([base] if base else [])])
            # `from package import module` imports the module; `from module import name` the module
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        else:
            continue
        for target in targets:
            while target.count(".") and target not in MODULES:  # `import wiezen_sim.x.y` of a name in a module
                target = target.rpartition(".")[0]
            if target.split(".")[0] == "wiezen_sim" and target != module:
                found.add(target)
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``graph`` (module → imported modules): strongly connected components
    of two or more modules (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(m: str) -> None:
        index[m] = low[m] = len(index)
        stack.append(m)
        for t in sorted(graph.get(m, ())):
            if t not in index:
                visit(t)
                low[m] = min(low[m], low[t])
            elif t in stack:
                low[m] = min(low[m], index[t])
        if low[m] == index[m]:
            component = []
            while True:
                t = stack.pop()
                component.append(t)
                if t == m:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for m in sorted(graph):
        if m not in index:
            visit(m)
    return found


GRAPH = {m: imports_of(m, p.read_text(encoding="utf-8"), p.name == "__init__.py") for m, p in MODULES.items()}


def test_every_module_is_in_a_layer_and_the_layers_exist():
    for module in MODULES:
        layer_of(module)
    for name, prefixes in LAYERS:
        for prefix in prefixes:
            assert any(m == prefix or m.startswith(prefix + ".") for m in MODULES), (name, prefix)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_module_imports(module):
    importlib.import_module(module)


def test_no_module_imports_a_higher_layer():
    wrong = [
        f"{m} ({LAYERS[layer_of(m)][0]}) imports {t} ({LAYERS[layer_of(t)][0]})"
        for m, targets in GRAPH.items()
        for t in sorted(targets)
        if layer_of(t) > layer_of(m)
    ]
    assert not wrong, "\n".join(wrong)


def test_no_import_cycle():
    """No two modules import each other, directly or through others."""
    assert not cycles(GRAPH)


def test_the_checks_would_see_a_late_import_and_a_cycle():
    """Imports inside functions, relative imports and `import a.b` are read; a cycle is found."""
    source = (
        "import numpy\n"
        "import wiezen_sim.cards\n"
        "def f():\n"
        "    from wiezen_sim.analysis.advise import report\n"
        "    from . import stats\n"
        "    from ..rules.contracts import succeeded\n"
    )
    assert imports_of("wiezen_sim.analysis.x", source) == {
        "wiezen_sim.cards",
        "wiezen_sim.analysis.advise.report",
        "wiezen_sim.analysis.stats",
        "wiezen_sim.rules.contracts",
    }
    # the advisor's two modules of old imported each other (inside functions)
    assert cycles({"advise": {"advise_play", "stats"}, "advise_play": {"advise"}, "stats": set()}) == [
        ["advise", "advise_play"]
    ]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert layer_of("wiezen_sim.kernel.dd") == 2 and layer_of("wiezen_sim") == len(LAYERS) - 1
    with pytest.raises(ValueError, match="in no layer"):
        layer_of("wiezen_sim.somewhere")


MAX_LINES = 800  # issue 20: one room for each idea


def test_no_module_is_over_800_lines():
    """A module past 800 lines holds more than one idea: split it along its seams."""
    long = {m: n for m, p in MODULES.items() if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def test_top_level_names_are_imported_on_first_use():
    """``import wiezen_sim`` loads no analysis module (the facade and ``analysis.advise`` are lazy), so the
    command line and a worker process import only what they use: a worker running the advisor's batches
    (``DealBatch``) imports no pandas. ``from wiezen_sim import advise`` still works."""
    code = (
        "import sys\n"
        "import wiezen_sim\n"
        "assert not [m for m in sys.modules if m.startswith('wiezen_sim.')], sorted(sys.modules)\n"
        "from wiezen_sim.analysis.advise.play import DealBatch\n"
        "import wiezen_sim.parallel\n"
        "assert 'pandas' not in sys.modules and 'wiezen_sim.analysis.advise.recommend' not in sys.modules\n"
        "from wiezen_sim import advise, play_deal, simulate_sessions\n"
        "from wiezen_sim.analysis.advise import Advice, advise as advise2\n"
        "assert advise is advise2 and advise.__module__ == 'wiezen_sim.analysis.advise.recommend'\n"
        "assert set(wiezen_sim.__all__) <= set(dir(wiezen_sim))\n"
        "try:\n"
        "    wiezen_sim.nothing\n"
        "except AttributeError as exc:\n"
        "    assert 'nothing' in str(exc)\n"
        "else:\n"
        "    raise AssertionError('an unknown name was found')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
