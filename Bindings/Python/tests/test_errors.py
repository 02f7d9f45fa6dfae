"""Every error kind reaches Python as its own exception, with the message and correlation id."""

from __future__ import annotations

import uuid

import pytest

import msal_native_auth as m
from conftest import TODOLIST, Emulator


def test_invalid_credentials_carries_message_code_and_correlation_id(emulator: Emulator) -> None:
    with emulator.app() as app, pytest.raises(m.InvalidCredentialsError) as caught:
        app.sign_in("ada@example.com", password="wrong")
    error = caught.value
    assert error.code == 14 and error.name == "MSAL_NA_ERR_INVALID_CREDENTIALS"
    assert "AADSTS50126" in error.message and 50126 in error.error_codes
    assert error.server_error == "invalid_grant"
    assert uuid.UUID(error.correlation_id or "")
    assert isinstance(error, m.NativeAuthError)


@pytest.mark.parametrize(
    ("username", "error"),
    [("nobody@example.com", m.UserNotFoundError), ("", m.InvalidUsernameError)],
)
def test_sign_in_start_errors(emulator: Emulator, username: str, error: type) -> None:
    with emulator.app() as app, pytest.raises(error):
        app.sign_in(username, password="whatever-1234")


def test_sign_up_errors(emulator: Emulator) -> None:
    with emulator.app() as app:
        with pytest.raises(m.UserAlreadyExistsError):
            app.sign_up("ada@example.com", password="Correct-Horse-Battery-9", attributes={"displayName": "A"})
        with pytest.raises(m.InvalidPasswordError):
            app.sign_up(f"weak-{uuid.uuid4().hex[:8]}@example.com", password="a", attributes={"displayName": "W"})


def test_reset_errors(emulator: Emulator) -> None:
    with emulator.app() as app:
        with pytest.raises(m.UserDoesNotHavePasswordError):
            app.reset_password("grace@example.com")
        with pytest.raises(m.UserNotFoundError):
            app.reset_password("nobody@example.com")


def test_browser_required_when_the_app_cannot_handle_the_users_method(emulator: Emulator) -> None:
    with emulator.app(challenge_types=["password"]) as app, pytest.raises(m.BrowserRequiredError) as caught:
        app.sign_in("grace@example.com")
    assert caught.value.is_browser_required


def test_mfa_and_registration_required_without_the_capabilities(emulator: Emulator) -> None:
    with emulator.app(capabilities=[]) as app:
        with pytest.raises(m.MFARequiredError):
            app.sign_in("alan@example.com", password="Turing-Machine-1936")
        username = emulator.new_user(password="Pass-word-1357", mfa_required=True)
        with pytest.raises(m.RegistrationRequiredError):
            app.sign_in(username, password="Pass-word-1357")


def test_mfa_and_registration_errors(emulator: Emulator) -> None:
    blocked = emulator.new_user(
        password="Pass-word-1111",
        mfa_required=True,
        strong_auth_methods=[{"id": "m1", "channel": "sms", "target": "+15550111", "blocked": True}],
    )
    with emulator.app() as app:
        with app.sign_in(blocked, password="Pass-word-1111") as step:
            assert isinstance(step, m.MFARequired) and step.state is not None
            with pytest.raises(m.AuthMethodBlockedError):
                step.state.request_challenge(step.auth_methods[0])
            with pytest.raises(m.InvalidArgumentError):
                step.state.request_challenge("not-an-offered-method")
        registering = emulator.new_user(password="Pass-word-2222", mfa_required=True)
        with app.sign_in(registering, password="Pass-word-2222") as step:
            assert isinstance(step, m.RegistrationRequired) and step.state is not None
            sms = next(method for method in step.auth_methods if method.channel == "sms")
            email = next(method for method in step.auth_methods if method.channel == "email")
            with pytest.raises(m.InvalidInputError):
                step.state.register_method(email, "not-an-address")
            with pytest.raises(m.VerificationContactBlockedError):
                step.state.register_method(sms, "+15550199")
            sent = step.state.register_method(sms, "+15550142")
            assert isinstance(sent, m.CodeRequired) and sent.state is not None
            with pytest.raises(m.InvalidCodeError):
                sent.state.submit_code("00000000")


