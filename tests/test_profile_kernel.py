"""The kernel profiler (experiments/profile_kernel.py): its names for numba's functions and its refusals."""

from __future__ import annotations

import pytest

from experiments.profile_kernel import _short_name, main

# the LLVM name numba 0.68 gives the search (module path, function, then its ABI tags and argument types)
SEARCH_LLVM_NAME = (
    "_ZN10wiezen_sim6kernel2dd6search7_searchB2v1B40c8tJTIeFIjxB2IKSgI4CrvSCKg1MMfAwK4LIaQIAExxxxxxxxxxxxx"
    "5ArrayIxLi2E1C7mutable7alignedEx5ArrayIxLi3E1C7mutable7alignedE"
)


def test_a_numba_function_is_named_by_its_module_and_function():
    assert _short_name(SEARCH_LLVM_NAME) == "search._search"
    assert _short_name("_ZN10wiezen_sim6kernel2dd5moves10_gen_movesB2v1Exx") == "moves._gen_moves"
    assert _short_name("cpython.wrapper") == "cpython.wrapper"  # not a nested name: kept as it is


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--list1000", "0"], "--list1000 must be 1..1000"),
        (["--top", "0"], "--top 1..1000"),
        (["--corpus", "no/such/file.json"], "no such file: no/such/file.json"),
        (["--list1000", "5", "--corpus", "x.json"], "not allowed with argument"),
    ],
)
def test_bad_arguments_are_refused_before_any_work(argv, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert message in capsys.readouterr().err
