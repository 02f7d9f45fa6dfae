"""The Pythonic API over the C interface: an application, flow states, accounts, results."""

from __future__ import annotations

import asyncio
import atexit
import ctypes
import enum
import itertools
import json
import threading
from dataclasses import dataclass, field
from os import PathLike
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import _native, _token
from ._token import AccessToken
from ._native import lib
from .errors import ERROR_NAMES, NativeAuthError, NoAccountError, annotate, error_for

Text = Union[str, bytes]
Scopes = Union[None, str, bytes, Sequence[str]]

for _code in range(0, 100):
    _name = lib.msal_na_error_name(_code).decode()
    if _name != "MSAL_NA_ERR_UNKNOWN":
        ERROR_NAMES[_code] = _name


_bytes = _native.encode


def _scopes(scopes: Scopes) -> Optional[bytes]:
    return _token.encode_scopes(scopes)


def _check(code: int) -> None:
    if code != 0:
        raise error_for(code, _native.last_error_message())


class _Handle:
    """An owned C handle, freed once by close() (or the context manager, or garbage collection)."""

    _free: Callable[[Optional[int]], int]

    def __init__(self, handle: int) -> None:
        self._handle: Optional[int] = handle
        self._lock = threading.Lock()

    @property
    def handle(self) -> Optional[int]:
        """The C handle; None after close() (the library then reports InvalidHandleError)."""
        return self._handle

    def close(self) -> None:
        with self._lock:
            handle, self._handle = self._handle, None
        if handle:
            type(self)._free(handle)

    def __enter__(self):  # type: ignore[no-untyped-def]
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass


# ---- Results --------------------------------------------------------------------------------------


class StateKind(enum.IntEnum):
    """Which step of which flow a FlowState is (``FlowState.kind``; the C interface's msal_na_state_type)."""

    SIGN_IN_CODE_REQUIRED = 1
    SIGN_IN_PASSWORD_REQUIRED = 2
    SIGN_UP_CODE_REQUIRED = 3
    SIGN_UP_PASSWORD_REQUIRED = 4
    SIGN_UP_ATTRIBUTES_REQUIRED = 5
    SIGN_IN_AFTER_SIGN_UP = 6
    RESET_PASSWORD_CODE_REQUIRED = 7
    RESET_PASSWORD_REQUIRED = 8
    SIGN_IN_AFTER_RESET_PASSWORD = 9
    AWAITING_MFA = 10
    MFA_REQUIRED = 11
    REGISTER_STRONG_AUTH = 12
    REGISTER_STRONG_AUTH_VERIFICATION_REQUIRED = 13


@dataclass(frozen=True)
class AuthMethod:
    """A second factor or a kind of method to register: pass it (or its ``id``) to ``request_challenge``
    or ``register_method``. ``channel`` is "email" or "sms"; ``login_hint`` the masked contact."""

    id: str
    challenge_type: str
    channel: str
    login_hint: Optional[str] = None


@dataclass(frozen=True)
class RequiredAttribute:
    """A sign-up attribute the service asks for (``AttributesRequired.attributes``)."""

    name: str
    type: str = ""
    required: bool = False
    regex: Optional[str] = None


@dataclass
class Step:
    """What a flow step produced. Close it (or use ``with``) to free a state you do not continue."""

    state: Optional["FlowState"] = None

    def close(self) -> None:
        """Frees the state (if any); a step you continue is closed by the ``with`` around it."""
        if self.state is not None:
            self.state.close()

    def __enter__(self):  # type: ignore[no-untyped-def]
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass
class SignedIn(Step):
    """The user is signed in: ``account`` holds the tokens. No state follows."""

    account: Optional["Account"] = None


@dataclass
class CodeRequired(Step):
    """A one-time code was sent to ``sent_to`` over ``channel`` (``code_length`` digits): pass it to
    ``state.submit_code``, or ``state.resend_code()`` for a new one."""

    sent_to: str = ""
    channel: str = ""
    code_length: int = 0