def test_token_errors(emulator: Emulator) -> None:
    username = emulator.new_user(password="Pass-word-3333")
    with emulator.app() as app:
        step = app.sign_in(username, password="Pass-word-3333")
        assert isinstance(step, m.SignedIn) and step.account is not None
        with pytest.raises(m.InvalidScopeError):
            step.account.get_access_token(["api://emulator/nothing/Nope.Read"])
        assert emulator.hook("DELETE", f"/_emulator/sessions?username={username}") == 200
        with pytest.raises(m.RefreshTokenExpiredError):
            step.account.get_access_token([TODOLIST], force_refresh=True)


def test_network_error(emulator: Emulator) -> None:
    config = {**emulator.config(), "authority": "http://127.0.0.1:9/emulator.onmicrosoft.com", "request_timeout_seconds": 5}
    with m.PublicClientApplication(config) as app, pytest.raises(m.NetworkError) as caught:
        app.sign_in("ada@example.com", password="x")
    assert isinstance(caught.value, ConnectionError)


@pytest.mark.parametrize(
    "config",
    ["{", "[]", '{"client_id": ""}', '{"client_id": "x"}', '{"client_id": "x", "tenant_subdomain": "a", "colour": 1}'],
)
def test_invalid_config(config: str) -> None:
    with pytest.raises(m.InvalidConfigError):
        m.PublicClientApplication(config)


def test_invalid_arguments_never_reach_the_service(emulator: Emulator) -> None:
    with emulator.app() as app:
        with pytest.raises(m.InvalidArgumentError) as caught:
            app.sign_in(b"\xff\xfe", password="x")
        assert "UTF-8" in caught.value.message
        with pytest.raises(m.InvalidArgumentError):
            app.sign_in("ada@example.com", password="\udcff")  # a lone surrogate cannot be UTF-8
        with pytest.raises(m.InvalidArgumentError):
            m.PublicClientApplication(b'{"client_id": "\xc3\x28"}')


def test_used_state_wrong_state_and_closed_objects(emulator: Emulator) -> None:
    with emulator.app() as app:
        step = app.sign_in("grace@example.com")
        assert isinstance(step, m.CodeRequired) and step.state is not None
        with pytest.raises(m.WrongStateError):
            step.state.submit_password("x")
        assert isinstance(step.state.submit_code(emulator.code("grace@example.com", "sign_in")), m.SignedIn)
        with pytest.raises(m.GeneralError):  # the state's step succeeded: it is used up
            step.state.submit_code("00000000")
        step.state.close()
        with pytest.raises(m.InvalidArgumentError):  # closed: the handle is gone (NULL)
            step.state.submit_code("00000000")
    with pytest.raises(m.InvalidArgumentError):
        app.sign_in("ada@example.com")


def test_a_stale_handle_is_reported_not_dereferenced(emulator: Emulator) -> None:
    from msal_native_auth._native import lib

    with emulator.app() as app:
        handle = app.handle
    assert lib.msal_na_app_free(handle) == m.InvalidHandleError.code  # freed already
    assert lib.msal_na_sign_in_wait(handle, b"a@b.c", None, None, None) == m.InvalidHandleError.code


def test_every_library_error_code_has_its_exception_class() -> None:
    from msal_native_auth._native import lib

    names = {code: lib.msal_na_error_name(code).decode() for code in range(1, 200)}
    library = {code: name for code, name in names.items() if name != "MSAL_NA_ERR_UNKNOWN"}
    assert set(library) == set(m.ERROR_CLASSES)
    for code, cls in m.ERROR_CLASSES.items():
        assert cls.code == code and issubclass(cls, m.NativeAuthError)
        assert cls("x").name == library[code]
