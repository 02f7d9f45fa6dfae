"""Access tokens through the fast path (msal_na_account_get_access_token_into, _token.py)."""

from __future__ import annotations

import threading
from datetime import datetime, timezone
from pathlib import Path

import pytest

import msal_native_auth as m
from msal_native_auth import _token
from conftest import PROFILE, TODOLIST, Emulator


def signed_in(app: m.PublicClientApplication) -> m.Account:
    step = app.sign_in("ada@example.com", password="Analytical-Engine-1843")
    assert isinstance(step, m.SignedIn) and step.account is not None
    return step.account


def test_a_cached_token_is_the_same_token_and_then_the_same_object(emulator: Emulator) -> None:
    with emulator.app() as app, signed_in(app) as account:
        first = account.get_access_token([TODOLIST])
        assert first.correlation_id  # the full call's
        assert TODOLIST in first.scopes
        assert isinstance(first.expires_on, datetime) and first.expires_on > datetime.now(timezone.utc)
        again = [account.get_access_token([TODOLIST]) for _ in range(5)]
        assert all(token == first for token in again)
        assert again[-1] is again[-2]  # the steady state builds nothing
        # A string of scopes and a list of them are one scopes value to the library.
        assert account.get_access_token(TODOLIST).access_token == first.access_token
        profile = account.get_access_token(PROFILE)
        assert profile.access_token != first.access_token and PROFILE in profile.scopes
        assert emulator.call_api("/api/profile", account.get_access_token(PROFILE).access_token)["name"] == "Ada Lovelace"
        with pytest.raises(AttributeError):
            first.access_token = "changed"  # type: ignore[misc]
        assert first.access_token not in repr(first)


def test_force_refresh_gives_a_new_token_that_later_calls_serve(emulator: Emulator) -> None:
    with emulator.app() as app, signed_in(app) as account:
        old = account.get_access_token(TODOLIST)
        new = account.get_access_token(TODOLIST, force_refresh=True)
        assert new.access_token != old.access_token and new.correlation_id != old.correlation_id
        assert account.get_access_token(TODOLIST).access_token == new.access_token


def test_a_token_larger_than_the_buffer_grows_it(emulator: Emulator, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_token, "INITIAL_CAPACITY", 16)
    tokens = []

    def in_a_new_thread() -> None:  # a thread of its own: a fresh buffer of the patched size
        with emulator.app() as app, signed_in(app) as account:
            reference = account.get_access_token(TODOLIST)
            tokens.extend(account.get_access_token(TODOLIST) for _ in range(3))
            tokens.append(reference)
            assert _token._slots.slot.capacity >= len(reference.access_token)

    thread = threading.Thread(target=in_a_new_thread)
    thread.start()
    thread.join()
    assert len(tokens) == 4 and len({token.access_token for token in tokens}) == 1
    assert len(tokens[0].access_token) > 16


def test_no_token_after_sign_out_even_on_the_fast_path(emulator: Emulator) -> None:
    with emulator.app() as app, signed_in(app) as account:
        for _ in range(3):
            account.get_access_token(TODOLIST)
        account.sign_out()
        with pytest.raises(m.NativeAuthError) as caught:
            account.get_access_token(TODOLIST)
        assert caught.value.code not in (0, 29)


def test_another_process_refresh_is_seen_by_the_next_call(emulator: Emulator, tmp_path: Path) -> None:
    config = {**emulator.config(), "cache": "default", "cache_file": str(tmp_path / "cache.json")}
    with m.PublicClientApplication(config) as app, signed_in(app) as account:
        served = [account.get_access_token(TODOLIST) for _ in range(3)][-1]
        with m.PublicClientApplication(config) as other:
            other_account = other.current_account()
            assert other_account is not None
            with other_account:
                refreshed = other_account.get_access_token(TODOLIST, force_refresh=True)
        assert refreshed.access_token != served.access_token
        assert account.get_access_token(TODOLIST).access_token == refreshed.access_token


def test_bad_arguments_and_closed_accounts(emulator: Emulator) -> None:
    with emulator.app() as app:
        account = signed_in(app)
        with pytest.raises(m.InvalidArgumentError):
            account.get_access_token("\ud800")  # not encodable as UTF-8
        with pytest.raises(m.InvalidArgumentError):
            account.get_access_token(b"\xc3\x28")  # bytes pass through; the library checks UTF-8
        account.close()
        with pytest.raises(m.InvalidArgumentError):
            account.get_access_token(TODOLIST)


def test_threads_share_an_account(emulator: Emulator) -> None:
    with emulator.app() as app, signed_in(app) as account:
        expected = account.get_access_token(TODOLIST).access_token
        seen: list = [None] * 8

        def work(index: int) -> None:
            seen[index] = [account.get_access_token(TODOLIST if i % 2 else PROFILE).access_token for i in range(300)]

        threads = [threading.Thread(target=work, args=(index,)) for index in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for tokens in seen:
            assert tokens[1::2] == [expected] * 150 and expected not in tokens[0::2]


def test_a_token_refreshed_through_another_account_object_is_seen_on_the_fast_path(emulator: Emulator) -> None:
    # Two objects for one signed-in user share the application's cache, and so its fast path.
    with emulator.app() as app, signed_in(app) as first:
        second = app.current_account()
        assert second is not None
        with second:
            old = [second.get_access_token(TODOLIST) for _ in range(3)][-1]
            new = first.get_access_token(TODOLIST, force_refresh=True)
            assert first.get_access_token(TODOLIST) == new  # the full way once (the cache changed): remembered
            assert second.get_access_token(TODOLIST).access_token == new.access_token != old.access_token