@dataclass
class PasswordRequired(Step):
    """The service asks for a password (sign-in), or a new one (sign-up, reset): ``state.submit_password``."""


@dataclass
class AttributesRequired(Step):
    """Sign-up needs these ``attributes``: ``state.submit_attributes({name: value, ...})``."""

    attributes: List[RequiredAttribute] = field(default_factory=list)


@dataclass
class AttributesInvalid(Step):
    """The service refused the attributes named in ``attribute_names``; correct them on ``state`` when
    there is one, else start the sign-up again."""

    attribute_names: List[str] = field(default_factory=list)


@dataclass
class SignUpCompleted(Step):
    """The account exists: ``state.sign_in()`` signs the new user in without the password."""


@dataclass
class ResetPasswordCompleted(Step):
    """The password was changed: ``state.sign_in()`` signs the user in without it."""


@dataclass
class MFARequired(Step):
    """A second factor is needed: ``state.request_challenge(one of auth_methods)`` sends a code."""

    auth_methods: List[AuthMethod] = field(default_factory=list)


@dataclass
class RegistrationRequired(Step):
    """The user must register a strong-auth method first: ``state.register_method(one of auth_methods,
    contact)`` sends a code to the new contact."""

    auth_methods: List[AuthMethod] = field(default_factory=list)


def _outcome(result: int) -> Union[Step, AccessToken]:
    """Turns a C result into a Step or AccessToken (or raises its error); frees the result."""
    try:
        if lib.msal_na_result_error(result) == 0 and lib.msal_na_result_outcome(result) == 10:
            # A token (the full call of _token.get_access_token): typed getters, no JSON.
            return AccessToken(
                _native.take_string(lib.msal_na_result_access_token(result)) or "",
                lib.msal_na_result_expires_on(result),
                (_native.take_string(lib.msal_na_result_scopes(result)) or "").split(),
                _native.take_string(lib.msal_na_result_correlation_id(result)),
            )
        details: Dict[str, Any] = json.loads(_native.take_string(lib.msal_na_result_json(result)) or "{}")
        code = details.get("error", 0)
        if code != 0:
            raise annotate(
                error_for(
                    code,
                    details.get("message"),
                    correlation_id=details.get("correlation_id"),
                    server_error=details.get("server_error"),
                    server_suberror=details.get("server_suberror"),
                    error_codes=details.get("error_codes"),
                ),
                details,
            )
        outcome = details["outcome"]
        state_handle = lib.msal_na_result_take_state(result)
        state = FlowState(state_handle) if state_handle else None
        account_handle = lib.msal_na_result_take_account(result)
        methods = [AuthMethod(m["id"], m["challenge_type"], m["channel"], m.get("login_hint")) for m in details.get("auth_methods", [])]
        attributes = details.get("attributes", [])
        if outcome == 1:
            return SignedIn(state, Account(account_handle))
        if outcome == 2:
            return CodeRequired(state, details.get("sent_to", ""), details.get("channel", ""), details.get("code_length", 0))
        if outcome == 3:
            return PasswordRequired(state)
        if outcome == 4:
            return AttributesRequired(
                state, [RequiredAttribute(a["name"], a.get("type", ""), a.get("required", False), a.get("regex")) for a in attributes]
            )
        if outcome == 5:
            return AttributesInvalid(state, [a["name"] for a in attributes])
        if outcome == 6:
            return SignUpCompleted(state)
        if outcome == 7:
            return ResetPasswordCompleted(state)
        if outcome == 8:
            return MFARequired(state, methods)
        if outcome == 9:
            return RegistrationRequired(state, methods)
        raise NativeAuthError(f"unknown outcome {outcome}")
    finally:
        lib.msal_na_result_free(result)


