"""The package against the emulator: every flow end to end."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

import pytest

import msal_native_auth as m
from conftest import PROFILE, TODOLIST, Emulator


def test_password_sign_in_tokens_for_two_apis_and_sign_out(emulator: Emulator, tmp_path: Path) -> None:
    cache = tmp_path / "cache.json"
    with m.PublicClientApplication({**emulator.config(), "cache": "default", "cache_file": str(cache)}) as app:
        assert app.current_account() is None
        step = app.sign_in("ada@example.com", password="Analytical-Engine-1843")
        assert isinstance(step, m.SignedIn) and step.account is not None
        with step.account as account:
            assert account.username == "ada@example.com"
            assert account.claims["preferred_username"] == "ada@example.com"
            todo = account.get_access_token([TODOLIST])
            profile = account.get_access_token(PROFILE)
            assert todo.access_token != profile.access_token
            assert TODOLIST in todo.scopes and PROFILE in profile.scopes
            assert todo.expires_on is not None and todo.correlation_id
            assert emulator.call_api("/api/todolist", todo.access_token)["user"] == "ada@example.com"
            assert emulator.call_api("/api/profile", profile.access_token)["name"] == "Ada Lovelace"
            # A second call is served from the cache: the same token.
            assert account.get_access_token([TODOLIST]).access_token == todo.access_token
        # Another application on the same cache file finds the account (persistence), then signs out.
        with m.PublicClientApplication({**emulator.config(), "cache": "default", "cache_file": str(cache)}) as other:
            restored = other.current_account()
            assert restored is not None and restored.username == "ada@example.com"
            restored.sign_out()
            restored.close()
            assert other.current_account() is None
        assert app.current_account() is None


def test_code_sign_in_with_the_code_from_the_mailbox(emulator: Emulator) -> None:
    with emulator.app() as app:
        step = app.sign_in("grace@example.com")
        assert isinstance(step, m.CodeRequired)
        assert step.channel == "email" and step.code_length == 8 and step.sent_to
        assert step.state is not None and step.state.kind == m.StateKind.SIGN_IN_CODE_REQUIRED
        with pytest.raises(m.InvalidCodeError):
            step.state.submit_code("00000000")
        # After an invalid code the same state takes the right one.
        done = step.state.submit_code(emulator.code("grace@example.com", "sign_in"))
        assert isinstance(done, m.SignedIn) and done.account is not None
        assert done.account.username == "grace@example.com"
        step.close()


def test_password_prompt_when_no_password_is_given(emulator: Emulator) -> None:
    with emulator.app() as app:
        with app.sign_in("ada@example.com") as step:
            assert isinstance(step, m.PasswordRequired)
            assert step.state is not None
            with pytest.raises(m.InvalidCredentialsError):
                step.state.submit_password("wrong")
            assert isinstance(step.state.submit_password("Analytical-Engine-1843"), m.SignedIn)


def test_resend_code_gives_a_new_state(emulator: Emulator) -> None:
    with emulator.app() as app, app.sign_in("grace@example.com") as step:
        assert isinstance(step, m.CodeRequired) and step.state is not None
        with step.state.resend_code() as again:
            assert isinstance(again, m.CodeRequired) and again.state is not None
            assert isinstance(again.state.submit_code(emulator.code("grace@example.com", "sign_in")), m.SignedIn)


def test_sign_up_with_attributes_then_sign_in(emulator: Emulator) -> None:
    username = f"new-{uuid.uuid4().hex[:8]}@example.com"
    with emulator.app() as app:
        step = app.sign_up(username, password="Correct-Horse-Battery-9", attributes={"displayName": "New User"})
        assert isinstance(step, m.CodeRequired) and step.state is not None
        assert step.state.kind == m.StateKind.SIGN_UP_CODE_REQUIRED
        done = step.state.submit_code(emulator.code(username, "sign_up"))
        assert isinstance(done, m.SignUpCompleted) and done.state is not None
        assert done.state.kind == m.StateKind.SIGN_IN_AFTER_SIGN_UP
        signed_in = done.state.sign_in([TODOLIST])
        assert isinstance(signed_in, m.SignedIn) and signed_in.account is not None
        assert signed_in.account.username == username


def test_sign_up_asks_for_missing_attributes(emulator: Emulator) -> None:
    username = f"attr-{uuid.uuid4().hex[:8]}@example.com"
    with emulator.app() as app:
        step = app.sign_up(username, password="Correct-Horse-Battery-9")
        assert isinstance(step, m.CodeRequired) and step.state is not None
        needs = step.state.submit_code(emulator.code(username, "sign_up"))
        assert isinstance(needs, m.AttributesRequired) and needs.state is not None
        assert "displayName" in [attribute.name for attribute in needs.attributes]
        done = needs.state.submit_attributes({"displayName": "Attr User", "city": "Leeds"})
        assert isinstance(done, m.SignUpCompleted)


def test_password_reset_then_sign_in_with_the_new_password(emulator: Emulator) -> None:
    username = emulator.new_user(password="Old-Secret-4321", attributes={"displayName": "Reset"})
    with emulator.app() as app:
        step = app.reset_password(username)
        assert isinstance(step, m.CodeRequired) and step.state is not None
        needs = step.state.submit_code(emulator.code(username, "reset_password"))
        assert isinstance(needs, m.PasswordRequired) and needs.state is not None
        assert needs.state.kind == m.StateKind.RESET_PASSWORD_REQUIRED
        with pytest.raises(m.InvalidPasswordError):
            needs.state.submit_password("short")
        done = needs.state.submit_password("New-Secret-8765")
        assert isinstance(done, m.ResetPasswordCompleted) and done.state is not None
        assert isinstance(done.state.sign_in(), m.SignedIn)
        assert isinstance(app.sign_in(username, password="New-Secret-8765"), m.SignedIn)


def test_mfa_with_a_code_sent_to_a_second_method(emulator: Emulator) -> None:
    with emulator.app() as app:
        step = app.sign_in("alan@example.com", password="Turing-Machine-1936")
        assert isinstance(step, m.MFARequired) and step.state is not None
        assert {method.channel for method in step.auth_methods} == {"email", "sms"}
        sms = next(method for method in step.auth_methods if method.channel == "sms")
        sent = step.state.request_challenge(sms)
        assert isinstance(sent, m.CodeRequired) and sent.state is not None
        assert sent.state.kind == m.StateKind.MFA_REQUIRED
        done = sent.state.submit_code(emulator.code("alan@example.com", "mfa"))
        assert isinstance(done, m.SignedIn)


def test_strong_auth_registration_then_sign_in(emulator: Emulator) -> None:
    username = emulator.new_user(password="Pass-word-2468", mfa_required=True)
    with emulator.app() as app:
        step = app.sign_in(username, password="Pass-word-2468")
        assert isinstance(step, m.RegistrationRequired) and step.state is not None
        sms = next(method for method in step.auth_methods if method.channel == "sms")
        sent = step.state.register_method(sms, "+15550123")
        assert isinstance(sent, m.CodeRequired) and sent.state is not None
        done = sent.state.submit_code(emulator.code(username, "registration"))
        assert isinstance(done, m.SignedIn)


def test_async_forms_use_the_callback_interface(emulator: Emulator) -> None:
    async def flow(app: m.PublicClientApplication) -> m.AccessToken:
        step = await app.sign_in_async("grace@example.com")
        assert isinstance(step, m.CodeRequired) and step.state is not None
        done = await step.state.submit_code_async(emulator.code("grace@example.com", "sign_in"))
        assert isinstance(done, m.SignedIn) and done.account is not None
        # Concurrent calls for one scope set share one refresh (the SDK's single flight).
        tokens = await asyncio.gather(*(done.account.get_access_token_async(TODOLIST) for _ in range(4)))
        assert len({token.access_token for token in tokens}) == 1
        return tokens[0]

    with emulator.app() as app:
        token = asyncio.run(flow(app))
        assert emulator.call_api("/api/todolist", token.access_token)["user"] == "grace@example.com"


def test_objects_free_their_handles(emulator: Emulator) -> None:
    before = m.live_handles()
    with emulator.app() as app:
        with app.sign_in("ada@example.com", password="Analytical-Engine-1843") as step:
            assert isinstance(step, m.SignedIn) and step.account is not None
            step.account.get_access_token(TODOLIST)
            step.account.close()
    assert m.live_handles() == before
    assert m.live_strings() == 0


def test_async_sign_up_reset_and_mfa(emulator: Emulator) -> None:
    username = f"async-{uuid.uuid4().hex[:8]}@example.com"

    async def flows(app: m.PublicClientApplication) -> None:
        step = await app.sign_up_async(username, password="Correct-Horse-Battery-9")
        assert isinstance(step, m.CodeRequired) and step.state is not None
        again = await step.state.resend_code_async()
        assert isinstance(again, m.CodeRequired) and again.state is not None
        needs = await again.state.submit_code_async(emulator.code(username, "sign_up"))
        assert isinstance(needs, m.AttributesRequired) and needs.state is not None
        done = await needs.state.submit_attributes_async({"displayName": "Async"})
        assert isinstance(done, m.SignUpCompleted) and done.state is not None
        assert isinstance(await done.state.sign_in_async(), m.SignedIn)
        reset = await app.reset_password_async(username)
        assert isinstance(reset, m.CodeRequired)
        with pytest.raises(m.UserNotFoundError):
            await app.reset_password_async("nobody@example.com")
        mfa = await app.sign_in_async("alan@example.com", password="Turing-Machine-1936")
        assert isinstance(mfa, m.MFARequired) and mfa.state is not None
        sent = await mfa.state.request_challenge_async(mfa.auth_methods[0])
        assert isinstance(sent, m.CodeRequired) and sent.state is not None
        assert isinstance(await sent.state.submit_code_async(emulator.code("alan@example.com", "mfa")), m.SignedIn)
        registering = emulator.new_user(password="Pass-word-4444", mfa_required=True)
        register = await app.sign_in_async(registering, password="Pass-word-4444")
        assert isinstance(register, m.RegistrationRequired) and register.state is not None
        email = next(method for method in register.auth_methods if method.channel == "email")
        code_sent = await register.state.register_method_async(email, "backup@example.net")
        assert isinstance(code_sent, m.CodeRequired)

    with emulator.app() as app:
        asyncio.run(flows(app))
