"""The browser sign-in from Python against the emulator's authorize page, driven by a scripted
browser (scripted_browser.py): as the app's URL callback, as the system browser ($BROWSER), the
fallback, cancellation, the async form, and the way on from native dead ends."""

from __future__ import annotations

import asyncio
import sys
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Callable, List

import pytest

import msal_native_auth as m
import scripted_browser
from conftest import TODOLIST, Emulator

HERE = Path(__file__).resolve().parent
ADA = ("ada@example.com", "Analytical-Engine-1843")


def drive(**how: object) -> Callable[[m.SignInURL], None]:
    """A URL callback that signs in on the page in a thread of its own (the callback returns at once)."""

    def show(address: m.SignInURL) -> None:
        threading.Thread(target=lambda: _quietly(address.url, how), daemon=True).start()

    return show


def _quietly(url: str, how: dict) -> None:
    try:
        scripted_browser.sign_in(url, **how)  # type: ignore[arg-type]
    except scripted_browser.Stop:
        pass  # the sign-in's own outcome tells the test what happened


def browser_command(*arguments: str) -> str:
    """A $BROWSER entry that runs the scripted browser (the SDK appends the URL)."""
    return " ".join([sys.executable, str(HERE / "scripted_browser.py"), *arguments])


@pytest.fixture()
def no_system_browser(monkeypatch: pytest.MonkeyPatch) -> None:
    """No $BROWSER, no display, not WSL: no browser can start."""
    for name in ("BROWSER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)


def wait_until_idle() -> None:
    """A cancelled sign-in answers shortly after; the next may start once it has."""
    for _ in range(400):
        if m.cancel_browser_sign_in() == 0:
            return
        time.sleep(0.01)
    raise AssertionError("a browser sign-in is still running")


def test_the_app_shows_the_address_and_the_page_signs_in(emulator: Emulator, no_system_browser: None) -> None:
    shown: List[str] = []

    def show(address: m.SignInURL) -> None:
        shown.append(address.url)
        assert address.short_url is None and address.ssh_command is None  # the app's own view: the URL only
        drive(username=ADA[0], password=ADA[1])(address)

    with emulator.app() as app:
        result = app.acquire_token_interactive([TODOLIST], login_hint=ADA[0], on_sign_in_url=show)
        assert isinstance(result, m.BrowserSignedIn) and isinstance(result, m.SignedIn)
        assert result.account is not None and result.account.username == ADA[0]
        assert result.token is not None and TODOLIST in result.token.scopes and result.token.correlation_id
        assert emulator.call_api("/api/todolist", result.token.access_token)["user"] == ADA[0]
        # The authorize request: PKCE (S256), the loopback redirect, the hint.
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(shown[0]).query)
        assert shown[0].startswith(emulator.authority + "/oauth2/v2.0/authorize?")
        assert query["code_challenge_method"] == ["S256"] and query["login_hint"] == [ADA[0]]
        assert query["redirect_uri"][0].startswith("http://localhost:")
        # The tokens are in the application's cache: the native surface sees the account.
        current = app.current_account()
        assert current is not None and current.username == ADA[0]
        assert current.get_access_token(TODOLIST).access_token == result.token.access_token
        result.account.close()
        current.close()