def _wait(function: Any, *arguments: Any, convert: Callable[[int], Any] = _outcome) -> Any:
    """Calls a `_wait` C function (ctypes releases the GIL meanwhile) and converts its result."""
    out = ctypes.c_void_p()
    function(*arguments, ctypes.byref(out))
    if not out.value:
        raise NativeAuthError("the library returned no result")
    return convert(out.value)


# Asynchronous calls: the C callback runs on the library's thread and hands the result to the
# event loop that awaits it. One ctypes callback object for the process (never collected).
_pending: Dict[int, Tuple[asyncio.AbstractEventLoop, "asyncio.Future[int]"]] = {}
_pending_lock = threading.Lock()
_tickets = itertools.count(1)


@_native.CALLBACK
def _on_result(result: Optional[int], user_data: Optional[int]) -> None:
    with _pending_lock:
        loop, future = _pending.pop(user_data or 0)

    def deliver() -> None:
        if future.cancelled():  # nobody awaits it any more: free it here
            lib.msal_na_result_free(result)
        else:
            future.set_result(result or 0)

    try:
        loop.call_soon_threadsafe(deliver)
    except RuntimeError:  # the event loop is closed
        lib.msal_na_result_free(result)


async def _start(function: Any, *arguments: Any, convert: Callable[[int], Any] = _outcome) -> Any:
    loop = asyncio.get_running_loop()
    future: "asyncio.Future[int]" = loop.create_future()
    ticket = next(_tickets)
    with _pending_lock:
        _pending[ticket] = (loop, future)
    code = function(*arguments, _on_result, ctypes.c_void_p(ticket))
    if code != 0:
        with _pending_lock:
            _pending.pop(ticket, None)
        _check(code)
    return convert(await future)


# ---- Objects --------------------------------------------------------------------------------------


