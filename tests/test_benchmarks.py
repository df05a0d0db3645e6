"""The benchmark scripts stay runnable: each imports, with what it takes from the app and
the tests (they are not run here: speed lives in benchmarks, never in timed tests)."""

from __future__ import annotations

import importlib

import pytest

SCRIPTS = ["run", "startup", "phases", "instructions", "latency", "jump", "bulk", "load"]
SCRIPTS += ["growth", "common", "grouping", "across", "triggers"]


@pytest.mark.parametrize("name", SCRIPTS)
def test_every_benchmark_script_imports(name: str) -> None:
    module = importlib.import_module(f"benchmarks.{name}")
    assert module.__file__ and module.__file__.endswith(f"{name}.py")
