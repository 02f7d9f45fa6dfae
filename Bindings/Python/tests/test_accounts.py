"""Several accounts: listing, look-ups, tokens and sign-out per account, MSAL's one-account default."""

from __future__ import annotations

from pathlib import Path

import pytest

import msal_native_auth as m
from conftest import TODOLIST, Emulator
from test_browser import ADA


def test_several_accounts_side_by_side(emulator: Emulator) -> None:
    with emulator.app(allows_multiple_accounts=True) as app:
        assert app.accounts() == []
        first = app.sign_in(*ADA)
        second = app.sign_in("alan@example.com", password="Turing-Machine-1936")
        assert isinstance(first, m.SignedIn) and isinstance(second, m.MFARequired) and second.state is not None
        sent = second.state.request_challenge(second.auth_methods[0])
        assert isinstance(sent, m.CodeRequired) and sent.state is not None
        assert isinstance(sent.state.submit_code(emulator.code("alan@example.com", "mfa")), m.SignedIn)
        accounts = app.accounts()
        assert sorted(account.username or "" for account in accounts) == [ADA[0], "alan@example.com"]
        ada = app.account(username="ADA@example.com")  # case-insensitive
        assert ada is not None and ada.username == ADA[0]
        by_id = app.account(home_account_id=ada.home_account_id or "")
        assert by_id is not None and by_id.username == ADA[0]
        # A token for the account that is not the current one, and its own sign-out.
        token = ada.get_access_token(TODOLIST, force_refresh=True)
        assert emulator.call_api("/api/todolist", token.access_token)["user"] == ADA[0]
        ada.sign_out()
        assert [account.username for account in app.accounts()] == ["alan@example.com"]
        assert app.account(username=ADA[0]) is None
        for account in accounts + [ada, by_id]:
            account.close()
        first.close()


def test_one_account_by_default_as_msal(emulator: Emulator) -> None:
    with emulator.app() as app:
        app.sign_in(*ADA).close()
        app.sign_in("alan@example.com", password="Turing-Machine-1936").close()  # MFA pending: ada stays
        app.sign_in("grace@example.com").close()
        assert [account.username for account in app.accounts()] == [ADA[0]]
        username = emulator.new_user(password="Pass-word-5555")
        app.sign_in(username, password="Pass-word-5555").close()
        assert [account.username for account in app.accounts()] == [username]  # replaced


def test_more_accounts_than_the_first_guess(emulator: Emulator, tmp_path: Path) -> None:
    names = [emulator.new_user(password="Pass-word-6666") for _ in range(6)]
    config = {**emulator.config(), "cache": "default", "cache_file": str(tmp_path / "cache.json"), "allows_multiple_accounts": True}
    with m.PublicClientApplication(config) as app:
        for name in names:
            app.sign_in(name, password="Pass-word-6666").close()
        listed = app.accounts()
        assert sorted(account.username or "" for account in listed) == sorted(names)
        for account in listed:
            account.close()
    before = m.live_handles()
    with m.PublicClientApplication(config) as again:  # from the file, in another application
        assert len(again.accounts()) == 6
    assert m.live_handles() == before


def test_bad_look_ups(emulator: Emulator) -> None:
    with emulator.app() as app:
        with pytest.raises(TypeError):
            app.account()
        with pytest.raises(TypeError):
            app.account(username="a", home_account_id="b")
        with pytest.raises(m.InvalidArgumentError):
            app.account(username=b"\xff")
        assert app.account(home_account_id="nobody.nowhere") is None
        assert app.last_cache_error() is None
        from msal_native_auth._native import lib

        count = __import__("ctypes").c_size_t(99)
        assert lib.msal_na_app_accounts(app.handle, None, 3, __import__("ctypes").byref(count)) == m.InvalidArgumentError.code
        assert count.value == 0
        assert lib.msal_na_app_accounts(app.handle, None, 0, None) == m.InvalidArgumentError.code
    with pytest.raises(m.InvalidArgumentError):
        app.accounts()
    with pytest.raises(m.InvalidArgumentError):
        app.last_cache_error()


def test_a_cache_problem_is_reported(emulator: Emulator, tmp_path: Path) -> None:
    cache = tmp_path / "cache.json"
    cache.write_text("{ not json")
    with m.PublicClientApplication({**emulator.config(), "cache": "default", "cache_file": str(cache)}) as app:
        assert app.accounts() == []  # the corrupt file is set aside and the cache starts empty
        error = app.last_cache_error()
        assert isinstance(error, m.CacheError) and "corrupt" in error.message
