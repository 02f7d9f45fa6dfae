"""Saved flow states: state.dumps() and app.restore_state(), in this process and in a second one
(resume_state.py), for sign-in codes, sign-up, password reset and MFA; and every restore error."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any, Dict

import pytest

import msal_native_auth as m
from conftest import Emulator

RESUME = Path(__file__).with_name("resume_state.py")


def resume(emulator: Emulator, saved: str, step: str, *arguments: str) -> Dict[str, Any]:
    """Continues `saved` in a second Python process: one step, its outcome as JSON."""
    done = subprocess.run(
        [sys.executable, str(RESUME), json.dumps(emulator.config()), step, *arguments], input=saved, capture_output=True, text=True,
        timeout=60, env=os.environ.copy(),
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_sign_in_code_state_resumed_in_another_process(emulator: Emulator) -> None:
    with emulator.app() as app, app.sign_in("grace@example.com") as step:
        assert isinstance(step, m.CodeRequired) and step.state is not None
        saved = step.state.dumps()
        assert json.loads(saved)["kind"] == "signInCodeRequired"
    # The code arrives after this process let go of the state.
    report = resume(emulator, saved, "submit_code", emulator.code("grace@example.com", "sign_in"))
    assert report == {"kind": "SIGN_IN_CODE_REQUIRED", "methods": [], "outcome": "SignedIn", "username": "grace@example.com"}


def test_sign_up_continued_across_application_objects_and_processes(emulator: Emulator) -> None:
    username = f"saved-{uuid.uuid4().hex[:8]}@example.com"
    with emulator.app() as app, emulator.app() as later:
        with app.sign_up(username, password="Correct-Horse-Battery-9", attributes={"displayName": "Saved"}) as step:
            assert isinstance(step, m.CodeRequired) and step.state is not None
            saved = step.state.dumps()
        with later.restore_state(saved, kind=m.StateKind.SIGN_UP_CODE_REQUIRED) as restored:
            assert restored.kind == m.StateKind.SIGN_UP_CODE_REQUIRED
            with pytest.raises(m.InvalidCodeError):
                restored.submit_code("00000000")
            with restored.submit_code(emulator.code(username, "sign_up")) as done:
                assert isinstance(done, m.SignUpCompleted) and done.state is not None
                after = done.state.dumps()
    report = resume(emulator, after, "sign_in")
    assert report["kind"] == "SIGN_IN_AFTER_SIGN_UP" and report["outcome"] == "SignedIn" and report["username"] == username


def test_password_reset_continued_step_by_step_in_other_processes(emulator: Emulator) -> None:
    username = emulator.new_user(password="Old-Secret-4321", attributes={"displayName": "Saved reset"})
    with emulator.app() as app, app.reset_password(username) as step:
        assert isinstance(step, m.CodeRequired) and step.state is not None
        saved = step.state.dumps()
    report = resume(emulator, saved, "submit_code", emulator.code(username, "reset_password"))
    assert report["kind"] == "RESET_PASSWORD_CODE_REQUIRED" and report["outcome"] == "PasswordRequired"
    report = resume(emulator, report["saved"], "submit_password", "New-Secret-8765")
    assert report["kind"] == "RESET_PASSWORD_REQUIRED" and report["outcome"] == "ResetPasswordCompleted"
    report = resume(emulator, report["saved"], "sign_in")
    assert report["kind"] == "SIGN_IN_AFTER_RESET_PASSWORD" and report["username"] == username


def test_mfa_resumed_in_another_process_and_back(emulator: Emulator) -> None:
    with emulator.app() as app:
        with app.sign_in("alan@example.com", password="Turing-Machine-1936") as step:
            assert isinstance(step, m.MFARequired) and step.state is not None
            assert step.state.auth_methods == step.auth_methods
            saved = step.state.dumps()
        # The other process sees the offered methods and has a code sent to the first.
        report = resume(emulator, saved, "request_challenge")
        assert report["kind"] == "AWAITING_MFA" and sorted(report["methods"]) == ["email", "sms"]
        assert report["outcome"] == "CodeRequired"
        # Back here, the code finishes the sign-in.
        with app.restore_state(report["saved"]) as state:
            assert state.kind == m.StateKind.MFA_REQUIRED and len(state.auth_methods) == 2
            done = state.submit_code(emulator.code("alan@example.com", "mfa"))
            assert isinstance(done, m.SignedIn) and done.account is not None
            assert done.account.username == "alan@example.com"
            done.account.close()


def saved_code_state(emulator: Emulator) -> str:
    with emulator.app() as app, app.sign_in("grace@example.com") as step:
        assert step.state is not None
        return step.state.dumps()


def edited(saved: str, **members: Any) -> str:
    document = json.loads(saved)
    document.update(members)
    return json.dumps(document)


def test_each_restore_error_is_its_own_exception(emulator: Emulator) -> None:
    saved = saved_code_state(emulator)
    issued = json.loads(saved)["issuedAt"]
    cases = [
        (saved[: len(saved) // 2], m.StateMalformedError),
        (saved[:-1], m.StateMalformedError),
        ("", m.StateMalformedError),
        ("garbage", m.StateMalformedError),
        (json.dumps({"format": "msal-native-auth-flow-state", "version": 1}), m.StateMalformedError),
        (saved + " " * 70_000, m.StateMalformedError),
        (edited(saved, version=3), m.StateUnsupportedVersionError),  # newer than any format this library writes
        (edited(saved, version=2), m.StateMalformedError),  # a native auth V2 document, yet with a V1 kind
        (edited(saved, issuedAt=issued - 660), m.StateExpiredError),
    ]
    with emulator.app() as app:
        for text, error in cases:
            with pytest.raises(error) as caught:
                app.restore_state(text)
            assert isinstance(caught.value, m.RestoreStateError) and isinstance(caught.value, m.NativeAuthError)
            assert caught.value.message.startswith("Cannot restore the flow state")
        with pytest.raises(m.StateWrongKindError):
            app.restore_state(saved, kind=m.StateKind.SIGN_IN_PASSWORD_REQUIRED)
        assert app.restore_state(edited(saved, issuedAt=issued - 540)).kind == m.StateKind.SIGN_IN_CODE_REQUIRED
        with pytest.raises(m.InvalidArgumentError):
            app.restore_state("\ud800")
    with m.PublicClientApplication({**emulator.config(), "client_id": "22222222-2222-4222-8222-222222222222"}) as other:
        with pytest.raises(m.StateWrongApplicationError):
            other.restore_state(saved)


def test_a_closed_state_cannot_be_saved_and_nothing_leaks(emulator: Emulator) -> None:
    before = m.live_handles()
    with emulator.app() as app:
        step = app.sign_in("grace@example.com")
        assert step.state is not None
        state = step.state
        for _ in range(3):
            app.restore_state(state.dumps()).close()
        state.close()
        with pytest.raises(m.InvalidArgumentError):
            state.dumps()
        assert state.auth_methods == []
    assert m.live_handles() == before and m.live_strings() == 0
