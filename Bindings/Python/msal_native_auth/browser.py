"""The browser sign-in (MSAL's ``acquireToken``): the way on when a native step raises
``BrowserRequiredError``, when MFA or registration is needed without the capability, or when an
API answers with a claims challenge (``msal_na_app_acquire_token``, Bindings/C/include/msal_native_auth.h).

    try:
        step = app.sign_in(username, password=password)
    except msal_native_auth.BrowserRequiredError:
        step = app.acquire_token_interactive([TODOLIST], login_hint=username)   # the system browser
    account = step.account

Each function takes the application, a PublicClientApplication (client.py, whose methods call them).
"""

from __future__ import annotations

import asyncio
import ctypes
import itertools
import threading
from dataclasses import dataclass
from typing import Callable, Dict, Mapping, Optional, Sequence

from . import _native, options
from ._calls import Scopes, _Handle
from ._native import CALLBACK, lib
from ._token import AccessToken
from .errors import InvalidArgumentError
from .results import Account, SignedIn, _outcome, _start, _wait

_HANDLE = ctypes.c_void_p
_STRING = ctypes.c_char_p
_OUT = ctypes.POINTER(ctypes.c_void_p)


class _SignInURLStruct(ctypes.Structure):
    """``msal_na_sign_in_url``: read a field only when it lies within ``size``."""

    _fields_ = [("size", ctypes.c_size_t), ("url", ctypes.c_char_p), ("short_url", ctypes.c_char_p), ("ssh_command", ctypes.c_char_p)]

    def text(self, name: str) -> Optional[str]:
        """The field ``name`` as text; None when it is NULL or beyond ``size`` (an older library)."""
        field = getattr(type(self), name)
        if self.size < field.offset + field.size:
            return None
        value = getattr(self, name)
        return value.decode("utf-8") if value else None


_URL_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.POINTER(_SignInURLStruct), ctypes.c_void_p)

_native.declare(
    {
        "msal_na_app_acquire_token": (ctypes.c_int, [_HANDLE, _STRING, _URL_CALLBACK, ctypes.c_void_p, CALLBACK, ctypes.c_void_p]),
        "msal_na_app_acquire_token_wait": (ctypes.c_int, [_HANDLE, _STRING, _URL_CALLBACK, ctypes.c_void_p, _OUT]),
        "msal_na_cancel_browser": (ctypes.c_int, []),
    }
)


@dataclass(frozen=True)
class SignInURL:
    """Where the user signs in: open ``url`` in a browser on this machine (or on another one whose
    browser reaches this machine's loopback, for example through ``ssh -L``).

    When no system browser started (``use_system_browser=True``), also ``short_url``, the SDK
    listener's ``http://localhost:PORT/`` address that redirects to ``url`` while the sign-in waits,
    and ``ssh_command``, the ``ssh -L`` line to run on the person's own machine so that it reaches
    this one; both None when the app shows the address itself."""

    url: str
    short_url: Optional[str] = None
    ssh_command: Optional[str] = None


@dataclass
class BrowserSignedIn(SignedIn):
    """A browser sign-in's result: the ``account`` (as after a native sign-in) and its first ``token``."""

    token: Optional[AccessToken] = None


# The URL callbacks of running sign-ins, by ticket: one ctypes trampoline for the process.
_handlers: Dict[int, Callable[[SignInURL], None]] = {}
_handlers_lock = threading.Lock()
_tickets = itertools.count(1)


@_URL_CALLBACK
def _on_sign_in_url(info: "ctypes._Pointer[_SignInURLStruct]", user_data: Optional[int]) -> None:
    with _handlers_lock:
        handler = _handlers.get(user_data or 0)
    if handler is None or not info:
        return
    raw = info.contents
    url = raw.text("url")
    if url is None:
        return
    try:
        handler(SignInURL(url, raw.text("short_url"), raw.text("ssh_command")))
    except Exception:  # noqa: BLE001 - on a library thread, nobody to raise to
        import logging

        logging.getLogger("msal_native_auth").exception("on_sign_in_url raised; the sign-in waits for the browser anyway")


def _converted(result: int) -> BrowserSignedIn:
    """The token and the account of a browser sign-in (or its error, raised); frees the result."""
    account = lib.msal_na_result_take_account(result) if lib.msal_na_result_error(result) == 0 else None
    token = _outcome(result)  # raises the error; frees the result
    return BrowserSignedIn(None, Account(account) if account else None, token=token)


