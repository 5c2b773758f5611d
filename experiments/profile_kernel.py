"""Where the double-dummy kernel spends its CPU time, per numba function and per instruction (Linux ``perf``).

    python experiments/profile_kernel.py [--list1000 N | --corpus FILE [--kinds a,b]] [--top K]

Runs a workload under ``perf record`` and prints the share of the kernel's samples taken in
each compiled function (after LLVM's inlining: what is inlined counts to its caller) and the
``--top`` instructions of the search (``search._search``) that took the most samples, each with
the instruction before it: a load that misses the caches shows as samples on the instruction
after it. Workloads: the first N deals of ``tests/data/dds/list1000.txt`` (2 vs 2, every
table of 20 results, a fresh 64 MB table per deal), or the questions of a corpus file in
``advise_suite.py``'s format (``experiments/benchmarks/slow_questions.json``; ``--kinds``
keeps some kinds), each with a fresh solver of advise's table size.

perf cannot name code that numba compiles at run time, so the profiled process writes
``/tmp/perf-PID.map`` (perf's map of JIT code; removed afterwards) from the functions of the
kernel's compiled libraries, and the machine code of the search beside perf's data. It
compiles the kernel afresh in a temporary numba cache (about a minute, not profiled in the
shares, which count kernel samples only), because code loaded from the cache comes without
the list of functions the map is made of. Needs ``perf`` (Debian: ``linux-perf``) and, for
the instructions, ``objdump`` (binutils). Nothing is written outside ``--out`` (default: a
temporary folder, removed) but the map.
"""

from __future__ import annotations

import argparse
import collections
import ctypes
import importlib
import json
import os
import pkgutil
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
KERNEL_PACKAGE = "wiezen_sim.kernel.dd"
SEARCH = "search._search"


def _short_name(llvm_name: str) -> str:
    """``module.function`` from a numba function's mangled LLVM name (Itanium nested name)."""
    parts = []
    rest = llvm_name[llvm_name.find("_ZN") + 3 :] if "_ZN" in llvm_name else ""
    while (m := re.match(r"(\d+)", rest)) is not None:
        n = int(m.group(1))
        parts.append(rest[len(m.group(1)) : len(m.group(1)) + n])
        rest = rest[len(m.group(1)) + n :]
    return ".".join(parts[-2:]) if len(parts) >= 2 else llvm_name[:60]


def _kernel_modules() -> list[str]:
    """The kernel's module names (``wiezen_sim.kernel.dd.search``, ...)."""
    return [
        m.name for m in pkgutil.walk_packages(importlib.import_module(KERNEL_PACKAGE).__path__, KERNEL_PACKAGE + ".")
    ]


def _kernel_symbols() -> list[tuple[int, str]]:
    """``(address, name)`` of every compiled function in the libraries of the kernel's dispatchers."""
    from numba.core.registry import CPUDispatcher

    symbols = set()
    for module_name in _kernel_modules():
        for obj in vars(importlib.import_module(module_name)).values():
            if not isinstance(obj, CPUDispatcher):
                continue
            for cres in obj.overloads.values():
                library = cres.library
                for fn in library._final_module.functions:  # numba's own LLVM module of this library
                    if fn.is_declaration or not fn.name.startswith("_ZN"):
                        continue
                    address = library.get_pointer_to_function(fn.name)
                    if address:
                        symbols.add((address, _short_name(fn.name)))
    return sorted(symbols)


def _workload(args: argparse.Namespace):
    """The function that asks the workload's questions."""
    from wiezen_sim.solvers.dd import DDSolver

    if args.corpus is not None:
        from experiments.benchmarks.advise_suite import replay_question
        from wiezen_sim.analysis.advise.dd_table import TT_MB

        kinds = None if args.kinds is None else set(args.kinds.split(","))
        entries = [e for e in json.loads(args.corpus.read_text())["questions"] if kinds is None or e["kind"] in kinds]

        def run() -> None:
            for e in entries:  # a question past the node limit is profiled up to it
                replay_question(e, TT_MB, args.node_limit)

        return run
    from tests.conftest import load_dds_tables

    deals = load_dds_tables(ROOT / "tests" / "data" / "dds" / "list1000.txt")[: args.list1000]

    def run_tables() -> None:
        for pbn, _ in deals:
            DDSolver(tt_mb=64).table(pbn)

    return run_tables


def child(args: argparse.Namespace) -> None:
    """The profiled process: compile, write the map and the search's code, then run the workload."""
    from wiezen_sim.solvers.dd import DDSolver

    for side in (1, 5):  # compile every entry point the workloads use
        DDSolver(tt_mb=1).solve("N:A.A.A.A K.K.K.K Q.Q.Q.Q J.J.J.J", "S", 0, side)
    DDSolver(tt_mb=1).can_force("N:A.A.A.A K.K.K.K Q.Q.Q.Q J.J.J.J", None, 0, 1, 0, "min")
    run = _workload(args)
    symbols = _kernel_symbols()
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
        for i, (address, name) in enumerate(symbols):
            size = symbols[i + 1][0] - address if i + 1 < len(symbols) else 1 << 16
            f.write(f"{address:x} {min(size, 1 << 20):x} {name}\n")
            if name == SEARCH:  # each library that calls the search holds a copy of it
                (args.out / f"search_{address:x}.bin").write_bytes(ctypes.string_at(address, min(size, 1 << 20)))
    (args.out / "pid").write_text(str(os.getpid()))
    run()


