"""The SDK's log lines through the package: delivered, masked by default, stopped on request."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import List, Tuple

import msal_native_auth as m
from conftest import Emulator

PACKAGE_PATH = str(Path(m.__file__).resolve().parents[1])


def test_log_lines_arrive_masked_and_stop(emulator: Emulator) -> None:
    lines: List[Tuple[m.LogLevel, str, bool]] = []
    lock = threading.Lock()

    def collect(level: m.LogLevel, message: str, contains_pii: bool) -> None:
        with lock:
            lines.append((level, message, contains_pii))

    m.set_log_callback(collect, level=m.LogLevel.VERBOSE)
    try:
        with emulator.app() as app:
            step = app.sign_in("ada@example.com", password="Analytical-Engine-1843")
            assert isinstance(step, m.SignedIn) and step.account is not None
            step.account.sign_out()
            step.close()
        m.flush_log()
        assert lines, "the sign-in wrote log lines"
        assert all(isinstance(level, m.LogLevel) for level, _, _ in lines)
        joined = "\n".join(message for _, message, _ in lines)
        assert "Analytical-Engine-1843" not in joined and "ada@example.com" not in joined
        assert not any(pii for _, _, pii in lines)
    finally:
        m.set_log_callback(None)
    count = len(lines)
    with emulator.app() as app:
        app.sign_in("grace@example.com").close()
    m.flush_log()
    assert len(lines) == count, "no line after logging was stopped"


def test_personal_data_is_shown_only_when_asked(emulator: Emulator) -> None:
    lines: List[Tuple[str, bool]] = []
    m.set_log_callback(lambda level, message, pii: lines.append((message, pii)), level=m.LogLevel.VERBOSE, pii=True)
    try:
        with emulator.app() as app:
            step = app.sign_in("ada@example.com", password="Analytical-Engine-1843")
            assert isinstance(step, m.SignedIn)
            step.close()
        m.flush_log()
    finally:
        m.set_log_callback(None)
    assert any(pii for _, pii in lines), "some line shows personal data when allowed"
    assert not any("Analytical-Engine-1843" in message for message, _ in lines), "a password never"


EXIT_WHILE_LOGGING = """
import sys, time
import msal_native_auth as m
config = {"client_id": sys.argv[1], "authority": sys.argv[2], "cache": "memory"}
m.set_log_callback(lambda level, message, pii: time.sleep(0.02), level=m.LogLevel.VERBOSE)  # a slow reader
with m.PublicClientApplication(config) as app:
    app.sign_in("ada@example.com", password="Analytical-Engine-1843").close()
print("signed in", flush=True)
# Exits with lines still queued for the callback.
"""


def test_a_process_exits_cleanly_while_log_lines_are_still_queued(emulator: Emulator) -> None:
    # Lines delivered once the interpreter finalizes would end the library's log thread under it
    # and abort the process (SIGILL); the package stops logging before that (client.py, atexit).
    config = emulator.config()
    for _ in range(3):
        done = subprocess.run(
            [sys.executable, "-c", EXIT_WHILE_LOGGING, config["client_id"], config["authority"]],
            capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": PACKAGE_PATH},
        )
        assert done.returncode == 0 and done.stdout == "signed in\n", (done.returncode, done.stdout, done.stderr[-2000:])
