"""Claims requests, correlation ids and the refresh token in a token result, against the emulator:
the claims challenge of its API 2 (conditional access) satisfied in the browser."""

from __future__ import annotations

import asyncio
import base64
import json
import uuid

import pytest

import msal_native_auth as m
from conftest import PROFILE, TODOLIST, Emulator
from test_browser import ADA, drive

ACRS_C1 = {"access_token": {"acrs": {"essential": True, "value": "c1"}}}


def test_a_claims_challenge_of_api_2_is_satisfied_in_the_browser(conditional_access_emulator: Emulator, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("BROWSER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    emulator = conditional_access_emulator
    with emulator.app() as app:
        step = app.sign_in(*ADA)
        assert isinstance(step, m.SignedIn) and step.account is not None
        account = step.account
        # API 1 takes the native token; API 2 answers 401 with a claims challenge.
        assert emulator.call_api("/api/todolist", account.get_access_token(TODOLIST).access_token)["user"] == ADA[0]
        status, header = emulator.api_answer("/api/profile", account.get_access_token(PROFILE).access_token)
        assert status == 401 and "insufficient_claims" in header
        claims = m.claims_from_challenge(header)
        assert claims is not None and json.loads(claims) == ACRS_C1
        # The refresh token cannot satisfy the context: the error says to go to the browser.
        with pytest.raises(m.MFARequiredError) as caught:
            account.get_access_token(PROFILE, claims=claims)
        assert 50076 in caught.value.error_codes
        # The browser sign-in with the same claims gives a token API 2 accepts.
        result = app.acquire_token_interactive([PROFILE], claims=claims, login_hint=ADA[0], on_sign_in_url=drive(username=ADA[0], password=ADA[1]))
        assert result.token is not None
        assert "c1" in _payload(result.token.access_token)["acrs"]
        assert emulator.api_answer("/api/profile", result.token.access_token) == (200, "")
        # Its refresh token now satisfies c1: the native account gets such tokens silently.
        again = account.get_access_token(PROFILE, claims=ACRS_C1)
        assert emulator.api_answer("/api/profile", again.access_token) == (200, "")
        step.close()


def _payload(token: str) -> dict:
    part = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def test_claims_from_challenge_reads_base64_and_refuses_bad_input() -> None:
    encoded = base64.b64encode(json.dumps(ACRS_C1).encode()).decode()
    header = f'Bearer realm="", authorization_uri="https://x/authorize", error="insufficient_claims", claims="{encoded}"'
    assert json.loads(m.claims_from_challenge(header) or "{}") == ACRS_C1
    assert m.claims_from_challenge('Bearer error="invalid_token"') is None
    assert m.claims_from_challenge("") is None
    with pytest.raises(TypeError):
        m.claims_from_challenge(None)  # type: ignore[arg-type]
    with pytest.raises(m.InvalidArgumentError):
        m.claims_from_challenge(b'claims="\xff"')
    assert m.live_strings() == 0


def test_native_sign_in_with_claims_asks_for_the_second_factor(conditional_access_emulator: Emulator) -> None:
    # Ada signs in with a password alone; an acrs claims request needs a second factor, and she has
    # no method yet: registration, or without the capability the way to the browser.
    with conditional_access_emulator.app() as app:
        plain = app.sign_in(*ADA, scopes=[PROFILE])
        assert isinstance(plain, m.SignedIn)
        with app.sign_in(*ADA, scopes=[PROFILE], claims=ACRS_C1) as step:
            assert isinstance(step, m.RegistrationRequired)
        plain.close()
    with conditional_access_emulator.app(capabilities=[]) as app, pytest.raises(m.RegistrationRequiredError):
        app.sign_in(*ADA, scopes=[PROFILE], claims=json.dumps(ACRS_C1))


def test_correlation_ids_reach_the_service_and_come_back(emulator: Emulator) -> None:
    flow = uuid.uuid4()
    with emulator.app() as app:
        step = app.sign_in("grace@example.com", correlation_id=flow)
        assert isinstance(step, m.CodeRequired) and step.state is not None
        done = step.state.submit_code(emulator.code("grace@example.com", "sign_in"))
        assert isinstance(done, m.SignedIn) and done.account is not None
        sent = [entry for entry in emulator.requests() if entry.get("client_request_id", "").lower() == str(flow)]
        endpoints = {entry["endpoint"].rsplit("/", 1)[-1] for entry in sent}
        assert endpoints >= {"initiate", "challenge", "token"}, endpoints  # every step of the flow
        token_id = uuid.uuid4()
        token = done.account.get_access_token(TODOLIST, correlation_id=str(token_id), force_refresh=True)
        assert token.correlation_id == str(token_id)
        assert any(entry.get("client_request_id", "").lower() == str(token_id) for entry in emulator.requests())
        with pytest.raises(m.InvalidCredentialsError) as caught:
            app.sign_in("ada@example.com", password="wrong", correlation_id=flow)
        assert caught.value.correlation_id == str(flow)
        reset = uuid.uuid4()
        with pytest.raises(m.UserNotFoundError) as not_found:
            app.reset_password("nobody@example.com", correlation_id=reset)
        assert not_found.value.correlation_id == str(reset)
        signed_up = uuid.uuid4()
        with pytest.raises(m.UserAlreadyExistsError) as exists:
            app.sign_up("ada@example.com", password="Correct-Horse-Battery-9", attributes={"displayName": "A"}, correlation_id=signed_up)
        assert exists.value.correlation_id == str(signed_up)
        step.close()


def test_the_refresh_token_only_when_asked(emulator: Emulator) -> None:
    with emulator.app() as app:
        step = app.sign_in(*ADA)
        assert isinstance(step, m.SignedIn) and step.account is not None
        plain = step.account.get_access_token(TODOLIST)
        assert plain.refresh_token is None
        with_refresh = step.account.get_access_token(TODOLIST, return_refresh_token=True)
        assert with_refresh.refresh_token and with_refresh.refresh_token not in repr(with_refresh)
        assert with_refresh.access_token == plain.access_token  # still from the cache
        # Scopes as bytes, as the plain call takes them; invalid UTF-8 is refused before anything is sent.
        assert step.account.get_access_token(TODOLIST.encode(), return_refresh_token=True).scopes == with_refresh.scopes
        with pytest.raises(m.InvalidArgumentError, match="'scopes'"):
            step.account.get_access_token(b"\xff", return_refresh_token=True)
        step.close()


def test_async_forms_of_the_options(emulator: Emulator) -> None:
    flow = uuid.uuid4()

    async def flows(app: m.PublicClientApplication) -> None:
        step = await app.sign_in_async(*ADA, correlation_id=flow)
        assert isinstance(step, m.SignedIn) and step.account is not None
        token = await step.account.get_access_token_async(TODOLIST, return_refresh_token=True, correlation_id=flow)
        assert token.refresh_token and token.correlation_id == str(flow)
        with pytest.raises(m.UserNotFoundError) as caught:
            await app.reset_password_async("nobody@example.com", correlation_id=flow)
        assert caught.value.correlation_id == str(flow)
        username = f"opt-{uuid.uuid4().hex[:8]}@example.com"
        sign_up = await app.sign_up_async(username, password="Correct-Horse-Battery-9", attributes={"displayName": "O"}, correlation_id=flow)
        assert isinstance(sign_up, m.CodeRequired)
        sign_up.close()
        step.close()

    with emulator.app() as app:
        asyncio.run(flows(app))


@pytest.mark.parametrize(
    ("options", "error", "fragment"),
    [
        ({"claims": "not json"}, m.InvalidArgumentError, "'claims'"),
        ({"claims": {"id_token": 5}}, m.InvalidArgumentError, "'claims'"),
        ({"claims": ["a"]}, TypeError, "claims"),
        ({"correlation_id": "1234"}, m.InvalidArgumentError, "'correlation_id'"),
        ({"correlation_id": 1234}, TypeError, "correlation_id"),
    ],
)
def test_bad_options_are_refused_and_nothing_is_lost(emulator: Emulator, options: dict, error: type, fragment: str) -> None:
    with emulator.app() as app:
        step = app.sign_in(*ADA)
        assert isinstance(step, m.SignedIn) and step.account is not None
        before = len(emulator.requests())
        with pytest.raises(error) as caught:
            step.account.get_access_token(TODOLIST, **options)
        assert fragment in str(caught.value)
        with pytest.raises(error):
            app.sign_in(*ADA, **options)
        assert len(emulator.requests()) == before  # nothing was sent
        assert step.account.get_access_token(TODOLIST).access_token  # the account still works
        step.close()