class FlowState(_Handle):
    """A step of a sign-in, sign-up, reset, MFA or registration flow (``kind`` says which).
    Each method sends the next step; a method that does not fit the kind raises WrongStateError.
    After an error the same state accepts another try (a corrected code or password)."""

    _free = lib.msal_na_state_free

    @property
    def kind(self) -> Optional[StateKind]:
        """Which step this is; None once the state is closed."""
        value = lib.msal_na_state_kind(self._handle)
        return StateKind(value) if value else None

    def submit_code(self, code: Text) -> Step:
        """Sends the one-time code (sign-in, sign-up, reset, MFA or registration); InvalidCodeError
                keeps this state usable for another try."""
        return _wait(lib.msal_na_state_submit_code_wait, self._handle, _bytes(code, "code"))

    def submit_password(self, password: Text) -> Step:
        """Sends the password (sign-in), or the new one (sign-up, reset)."""
        return _wait(lib.msal_na_state_submit_password_wait, self._handle, _bytes(password, "password"))

    def submit_attributes(self, attributes: Mapping[str, Any]) -> Step:
        """Sends sign-up attributes, e.g. ``{"displayName": "Ada"}``."""
        return _wait(lib.msal_na_state_submit_attributes_wait, self._handle, _bytes(json.dumps(dict(attributes)), "attributes"))

    def resend_code(self) -> Step:
        """Sends a new code: a CodeRequired with a new state (use that one)."""
        return _wait(lib.msal_na_state_resend_code_wait, self._handle)

    def request_challenge(self, method: Union[AuthMethod, str]) -> Step:
        """MFA: sends a code to one of the offered methods (an AuthMethod or its id)."""
        method_id = method.id if isinstance(method, AuthMethod) else method
        return _wait(lib.msal_na_state_request_challenge_wait, self._handle, _bytes(method_id, "auth_method_id"))

    def register_method(self, method: Union[AuthMethod, str], contact: Text) -> Step:
        """Registration: registers ``contact`` (an e-mail address or phone number) as a method of the
                offered kind; a code goes to it (or SignedIn when it was verified already)."""
        method_id = method.id if isinstance(method, AuthMethod) else method
        return _wait(
            lib.msal_na_state_register_method_wait, self._handle, _bytes(method_id, "auth_method_id"), _bytes(contact, "contact")
        )

    def sign_in(self, scopes: Scopes = None) -> Step:
        """After SignUpCompleted or ResetPasswordCompleted: signs in without the password."""
        return _wait(lib.msal_na_state_sign_in_wait, self._handle, _scopes(scopes))

    # The same steps as coroutines, over the C interface's callback form.

    async def submit_code_async(self, code: Text) -> Step:
        """``submit_code`` as a coroutine."""
        return await _start(lib.msal_na_state_submit_code, self._handle, _bytes(code, "code"))

    async def submit_password_async(self, password: Text) -> Step:
        """``submit_password`` as a coroutine."""
        return await _start(lib.msal_na_state_submit_password, self._handle, _bytes(password, "password"))

    async def submit_attributes_async(self, attributes: Mapping[str, Any]) -> Step:
        """``submit_attributes`` as a coroutine."""
        encoded = _bytes(json.dumps(dict(attributes)), "attributes")
        return await _start(lib.msal_na_state_submit_attributes, self._handle, encoded)

    async def resend_code_async(self) -> Step:
        """``resend_code`` as a coroutine."""
        return await _start(lib.msal_na_state_resend_code, self._handle)

    async def request_challenge_async(self, method: Union[AuthMethod, str]) -> Step:
        """``request_challenge`` as a coroutine."""
        method_id = method.id if isinstance(method, AuthMethod) else method
        return await _start(lib.msal_na_state_request_challenge, self._handle, _bytes(method_id, "auth_method_id"))

    async def register_method_async(self, method: Union[AuthMethod, str], contact: Text) -> Step:
        """``register_method`` as a coroutine."""
        method_id = method.id if isinstance(method, AuthMethod) else method
        return await _start(
            lib.msal_na_state_register_method, self._handle, _bytes(method_id, "auth_method_id"), _bytes(contact, "contact")
        )

    async def sign_in_async(self, scopes: Scopes = None) -> Step:
        """``sign_in`` as a coroutine."""
        return await _start(lib.msal_na_state_sign_in, self._handle, _scopes(scopes))

    # Saved states (docs/saved-states.md): dumps() here, PublicClientApplication.restore_state().

    def dumps(self) -> str:
        """The state as a string (JSON) that ``PublicClientApplication.restore_state`` turns back
        into a state, in this process or another, for up to 10 minutes after the step. It holds the
        flow's continuation token: keep it where a password could go, never in a log."""
        saved = _native.take_string(lib.msal_na_state_save(self._handle))
        if saved is None:
            raise error_for(2 if self._handle else 1, _native.last_error_message())
        return saved

    @property
    def auth_methods(self) -> List[AuthMethod]:
        """The methods an MFA or registration state was offered (a restored one too); [] for the others."""
        methods = []
        for index in range(lib.msal_na_state_auth_method_count(self._handle)):
            method_id, challenge_type, channel, login_hint = (
                _native.take_string(lib.msal_na_state_auth_method(self._handle, index, field)) for field in range(4)
            )
            methods.append(AuthMethod(method_id or "", challenge_type or "", channel or "", login_hint))
        return methods