def _request(
    scopes: Scopes, login_hint: Optional[str], claims: Optional[options.Claims], correlation_id: Optional[options.CorrelationId],
    prompt: Optional[str], domain_hint: Optional[str], extra_scopes_to_consent: Optional[Sequence[str]],
    extra_query_parameters: Optional[Mapping[str, str]], timeout: Optional[float], on_sign_in_url: Optional[Callable[[SignInURL], None]],
    use_system_browser: Optional[bool],
) -> "tuple[Optional[bytes], int]":
    if on_sign_in_url is not None and not callable(on_sign_in_url):
        raise TypeError("on_sign_in_url must be callable")
    if use_system_browser is False and on_sign_in_url is None:
        raise InvalidArgumentError("use_system_browser=False needs on_sign_in_url to show the address", code=1)
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float))):
        raise TypeError("timeout must be a number of seconds")
    encoded = options.encode(
        scopes=options.scope_list(scopes), login_hint=login_hint, claims=claims, correlation_id=correlation_id, prompt=prompt,
        domain_hint=domain_hint, extra_scopes_to_consent=options.scope_list(extra_scopes_to_consent),
        extra_query_parameters=extra_query_parameters, timeout_seconds=timeout,
        system_browser=None if use_system_browser is None else bool(use_system_browser),
    )
    ticket = 0
    if on_sign_in_url is not None:
        ticket = next(_tickets)
        with _handlers_lock:
            _handlers[ticket] = on_sign_in_url
    return encoded, ticket


def _forget(ticket: int) -> None:
    with _handlers_lock:
        _handlers.pop(ticket, None)


def acquire_token_interactive(
    app: _Handle, scopes: Scopes = None, *, login_hint: Optional[str] = None, claims: Optional[options.Claims] = None,
    correlation_id: Optional[options.CorrelationId] = None, prompt: Optional[str] = None, domain_hint: Optional[str] = None,
    extra_scopes_to_consent: Optional[Sequence[str]] = None, extra_query_parameters: Optional[Mapping[str, str]] = None,
    timeout: Optional[float] = None, on_sign_in_url: Optional[Callable[[SignInURL], None]] = None,
    use_system_browser: Optional[bool] = None,
) -> BrowserSignedIn:
    """Signs the user in in a browser and returns the account and a token for ``scopes``; the
    tokens go to the application's cache (``app.accounts()``, ``app.current_account()``).

    Who shows the page: without ``on_sign_in_url`` the system browser (``$BROWSER``, ``xdg-open``
    with a display, ``wslview``), else NoBrowserError. With ``on_sign_in_url(SignInURL)`` the app
    shows it itself (print it, open a view) and the call waits for the redirect; add
    ``use_system_browser=True`` to try the system browser first and call it only when none starts
    (then with ``short_url`` and ``ssh_command`` as well: print them over SSH).
    The callback runs on a thread of the library and must return without waiting for the sign-in.

    ``prompt``: "select_account", "login", "consent", "create" or "if_necessary" (default).
    ``timeout``: seconds to wait for the user (default: until cancelled). The blocking call is
    cancelled from another thread (or the callback) with ``cancel_browser_sign_in()``:
    UserCanceledError. Other errors: BrowserSessionRunningError, InteractionRequiredError,
    DeclinedScopesError, InvalidScopeError, NetworkError, InvalidArgumentError.
    """
    encoded, ticket = _request(
        scopes, login_hint, claims, correlation_id, prompt, domain_hint, extra_scopes_to_consent, extra_query_parameters, timeout,
        on_sign_in_url, use_system_browser,
    )
    callback = _on_sign_in_url if ticket else _URL_CALLBACK()
    try:
        return _wait(lib.msal_na_app_acquire_token_wait, app.handle, encoded, callback, ctypes.c_void_p(ticket), convert=_converted)
    finally:
        _forget(ticket)


async def acquire_token_interactive_async(app: _Handle, scopes: Scopes = None, **settings: object) -> BrowserSignedIn:
    """The coroutine form of ``acquire_token_interactive`` (same arguments). Cancelling the task
    cancels the sign-in."""
    encoded, ticket = _request(scopes, **_settings(settings))
    callback = _on_sign_in_url if ticket else _URL_CALLBACK()
    try:
        return await _start(lib.msal_na_app_acquire_token, app.handle, encoded, callback, ctypes.c_void_p(ticket), convert=_converted)
    except asyncio.CancelledError:
        cancel_browser_sign_in()
        raise
    finally:
        _forget(ticket)


_SETTINGS = (
    "login_hint", "claims", "correlation_id", "prompt", "domain_hint", "extra_scopes_to_consent", "extra_query_parameters", "timeout",
    "on_sign_in_url", "use_system_browser",
)


def _settings(settings: Mapping[str, object]) -> Dict[str, object]:
    unknown = sorted(set(settings) - set(_SETTINGS))
    if unknown:
        raise TypeError(f"acquire_token_interactive_async() got unexpected keyword arguments: {', '.join(unknown)}")
    return {name: settings.get(name) for name in _SETTINGS}


def cancel_browser_sign_in() -> int:
    """Ends the browser sign-ins started through this package (or the C library) that have not
    finished (each raises UserCanceledError), even one whose browser is not open yet; returns how
    many there were."""
    return int(lib.msal_na_cancel_browser())

