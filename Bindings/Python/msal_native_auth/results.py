"""What the library's calls return, as Python objects: a C result made a step (steps.py holds
``Step`` and its kinds, re-exported here), the ``FlowState`` and ``Account`` handles steps carry,
tokens; the blocking (``_wait``) and coroutine (``_start``) forms of a call, which convert its result."""

from __future__ import annotations

import asyncio
import ctypes
import itertools
import json
import threading
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple, Union

from . import _native, _token, options
from ._calls import Scopes, Text, _bytes, _check, _Handle, _scopes
from ._native import lib
from ._token import AccessToken
from .errors import NativeAuthError, annotate, error_for
from .steps import (  # noqa: F401 - re-exported: msal_native_auth.results.X names them as before
    AttributesInvalid,
    AttributesRequired,
    AuthMethod,
    CodeRequired,
    MFARequired,
    PasswordRequired,
    RegistrationRequired,
    RequiredAttribute,
    ResetPasswordCompleted,
    Scenario,
    SignedIn,
    SignUpCompleted,
    StateKind,
    Step,
)

# ---- Results --------------------------------------------------------------------------------------


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
            return SignedIn(state, Account(account_handle), Scenario(details.get("scenario", 0)))
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
        if state is not None:  # a V2 step (v2.py makes its class from the state)
            return Step(state)
        raise NativeAuthError(f"unknown outcome {outcome}")
    finally:
        lib.msal_na_result_free(result)


def _token_outcome(result: int) -> Any:
    """A token result with its refresh token (when asked for); any other result as the flows convert it."""
    refresh = None
    if lib.msal_na_result_error(result) == 0 and lib.msal_na_result_outcome(result) == 10:
        refresh = _native.take_string(lib.msal_na_result_refresh_token(result))
    converted = _outcome(result)
    if refresh is None or not isinstance(converted, AccessToken):
        return converted
    return AccessToken(converted.access_token, converted.expires_on, converted.scopes, converted.correlation_id, refresh_token=refresh)


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
            return _wait(lib.msal_na_account_get_access_token_ex_wait, self._handle, encoded, convert=_token_outcome)
        return _token.get_access_token(self._handle, scopes, force_refresh, self._tokens, _outcome)

    async def get_access_token_async(
        self, scopes: Scopes, *, force_refresh: bool = False, claims: Optional["options.Claims"] = None,
        correlation_id: Optional["options.CorrelationId"] = None, return_refresh_token: bool = False,
    ) -> AccessToken:
        """``get_access_token`` as a coroutine (over the callback form: always a call into the
        library's queue; the blocking form is faster for a cached token)."""
        encoded = options.token_options(scopes, force_refresh, claims, correlation_id, return_refresh_token)
        if encoded is not None:
            return await _start(lib.msal_na_account_get_access_token_ex, self._handle, encoded, convert=_token_outcome)
        return await _start(lib.msal_na_account_get_access_token, self._handle, _scopes(scopes), int(force_refresh))

    def sign_out(self) -> None:
        """Removes the account's tokens from the cache (local; no network)."""
        _check(lib.msal_na_account_sign_out(self._handle))