class Account(_Handle):
    """A signed-in account: its tokens and sign-out."""

    _free = lib.msal_na_account_free

    def __init__(self, handle: int) -> None:
        super().__init__(handle)
        # The token last returned per scopes value, with its bytes (_token.get_access_token).
        self._tokens: Dict[Optional[bytes], Tuple[bytes, AccessToken]] = {}

    @property
    def username(self) -> Optional[str]:
        """The sign-in name (preferred_username), when the id token has one."""
        return self._string(lib.msal_na_account_username)

    @property
    def home_account_id(self) -> Optional[str]:
        """The account's id across tenants: "uid.utid"."""
        return self._string(lib.msal_na_account_home_account_id)

    @property
    def id_token(self) -> Optional[str]:
        """The raw id token (a JWT), when the service returned one."""
        return self._string(lib.msal_na_account_id_token)

    @property
    def claims(self) -> Dict[str, Any]:
        """The id token's claims, as a dict."""
        return json.loads(self._string(lib.msal_na_account_claims_json) or "{}")

    def _string(self, function: Any) -> Optional[str]:
        pointer = function(self._handle)
        if not pointer:
            message = _native.last_error_message()
            if message:
                raise error_for(2 if self._handle else 1, message)
        return _native.take_string(pointer)

    def get_access_token(
        self, scopes: Scopes, *, force_refresh: bool = False, claims: Optional["options.Claims"] = None,
        correlation_id: Optional["options.CorrelationId"] = None, return_refresh_token: bool = False,
    ) -> AccessToken:
        """A token for ``scopes`` (a string of space-separated scopes, or a sequence of them):
        from the cache while it is valid, else refreshed (blocking, the GIL released). A cached
        token costs one call into the library and no thread hop (see ``_token``). ``claims`` (a
        claims request, for example from ``claims_from_challenge``) always refreshes;
        ``correlation_id`` is sent as the request's id; ``return_refresh_token`` also hands back the
        refresh token. Any of these three takes the full call (``msal_na_account_get_access_token_ex``)."""
        encoded = options.token_options(scopes, force_refresh, claims, correlation_id, return_refresh_token)
        if encoded is not None:
            return _wait(lib.msal_na_account_get_access_token_ex_wait, self._handle, encoded, convert=options.token_outcome)
        return _token.get_access_token(self._handle, scopes, force_refresh, self._tokens, _outcome)

    async def get_access_token_async(
        self, scopes: Scopes, *, force_refresh: bool = False, claims: Optional["options.Claims"] = None,
        correlation_id: Optional["options.CorrelationId"] = None, return_refresh_token: bool = False,
    ) -> AccessToken:
        """``get_access_token`` as a coroutine (over the callback form: always a call into the
        library's queue; the blocking form is faster for a cached token)."""
        encoded = options.token_options(scopes, force_refresh, claims, correlation_id, return_refresh_token)
        if encoded is not None:
            return await _start(lib.msal_na_account_get_access_token_ex, self._handle, encoded, convert=options.token_outcome)
        return await _start(lib.msal_na_account_get_access_token, self._handle, _scopes(scopes), int(force_refresh))

    def sign_out(self) -> None:
        """Removes the account's tokens from the cache (local; no network)."""
        _check(lib.msal_na_account_sign_out(self._handle))


class PublicClientApplication(_Handle):
    """Native authentication against one External ID app registration.

    ``config`` is the JSON configuration of the C interface, as a mapping or a JSON string:
    ``client_id``, ``tenant_subdomain`` or ``authority``, and optionally ``challenge_types``,
    ``capabilities``, ``cache_file`` or ``"cache": "memory"``, ``request_timeout_seconds``;
    ``allows_multiple_accounts``; ``"cache": "keyring"`` with a ``keyring`` object (README).

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

    def restore_state(self, saved: Text, kind: Optional[StateKind] = None) -> FlowState:
        """A state saved with ``FlowState.dumps()`` (by this application, or another process's
        with the same client id and authority), ready to continue: its ``kind`` is the saved one.
        With ``kind``, a state of another kind raises StateWrongKindError. Nothing is sent to the
        service. Raises a RestoreStateError subclass: StateMalformedError, StateUnsupportedVersionError,
        StateExpiredError, StateWrongApplicationError, StateWrongKindError."""
        out = ctypes.c_void_p()
        _check(lib.msal_na_app_restore_state(self._handle, _bytes(saved, "saved"), int(kind or 0), ctypes.byref(out)))
        return FlowState(out.value or 0)

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


# The later modules use the classes above; imported last so that each can import this one.
from . import accounts, browser, interceptor, options  # noqa: E402
