"""The Pythonic API over the C interface: the application, and the process-wide functions (handle
counts, the library's version, logging, the detach at exit). What its calls return: results.py."""

from __future__ import annotations

import atexit
import ctypes
import enum
import json
from os import PathLike
from typing import Any, Callable, List, Mapping, Optional, Union

from . import _native, accounts, browser, interceptor, options, v2
from ._calls import Scopes, Text, _bytes, _check, _Handle, _scopes
from ._native import lib
from .errors import NativeAuthError, NoAccountError
from .results import Account, FlowState, StateKind, Step, _start, _wait


class PublicClientApplication(_Handle):
    """Native authentication against one External ID app registration.

    ``config`` is the JSON configuration of the C interface, as a mapping or a JSON string:
    ``client_id``, ``tenant_subdomain`` or ``authority``, and optionally ``challenge_types``,
    ``capabilities``, ``cache_file`` or ``"token_cache": "memory"``, ``request_timeout_seconds``;
    ``allows_multiple_accounts``; ``"token_cache": "keyring"`` with a ``keyring`` object, or
    ``"token_cache": "redis"`` with a ``redis`` object (README).

    ``request_interceptor(url) -> {name: value} or None`` adds the app's own ``x-`` headers to every
    native-auth request (interceptor.py).
    """

    _free = lib.msal_na_app_free

    def __init__(
        self, config: Union[Mapping[str, Any], str, bytes], *, request_interceptor: Optional["interceptor.Interceptor"] = None
    ) -> None:
        text = config if isinstance(config, (str, bytes)) else json.dumps(dict(config))
        out = ctypes.c_void_p()
        if request_interceptor is None:
            _check(lib.msal_na_app_create(_bytes(text, "config"), ctypes.byref(out)))
        else:
            # Kept on the object: the library calls it until close() returns.
            self._interceptor = interceptor.bridge(request_interceptor)
            _check(lib.msal_na_app_create_with_interceptor(_bytes(text, "config"), self._interceptor, None, ctypes.byref(out)))
        super().__init__(out.value or 0)

    @classmethod
    def from_file(cls, path: Union[str, "PathLike[str]"]) -> "PublicClientApplication":
        """An application from a JSON configuration file (the terminal demo's ``--config`` format)."""
        with open(path, encoding="utf-8") as file:
            return cls(file.read())

    def current_account(self) -> Optional[Account]:
        """The signed-in account from the cache, or None."""
        out = ctypes.c_void_p()
        try:
            _check(lib.msal_na_app_current_account(self._handle, ctypes.byref(out)))
        except NoAccountError:
            return None
        return Account(out.value or 0)

    def sign_in(
        self, username: Text, password: Optional[Text] = None, scopes: Scopes = None, *, claims: Optional["options.Claims"] = None,
        correlation_id: Optional["options.CorrelationId"] = None,
    ) -> Step:
        """Starts a sign-in. With ``password`` None the service asks for one (PasswordRequired) or
        sends a code (CodeRequired). ``scopes``: of the first access token (openid, profile and
        offline_access are always added). ``claims``: a claims request for the tokens;
        ``correlation_id``: the flow's id (every step sends it). Ends in SignedIn, possibly after
        MFARequired or RegistrationRequired."""
        if claims is not None or correlation_id is not None:
            encoded = options.encode(scopes=options.scope_list(scopes), claims=claims, correlation_id=correlation_id)
            return _wait(lib.msal_na_sign_in_ex_wait, self._handle, _bytes(username, "username"), _bytes(password, "password"), encoded)
        return _wait(lib.msal_na_sign_in_wait, self._handle, _bytes(username, "username"), _bytes(password, "password"), _scopes(scopes))

    def sign_up(
        self, username: Text, password: Optional[Text] = None, attributes: Optional[Mapping[str, Any]] = None, *,
        correlation_id: Optional["options.CorrelationId"] = None,
    ) -> Step:
        """Starts a sign-up: CodeRequired (the code verifies the e-mail address), or AttributesInvalid.
        ``correlation_id``: the flow's id."""
        if correlation_id is not None:
            encoded = options.encode(attributes=attributes, correlation_id=correlation_id)
            return _wait(lib.msal_na_sign_up_ex_wait, self._handle, _bytes(username, "username"), _bytes(password, "password"), encoded)
        encoded = _bytes(json.dumps(dict(attributes)), "attributes") if attributes is not None else None
        return _wait(lib.msal_na_sign_up_wait, self._handle, _bytes(username, "username"), _bytes(password, "password"), encoded)

    def reset_password(self, username: Text, *, correlation_id: Optional["options.CorrelationId"] = None) -> Step:
        """Starts a password reset: CodeRequired, then PasswordRequired for the new password.
        ``correlation_id``: the flow's id."""
        if correlation_id is not None:
            encoded = options.encode(correlation_id=correlation_id)
            return _wait(lib.msal_na_reset_password_ex_wait, self._handle, _bytes(username, "username"), encoded)
        return _wait(lib.msal_na_reset_password_wait, self._handle, _bytes(username, "username"))

    def restore_state(self, saved: Text, kind: Optional[StateKind] = None) -> Union[FlowState, "v2.StepV2"]:
        """A state saved with ``FlowState.dumps()`` (by this application, or another process's
        with the same client id and authority), ready to continue: its ``kind`` is the saved one.
        A native auth V2 step saved with ``step.save()`` (experimental) comes back as its step class
        (``v2.CodeRequiredState``, ...), with its data and ``scenario``.
        With ``kind``, a state of another kind raises StateWrongKindError. Nothing is sent to the
        service. Raises a RestoreStateError subclass: StateMalformedError, StateUnsupportedVersionError,
        StateExpiredError, StateWrongApplicationError, StateWrongKindError."""
        out = ctypes.c_void_p()
        _check(lib.msal_na_app_restore_state(self._handle, _bytes(saved, "saved"), int(kind or 0), ctypes.byref(out)))
        state = FlowState(out.value or 0)
        if (state.kind or 0) >= StateKind.V2_CODE_REQUIRED:
            return v2.from_state(state)
        return state

    def redis_save_state(self, state: Union[FlowState, "v2.StepV2"]) -> str:
        """Saves a waiting state (or a V2 step) in this application's Redis (``"token_cache": "redis"``)
        under a new id, which any process of the app turns back into the state once with
        ``redis_take_state``, for 10 minutes. The id lets its holder continue the sign-in: treat it
        as a secret. Raises RedisUnavailableError when the server cannot be used, InvalidArgumentError
        for an application without Redis, WrongStateError for a step that cannot be saved yet."""
        flow = state.state if isinstance(state, v2.StepV2) else state
        out = ctypes.c_void_p()
        _check(lib.msal_na_app_redis_save_state(self._handle, flow.handle if flow is not None else None, ctypes.byref(out)))
        return _native.take_string(out.value) or ""

    def redis_take_state(self, state_id: Text, kind: Optional[StateKind] = None) -> Union[FlowState, "v2.StepV2"]:
        """The state ``redis_save_state`` saved under ``state_id``, taken out of Redis in the same
        step, so that of two processes given one id only one gets it: the other, and any take after
        10 minutes, raises StateNotFoundError. Then as ``restore_state`` (``kind``, the
        RestoreStateErrors; a state refused for its kind is taken all the same)."""
        out = ctypes.c_void_p()
        _check(lib.msal_na_app_redis_take_state(self._handle, _bytes(state_id, "state_id"), int(kind or 0), ctypes.byref(out)))
        state = FlowState(out.value or 0)
        if (state.kind or 0) >= StateKind.V2_CODE_REQUIRED:
            return v2.from_state(state)
        return state

    # Native auth V2 (experimental: it may change without notice; do not use it in production). The
    # service decides each step; each returns one of v2.py's step classes, or SignedIn.

    def sign_in_v2(
        self, username: Text, *, scopes: Scopes = None, claims: Optional["options.Claims"] = None,
        correlation_id: Optional["options.CorrelationId"] = None,
    ) -> "v2.Outcome":
        """Experimental: starts a native auth V2 sign-in. The step the service asks for comes back:
        ``CodeRequiredState``, ``PasswordRequiredState``, ``AuthMethodSelectionRequiredState`` (a choice
        of first factors), ...; then MFA or registration steps; it ends in SignedIn. ``scopes``,
        ``claims`` and ``correlation_id`` as for ``sign_in``. Failures raise NativeAuthError subclasses
        (UserNotFoundError, BrowserRequiredError, ...). No runtime warning is emitted."""
        return v2.sign_in(self._handle, username, scopes, claims, correlation_id)

    def sign_up_v2(
        self, username: Text, *, scopes: Scopes = None, claims: Optional["options.Claims"] = None,
        correlation_id: Optional["options.CorrelationId"] = None, attributes: Optional[Mapping[str, Any]] = None,
    ) -> "v2.Outcome":
        """Experimental: starts a native auth V2 sign-up: a code to the address, the password, the
        ``attributes`` the service asks for that ``attributes`` does not give (AttributesRequiredState);
        it ends in SignInAfterSignUpState, whose ``sign_in()`` gets the tokens."""
        return v2.sign_up(self._handle, username, scopes, claims, correlation_id, attributes)

    def reset_password_v2(
        self, username: Text, *, scopes: Scopes = None, claims: Optional["options.Claims"] = None,
        correlation_id: Optional["options.CorrelationId"] = None,
    ) -> "v2.Outcome":
        """Experimental: starts a native auth V2 password reset: a recovery method (a choice when there
        are several), its code, NewPasswordRequiredState, MFA when the account needs it; it ends in
        SignInAfterResetPasswordState."""
        return v2.reset_password(self._handle, username, scopes, claims, correlation_id)

    async def sign_in_v2_async(
        self, username: Text, *, scopes: Scopes = None, claims: Optional["options.Claims"] = None,
        correlation_id: Optional["options.CorrelationId"] = None,
    ) -> "v2.Outcome":
        """Experimental: ``sign_in_v2`` as a coroutine."""
        return await v2.sign_in_async(self._handle, username, scopes, claims, correlation_id)

    async def sign_up_v2_async(
        self, username: Text, *, scopes: Scopes = None, claims: Optional["options.Claims"] = None,
        correlation_id: Optional["options.CorrelationId"] = None, attributes: Optional[Mapping[str, Any]] = None,
    ) -> "v2.Outcome":
        """Experimental: ``sign_up_v2`` as a coroutine."""
        return await v2.sign_up_async(self._handle, username, scopes, claims, correlation_id, attributes)

    async def reset_password_v2_async(
        self, username: Text, *, scopes: Scopes = None, claims: Optional["options.Claims"] = None,
        correlation_id: Optional["options.CorrelationId"] = None,
    ) -> "v2.Outcome":
        """Experimental: ``reset_password_v2`` as a coroutine."""
        return await v2.reset_password_async(self._handle, username, scopes, claims, correlation_id)

    # The same flows as coroutines, over the C interface's callback form.

    async def sign_in_async(
        self, username: Text, password: Optional[Text] = None, scopes: Scopes = None, *, claims: Optional["options.Claims"] = None,
        correlation_id: Optional["options.CorrelationId"] = None,
    ) -> Step:
        """``sign_in`` as a coroutine."""
        if claims is not None or correlation_id is not None:
            encoded = options.encode(scopes=options.scope_list(scopes), claims=claims, correlation_id=correlation_id)
            return await _start(lib.msal_na_sign_in_ex, self._handle, _bytes(username, "username"), _bytes(password, "password"), encoded)
        return await _start(lib.msal_na_sign_in, self._handle, _bytes(username, "username"), _bytes(password, "password"), _scopes(scopes))

    async def sign_up_async(
        self, username: Text, password: Optional[Text] = None, attributes: Optional[Mapping[str, Any]] = None, *,
        correlation_id: Optional["options.CorrelationId"] = None,
    ) -> Step:
        """``sign_up`` as a coroutine."""
        if correlation_id is not None:
            encoded = options.encode(attributes=attributes, correlation_id=correlation_id)
            return await _start(lib.msal_na_sign_up_ex, self._handle, _bytes(username, "username"), _bytes(password, "password"), encoded)
        encoded = _bytes(json.dumps(dict(attributes)), "attributes") if attributes is not None else None
        return await _start(lib.msal_na_sign_up, self._handle, _bytes(username, "username"), _bytes(password, "password"), encoded)

    async def reset_password_async(self, username: Text, *, correlation_id: Optional["options.CorrelationId"] = None) -> Step:
        """``reset_password`` as a coroutine."""
        if correlation_id is not None:
            encoded = options.encode(correlation_id=correlation_id)
            return await _start(lib.msal_na_reset_password_ex, self._handle, _bytes(username, "username"), encoded)
        return await _start(lib.msal_na_reset_password, self._handle, _bytes(username, "username"))

    # Several accounts, the cache's health and the browser sign-in (accounts.py, browser.py).

    def accounts(self) -> List[Account]:
        """Every account of this client id in the token cache, most recently used first."""
        return accounts.all_accounts(self)

    def account(self, *, username: Optional[Text] = None, home_account_id: Optional[Text] = None) -> Optional[Account]:
        """The account with this username or home account id (case-insensitive), or None."""
        return accounts.find_account(self, username=username, home_account_id=home_account_id)

    def last_cache_error(self) -> Optional[NativeAuthError]:
        """The token cache's last problem (KeyringLockedError, KeyringUnavailableError, CacheError), or None."""
        return accounts.last_cache_error(self)

    def acquire_token_interactive(self, scopes: Scopes = None, **settings: Any) -> "browser.BrowserSignedIn":
        """Signs the user in in a browser, the way on after BrowserRequiredError or a claims challenge:
        ``login_hint``, ``claims``, ``correlation_id``, ``prompt``, ``domain_hint``,
        ``extra_scopes_to_consent``, ``extra_query_parameters``, ``timeout`` (seconds),
        ``on_sign_in_url`` and ``use_system_browser`` (see ``browser.acquire_token_interactive``)."""
        return browser.acquire_token_interactive(self, scopes, **settings)

    async def acquire_token_interactive_async(self, scopes: Scopes = None, **settings: Any) -> "browser.BrowserSignedIn":
        """The coroutine form; cancelling the task cancels the sign-in."""
        return await browser.acquire_token_interactive_async(self, scopes, **settings)


