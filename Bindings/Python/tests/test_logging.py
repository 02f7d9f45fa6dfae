"""The SDK's log lines through the package: delivered, masked by default, stopped on request."""

from __future__ import annotations

import threading
from typing import List, Tuple

import msal_native_auth as m
from conftest import Emulator


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