def test_the_system_browser_by_default(emulator: Emulator, no_system_browser: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    record = tmp_path / "opened.txt"
    monkeypatch.setenv("BROWSER", browser_command("--record", str(record), "--email-code", "grace@example.com"))
    with emulator.app() as app:
        result = app.acquire_token_interactive(TODOLIST)
        assert result.account is not None and result.account.username == "grace@example.com"
    assert record.read_text().startswith(emulator.authority + "/oauth2/v2.0/authorize?")


def test_the_callback_only_when_no_system_browser_starts(emulator: Emulator, no_system_browser: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BROWSER", "/bin/false")  # exits 1 at once: not a browser
    monkeypatch.setenv("SSH_CONNECTION", "198.51.100.7 50022 203.0.113.5 2222")  # as sshd sets it
    monkeypatch.setenv("USER", "ada")
    shown: List[m.SignInURL] = []

    def show(address: m.SignInURL) -> None:
        shown.append(address)
        # The browser opens the short address, which redirects to the authorize page (the URL when
        # there is none, so that the checks below report it).
        opened = address.short_url or address.url
        threading.Thread(target=lambda: _quietly(opened, {"username": ADA[0], "password": ADA[1]}), daemon=True).start()

    with emulator.app() as app:
        # A timeout: a browser that could not follow the short address ends the test instead of hanging it.
        result = app.acquire_token_interactive([TODOLIST], on_sign_in_url=show, use_system_browser=True, timeout=60)
        assert result.account is not None and result.account.username == ADA[0]
    assert len(shown) == 1 and shown[0].url.startswith(emulator.authority + "/oauth2/v2.0/authorize?")
    short = urllib.parse.urlsplit(shown[0].short_url or "")
    assert (short.scheme, short.hostname) == ("http", "localhost") and len(short.path) == 9 and not short.query
    # The listener's port, then the emulator's (a loopback authority), the SSH server's port and who to connect to.
    service = urllib.parse.urlsplit(emulator.authority)
    assert shown[0].ssh_command == (
        f"ssh -L {short.port}:localhost:{short.port} -L {service.port}:{service.hostname}:{service.port} -p 2222 ada@203.0.113.5"
    )
    # With a working system browser, the callback is not called.
    monkeypatch.setenv("BROWSER", browser_command("--password", *ADA))
    shown.clear()
    with emulator.app() as app:
        assert app.acquire_token_interactive([TODOLIST], on_sign_in_url=show, use_system_browser=True).account is not None
    assert shown == []


def test_no_browser_and_no_callback_fails_at_once(emulator: Emulator, no_system_browser: None) -> None:
    with emulator.app() as app, pytest.raises(m.NoBrowserError) as caught:
        app.acquire_token_interactive([TODOLIST])
    assert "BROWSER" in caught.value.message


def test_cancellation_from_the_callback_another_thread_the_page_and_the_timeout(emulator: Emulator, no_system_browser: None) -> None:
    with emulator.app() as app:
        with pytest.raises(m.UserCanceledError):
            app.acquire_token_interactive([TODOLIST], on_sign_in_url=lambda address: m.cancel_browser_sign_in())
        wait_until_idle()

        shown = threading.Event()
        canceller = threading.Thread(target=lambda: shown.wait(30) and m.cancel_browser_sign_in())
        canceller.start()
        with pytest.raises(m.UserCanceledError):
            app.acquire_token_interactive([TODOLIST], on_sign_in_url=lambda address: shown.set())
        canceller.join()
        wait_until_idle()

        with pytest.raises(m.UserCanceledError):  # the page's Cancel button
            app.acquire_token_interactive([TODOLIST], on_sign_in_url=drive(cancel=True))
        wait_until_idle()

        with pytest.raises(m.UserCanceledError):  # nobody signs in: the timeout ends it
            app.acquire_token_interactive([TODOLIST], on_sign_in_url=lambda address: None, timeout=0.5)
        wait_until_idle()
        # Nothing was left behind: the next sign-in works.
        assert app.acquire_token_interactive([TODOLIST], on_sign_in_url=drive(username=ADA[0], password=ADA[1])).account is not None


def test_one_browser_sign_in_at_a_time(emulator: Emulator, no_system_browser: None) -> None:
    with emulator.app() as app:
        first_shown = threading.Event()
        outcome: List[BaseException] = []

        def first() -> None:
            try:
                app.acquire_token_interactive([TODOLIST], on_sign_in_url=lambda address: first_shown.set())
            except m.NativeAuthError as error:
                outcome.append(error)

        thread = threading.Thread(target=first)
        thread.start()
        assert first_shown.wait(30)
        with pytest.raises(m.BrowserSessionRunningError):
            app.acquire_token_interactive([TODOLIST], on_sign_in_url=lambda address: None)
        m.cancel_browser_sign_in()
        thread.join()
        assert isinstance(outcome[0], m.UserCanceledError)
        wait_until_idle()


def test_async_form_and_task_cancellation(emulator: Emulator, no_system_browser: None) -> None:
    async def flows(app: m.PublicClientApplication) -> None:
        result = await app.acquire_token_interactive_async(
            [TODOLIST], login_hint=ADA[0], on_sign_in_url=drive(username=ADA[0], password=ADA[1])
        )
        assert result.account is not None and result.account.username == ADA[0]
        shown = asyncio.Event()
        loop = asyncio.get_running_loop()
        task = asyncio.create_task(
            app.acquire_token_interactive_async([TODOLIST], on_sign_in_url=lambda address: loop.call_soon_threadsafe(shown.set))
        )
        await asyncio.wait_for(shown.wait(), 30)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        # The cancelled task ended the sign-in in the library too: the next one can start.
        for _ in range(500):
            try:
                again = await app.acquire_token_interactive_async([TODOLIST], on_sign_in_url=drive(username=ADA[0], password=ADA[1]))
                break
            except m.BrowserSessionRunningError:
                await asyncio.sleep(0.01)
        else:
            raise AssertionError("the cancelled sign-in is still running")
        assert again.account is not None
        with pytest.raises(m.UserCanceledError):
            await app.acquire_token_interactive_async([TODOLIST], on_sign_in_url=drive(cancel=True))

    with emulator.app() as app:
        asyncio.run(flows(app))
    wait_until_idle()


def test_browser_required_is_no_longer_a_dead_end(emulator: Emulator, no_system_browser: None) -> None:
    # An app that cannot send email codes: Grace (codes only) needs the browser.
    with emulator.app(challenge_types=["password"]) as app:
        with pytest.raises(m.BrowserRequiredError):
            app.sign_in("grace@example.com")
        result = app.acquire_token_interactive(
            [TODOLIST], login_hint="grace@example.com", on_sign_in_url=drive(username="grace@example.com", email_code=True)
        )
        assert result.account is not None and result.account.username == "grace@example.com"
    # MFA needed but the app did not declare the capability: the browser does the second factor.
    with emulator.app(capabilities=[]) as app:
        with pytest.raises(m.MFARequiredError):
            app.sign_in("alan@example.com", password="Turing-Machine-1936")
        result = app.acquire_token_interactive(
            [TODOLIST], login_hint="alan@example.com", on_sign_in_url=drive(username="alan@example.com", password="Turing-Machine-1936")
        )
        assert result.account is not None and result.account.username == "alan@example.com"


def test_declined_scopes_say_which(emulator: Emulator, no_system_browser: None) -> None:
    write = "api://emulator/todolist/ToDoList.ReadWrite"
    with emulator.app() as app:
        with pytest.raises(m.DeclinedScopesError) as caught:
            app.acquire_token_interactive(
                [TODOLIST, write], prompt="consent", on_sign_in_url=drive(username=ADA[0], password=ADA[1], decline=(write,))
            )
        assert caught.value.declined_scopes == [write] and TODOLIST in caught.value.granted_scopes  # type: ignore[attr-defined]
        # The granted scope's token was cached: the account has it.
        account = app.account(username=ADA[0])
        assert account is not None and account.get_access_token(TODOLIST).access_token
        account.close()


@pytest.mark.parametrize(
    ("settings", "error", "fragment"),
    [
        ({"prompt": "sometimes"}, m.InvalidArgumentError, "'prompt'"),
        ({"timeout": -1}, m.InvalidArgumentError, "'timeout_seconds'"),
        ({"timeout": "soon"}, TypeError, "timeout"),
        ({"on_sign_in_url": 5}, TypeError, "callable"),
        ({"use_system_browser": False, "on_sign_in_url": None}, m.InvalidArgumentError, "on_sign_in_url"),
        ({"claims": "{not json"}, m.InvalidArgumentError, "'claims'"),
        ({"claims": {"colour": {}}}, m.InvalidArgumentError, "'claims'"),
        ({"claims": 7}, TypeError, "claims"),
        ({"correlation_id": "not-a-uuid"}, m.InvalidArgumentError, "'correlation_id'"),
        ({"extra_query_parameters": {"a": 1}}, m.InvalidArgumentError, "'extra_query_parameters'"),
        ({"login_hint": "\udcff"}, m.InvalidArgumentError, "options"),
    ],
)
def test_bad_settings_are_refused_before_anything_starts(
    emulator: Emulator, no_system_browser: None, settings: dict, error: type, fragment: str
) -> None:
    opened: List[str] = []
    with emulator.app() as app:
        with pytest.raises(error) as caught:
            app.acquire_token_interactive([TODOLIST], **{"on_sign_in_url": lambda address: opened.append(address.url), **settings})
        assert fragment in str(caught.value)
        assert opened == []  # no sign-in started
        assert m.cancel_browser_sign_in() == 0
        # Nothing lost: the app still signs in.
        assert app.acquire_token_interactive([TODOLIST], on_sign_in_url=drive(username=ADA[0], password=ADA[1])).account is not None


def test_bad_scopes_arguments_and_closed_apps(emulator: Emulator, no_system_browser: None) -> None:
    with emulator.app() as app:
        with pytest.raises(m.InvalidArgumentError) as caught:  # the SDK adds the OIDC scopes itself
            app.acquire_token_interactive(["openid", TODOLIST], on_sign_in_url=lambda address: None)
        assert "openid" in caught.value.message
        with pytest.raises(TypeError):
            app.acquire_token_interactive([TODOLIST, 5], on_sign_in_url=lambda address: None)  # type: ignore[list-item]
        with pytest.raises(TypeError):
            app.acquire_token_interactive_async([TODOLIST], colour="blue").send(None)
    with pytest.raises(m.InvalidArgumentError):  # closed: its handle is gone
        app.acquire_token_interactive([TODOLIST], on_sign_in_url=lambda address: None)
    assert m.cancel_browser_sign_in() == 0


def test_a_raising_url_callback_is_logged_and_the_sign_in_can_be_cancelled(
    emulator: Emulator, no_system_browser: None, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(address: m.SignInURL) -> None:
        try:
            raise RuntimeError("the app's own bug")
        finally:
            m.cancel_browser_sign_in()

    with emulator.app() as app, pytest.raises(m.UserCanceledError):
        app.acquire_token_interactive([TODOLIST], on_sign_in_url=broken)
    assert any("on_sign_in_url raised" in record.message for record in caplog.records)
    wait_until_idle()


def test_handles_and_strings_are_freed(emulator: Emulator, no_system_browser: None) -> None:
    before = m.live_handles()
    with emulator.app() as app:
        result = app.acquire_token_interactive([TODOLIST], on_sign_in_url=drive(username=ADA[0], password=ADA[1]))
        assert result.account is not None
        result.account.close()
        with pytest.raises(m.UserCanceledError):
            app.acquire_token_interactive([TODOLIST], on_sign_in_url=drive(cancel=True))
    wait_until_idle()
    assert m.live_handles() == before
    assert m.live_strings() == 0