def live_handles() -> int:
    """Handles not yet freed in this process (for leak checks)."""
    return int(lib.msal_na_live_handles())


def live_strings() -> int:
    """Strings the library returned and the package has not freed yet (for leak checks: 0)."""
    return int(lib.msal_na_live_strings())


def library_version() -> str:
    """The version of libmsalnativeauth.so in use."""
    return lib.msal_na_version().decode()


class LogLevel(enum.IntEnum):
    """How much the SDK logs (the library's msal_na_log_level)."""

    NOTHING = 0
    ERROR = 1
    WARNING = 2
    INFO = 3
    VERBOSE = 4


_log_callback: Optional[Any] = None  # the ctypes callback, kept alive while the library may call it


def set_log_callback(
    callback: Optional[Callable[[LogLevel, str, bool], None]], level: LogLevel = LogLevel.INFO, pii: bool = False
) -> None:
    """Sends the SDK's log lines to ``callback(level, message, contains_pii)``, on a thread of the
    library, in order; personal data and secrets are masked unless ``pii``. ``None`` stops logging.
    The callback should not raise (an exception is printed by ctypes and the line dropped)."""
    global _log_callback

    def deliver(raw_level: int, message: Optional[bytes], contains_pii: int, _user_data: Optional[int]) -> None:
        callback(LogLevel(raw_level), (message or b"").decode("utf-8", "replace"), bool(contains_pii))  # type: ignore[misc]

    made = _native.LOG_CALLBACK(deliver) if callback is not None else _native.LOG_CALLBACK()
    _check(lib.msal_na_set_log_callback(int(level), 1 if pii else 0, made, None))
    if callback is None:
        lib.msal_na_flush_log()  # no line is delivered to the old callback after this returns
    _log_callback = made if callback is not None else None


def flush_log() -> None:
    """Returns once every line written so far has reached the callback."""
    lib.msal_na_flush_log()


@atexit.register
def _detach_at_exit() -> None:
    # Before the interpreter finalizes, the library stops calling into Python (results of the
    # asyncio forms, the interceptor, URL callbacks, log lines: every CFUNCTYPE of the package),
    # whatever is still running. A call into a finalizing Python ends the library's thread under it
    # (pthread_exit in PyGILState_Ensure), and libdispatch then aborts the process ("thread exit
    # while a dispatch queue is running"). Calls in progress finish first (the GIL is released).
    if _log_callback is not None:
        lib.msal_na_flush_log()  # the lines written so far still reach the callback
    lib.msal_na_detach_callbacks()