def report(out: Path, top: int) -> None:
    """Print the kernel functions' shares and the search's hottest instructions from ``out/perf.data``."""
    text = subprocess.run(["perf", "script", "-i", str(out / "perf.data"), "-F", "ip,sym"], capture_output=True,
                          text=True, check=True).stdout  # fmt: skip
    by_function: collections.Counter[str] = collections.Counter()
    ips: collections.Counter[int] = collections.Counter()
    modules = tuple(f"{name.rsplit('.', 1)[-1]}." for name in _kernel_modules())
    for line in text.splitlines():
        fields = line.split()
        if len(fields) == 2 and fields[1].startswith(modules):
            by_function[fields[1]] += 1
            if fields[1] == SEARCH:
                ips[int(fields[0], 16)] += 1
    total = sum(by_function.values())
    if total == 0:
        sys.exit("profile_kernel: perf took no samples in the kernel (is perf allowed here? see perf_event_paranoid)")
    print(f"kernel samples: {total:,}; share per compiled function (callees inlined by LLVM count to the caller)")
    for name, n in by_function.most_common():
        print(f"  {100 * n / total:6.2f} %  {name}")
    if shutil.which("objdump") is None:
        return
    code = {}  # address -> instruction, over every copy of the search
    bases = []
    for path in out.glob("search_*.bin"):
        base = int(path.stem.split("_")[1], 16)
        bases.append(base)
        asm = subprocess.run(["objdump", "-D", "-b", "binary", "-mi386:x86-64", f"--adjust-vma={base:#x}", str(path)],
                             capture_output=True, text=True, check=True).stdout  # fmt: skip
        for line in asm.splitlines():
            m = re.match(r"\s*([0-9a-f]+):\s+(?:[0-9a-f]{2} )+\s*(.*)", line)
            if m and m.group(2):
                code[int(m.group(1), 16)] = m.group(2).strip()
    addresses = sorted(code)
    search_total = sum(ips.values())
    print(f"{SEARCH}: its {top} hottest instructions, of its {search_total:,} samples "
          "(offset in its copy, instruction | the one before)")  # fmt: skip
    for ip, n in ips.most_common(top):
        base = max((b for b in bases if b <= ip), default=ip)
        before = max((a for a in addresses if a < ip), default=ip)
        print(f"  {100 * n / search_total:6.2f} %  {ip - base:#7x}  {code.get(ip, '?'):<40} | {code.get(before, '?')}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--list1000", type=int, default=40, help="the first N deals of list1000 (default 40)")
    group.add_argument("--corpus", type=Path, default=None, help="a questions file in advise_suite.py's format")
    ap.add_argument("--kinds", default=None, help="with --corpus: only these kinds (comma-separated)")
    ap.add_argument("--node-limit", type=int, default=4_000_000, help="trick nodes per corpus question")
    ap.add_argument("--top", type=int, default=12, help="hottest instructions of the search shown (default 12)")
    ap.add_argument("--frequency", type=int, default=2000, help="perf samples per second (default 2000)")
    ap.add_argument("--out", type=Path, default=None, help="keep perf's data and the search's code here")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if not 1 <= args.list1000 <= 1000 or not 1 <= args.top <= 1000 or not 1 <= args.frequency <= 20000:
        ap.error("--list1000 must be 1..1000, --top 1..1000 and --frequency 1..20000")
    if args.corpus is not None and not args.corpus.is_file():
        ap.error(f"--corpus: no such file: {args.corpus}")
    if args.child:
        child(args)
        return 0
    if shutil.which("perf") is None:
        ap.error("needs Linux perf on the PATH (Debian: apt-get install linux-perf)")
    with tempfile.TemporaryDirectory() as tmp:
        out = args.out or Path(tmp)
        out.mkdir(parents=True, exist_ok=True)
        cmd = [sys.executable, __file__, "--child", "--out", str(out), "--node-limit", str(args.node_limit)]
        cmd += ["--corpus", str(args.corpus)] if args.corpus else ["--list1000", str(args.list1000)]
        cmd += ["--kinds", args.kinds] if args.kinds else []
        env = dict(os.environ, NUMBA_CACHE_DIR=str(Path(tmp) / "numba_cache"))
        perf = ["perf", "record", "-q", "-F", str(args.frequency), "-o", str(out / "perf.data"), "--"]
        try:
            subprocess.run(perf + cmd, env=env, check=True)
            report(out, args.top)
        finally:
            pid = out / "pid"
            if pid.exists():
                Path(f"/tmp/perf-{pid.read_text()}.map").unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
