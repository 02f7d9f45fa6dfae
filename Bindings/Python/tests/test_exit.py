"""A program that ends while an operation is still pending exits as it meant to: no crash, no hang,
no traceback but the program's own. The library calls into Python from its own threads (results of the
asyncio forms, the request interceptor, the browser's URL callback, log lines); at interpreter exit
the package detaches them all (msal_na_detach_callbacks, client.py), before Python finalizes.

Each case runs exit_child.py, which mostly holds the interpreter in its finalization for a moment (an
object whose __del__ sleeps) so that the late answer comes then, as it does at random in a real
program; without the detach every case dies with SIGILL (libdispatch aborts when Python ends the
library's thread under it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import msal_native_auth as m
from conftest import Emulator

PACKAGE_PATH = str(Path(m.__file__).resolve().parents[1])
CHILD = str(Path(__file__).with_name("exit_child.py"))
RUNS = int(os.environ.get("EXIT_TEST_RUNS", "3"))  # each case's runs (20 to measure a rate)
HOLD_SECONDS = "0.5"  # longer than the emulator's delay (exit_child.LATE_MS)

# How each exit looks from outside: the status, and what stderr holds (nothing, or the program's
# own traceback and nothing else).
EXITS = {"return": (0, None), "sys_exit": (3, None), "raise": (1, "RuntimeError: exit while pending\n")}


def run_child(emulator: Emulator, kind: str, how: str, hold: str = HOLD_SECONDS) -> "subprocess.CompletedProcess[str]":
    try:
        return subprocess.run(
            [sys.executable, CHILD, json.dumps(emulator.config()), emulator.base, kind, how, hold],
            capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": PACKAGE_PATH},
        )
    except subprocess.TimeoutExpired as expired:
        raise AssertionError(f"{kind}/{how}: the process hung at exit: {expired.stderr!r}") from None
    finally:
        emulator.hook("DELETE", "/_emulator/faults")  # a delay the child did not use


def assert_clean_exit(done: "subprocess.CompletedProcess[str]", how: str) -> None:
    status, traceback_end = EXITS[how]
    context = (done.returncode, done.stdout, done.stderr[-2000:])
    assert done.returncode == status and done.stdout == "pending\n", context
    if traceback_end is None:
        assert done.stderr == "", context
    else:
        assert done.stderr.startswith("Traceback (most recent call last):\n") and done.stderr.endswith(traceback_end), context
        assert done.stderr.count("Traceback") == 1 and "Exception ignored" not in done.stderr, context


@pytest.mark.parametrize("how", sorted(EXITS))
@pytest.mark.parametrize("kind", ["sign_in", "refresh", "interceptor", "browser", "browser_thread"])
def test_a_program_exits_cleanly_while_an_operation_is_pending(emulator: Emulator, kind: str, how: str) -> None:
    for _ in range(RUNS):
        assert_clean_exit(run_child(emulator, kind, how), how)


def test_a_program_exits_cleanly_as_a_browser_sign_in_starts(emulator: Emulator) -> None:
    # No help from the child: the URL callback comes while the interpreter finalizes on its own.
    for _ in range(RUNS):
        assert_clean_exit(run_child(emulator, "browser_thread", "return", hold="0"), "return")
