"""One exception class per error kind of the C interface (``msal_na_error``)."""

from __future__ import annotations

from typing import Dict, List, Optional, Type


class NativeAuthError(Exception):
    """Base of every error: ``code`` (the stable C number), ``name``, ``message``,
    ``correlation_id`` (give it to support), and the server's ``server_error``,
    ``server_suberror`` and ``error_codes`` when the service answered."""

    code: int = -1

    def __init__(
        self,
        message: str,
        *,
        code: Optional[int] = None,
        correlation_id: Optional[str] = None,
        server_error: Optional[str] = None,
        server_suberror: Optional[str] = None,
        error_codes: Optional[List[int]] = None,
    ) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.message = message
        self.correlation_id = correlation_id
        self.server_error = server_error
        self.server_suberror = server_suberror
        self.error_codes = error_codes or []

    @property
    def name(self) -> str:
        return ERROR_NAMES.get(self.code, "MSAL_NA_ERR_UNKNOWN")

    @property
    def is_browser_required(self) -> bool:
        return isinstance(self, BrowserRequiredError)


def _kind(name: str, code: int, *bases: type, doc: str) -> Type[NativeAuthError]:
    cls = type(name, (NativeAuthError, *bases), {"code": code, "__doc__": doc})
    return cls  # type: ignore[return-value]


InvalidArgumentError = _kind("InvalidArgumentError", 1, ValueError, doc="NULL, invalid UTF-8, malformed JSON: nothing was sent.")
InvalidHandleError = _kind("InvalidHandleError", 2, doc="An object used after close(), or of the wrong kind.")
InvalidConfigError = _kind("InvalidConfigError", 3, ValueError, doc="The configuration; the message names the field.")
WrongStateError = _kind("WrongStateError", 4, doc="The operation does not apply to this kind of state.")
GeneralError = _kind("GeneralError", 10, doc="Anything else the SDK reported (see the message).")
NetworkError = _kind("NetworkError", 11, ConnectionError, doc="No usable answer from the service.")
BrowserRequiredError = _kind("BrowserRequiredError", 12, doc="The flow needs the web sign-in.")
UserNotFoundError = _kind("UserNotFoundError", 13, doc="No such user.")
InvalidCredentialsError = _kind("InvalidCredentialsError", 14, doc="Wrong password.")
InvalidUsernameError = _kind("InvalidUsernameError", 15, doc="The username is not acceptable.")
UserAlreadyExistsError = _kind("UserAlreadyExistsError", 16, doc="Sign-up: the user exists.")
InvalidPasswordError = _kind("InvalidPasswordError", 17, doc="Sign-up or reset: the password policy refused it.")
UserDoesNotHavePasswordError = _kind("UserDoesNotHavePasswordError", 18, doc="Reset: the user signs in with codes.")
InvalidCodeError = _kind("InvalidCodeError", 19, doc="Wrong one-time code; submit another on the same state.")
MFARequiredError = _kind("MFARequiredError", 20, doc="MFA is needed and the app did not declare it, or a token needs it.")
RegistrationRequiredError = _kind("RegistrationRequiredError", 21, doc="Strong-auth registration is needed and not declared.")
RefreshTokenExpiredError = _kind("RefreshTokenExpiredError", 22, doc="Sign in again.")
InvalidScopeError = _kind("InvalidScopeError", 23, doc="A scope was refused.")
AuthMethodBlockedError = _kind("AuthMethodBlockedError", 24, doc="The service will not send to this method.")
InvalidInputError = _kind("InvalidInputError", 25, doc="Registration: the contact is not acceptable.")
VerificationContactBlockedError = _kind("VerificationContactBlockedError", 26, doc="Registration: the contact is blocked.")
NoAccountError = _kind("NoAccountError", 27, doc="Nobody is signed in.")
CacheError = _kind("CacheError", 28, doc="The token cache could not be read or written.")
BufferTooSmallError = _kind("BufferTooSmallError", 29, doc="A token did not fit the buffer (handled inside the package).")
InternalError = _kind("InternalError", 99, doc="A bug in the library.")


class RestoreStateError(NativeAuthError):
    """``restore_state`` could not restore the saved state; nothing was sent: start the flow again.
    One subclass per reason (docs/saved-states.md#errors)."""


def _restore_kind(name: str, code: int, doc: str) -> Type[RestoreStateError]:
    return type(name, (RestoreStateError,), {"code": code, "__doc__": doc})  # type: ignore[return-value]


StateMalformedError = _restore_kind("StateMalformedError", 30, "Not a saved state: not JSON, cut short, over 64 KiB, a member missing or wrong.")
StateUnsupportedVersionError = _restore_kind("StateUnsupportedVersionError", 31, "Saved by a newer library, in a format this one cannot read.")
StateExpiredError = _restore_kind("StateExpiredError", 32, "Its continuation token is older than the service keeps one (10 minutes).")
StateWrongApplicationError = _restore_kind("StateWrongApplicationError", 33, "Saved by an application with another client id or authority.")
StateWrongKindError = _restore_kind("StateWrongKindError", 34, "Not of the kind restore_state was asked for.")
StateNotFoundError = _restore_kind(
    "StateNotFoundError", 35, "redis_take_state: no saved sign-in under the id (never saved, expired, or already taken once)."
)

# The browser sign-in, accounts and the keyring.
UserCanceledError = _kind("UserCanceledError", 40, doc="The browser sign-in was cancelled (cancel_browser_sign_in, Cancel, timeout).")
NoBrowserError = _kind("NoBrowserError", 41, doc="No browser could be started and no on_sign_in_url shows the address.")
BrowserSessionRunningError = _kind("BrowserSessionRunningError", 42, doc="Another browser sign-in runs in this process.")
InteractionRequiredError = _kind("InteractionRequiredError", 43, doc="The service wants the user: sign in in the browser.")
DeclinedScopesError = _kind(
    "DeclinedScopesError", 44, doc="Some scopes were not granted: ``granted_scopes`` and ``declined_scopes`` say which."
)
KeyringUnavailableError = _kind("KeyringUnavailableError", 45, doc="No Secret Service or keyring, or libsecret is missing.")
KeyringLockedError = _kind("KeyringLockedError", 46, doc="The keyring is locked and stayed locked.")
# The token cache on Redis ("token_cache": "redis").
RedisUnavailableError = _kind(
    "RedisUnavailableError", 47, ConnectionError,
    doc="The Redis server of \"token_cache\": \"redis\" (or \"saved_sign_ins\") cannot be used: down, credentials or TLS refused (the message names it).",
)
# Native auth V2 (experimental): its other failures are the classes above.
InvalidAttributesError = _kind(
    "InvalidAttributesError", 50, ValueError,
    doc="V2 sign-up (experimental): attribute values were refused; ``attribute_names`` says which. "
    "Submit corrected ones on the same step.",
)

ERROR_CLASSES: Dict[int, Type[NativeAuthError]] = {
    cls.code: cls
    for cls in (
        InvalidArgumentError, InvalidHandleError, InvalidConfigError, WrongStateError, GeneralError, NetworkError,
        BrowserRequiredError, UserNotFoundError, InvalidCredentialsError, InvalidUsernameError, UserAlreadyExistsError,
        InvalidPasswordError, UserDoesNotHavePasswordError, InvalidCodeError, MFARequiredError, RegistrationRequiredError,
        RefreshTokenExpiredError, InvalidScopeError, AuthMethodBlockedError, InvalidInputError,
        VerificationContactBlockedError, NoAccountError, CacheError, BufferTooSmallError, InternalError,
        StateMalformedError, StateUnsupportedVersionError, StateExpiredError, StateWrongApplicationError, StateWrongKindError,
        StateNotFoundError,
        UserCanceledError, NoBrowserError, BrowserSessionRunningError, InteractionRequiredError, DeclinedScopesError,
        KeyringUnavailableError, KeyringLockedError, RedisUnavailableError, InvalidAttributesError,
    )
}

ERROR_NAMES: Dict[int, str] = {}


def error_for(code: int, message: Optional[str], **details: object) -> NativeAuthError:
    cls = ERROR_CLASSES.get(code, NativeAuthError)
    return cls(message or ERROR_NAMES.get(code, f"error {code}"), code=code, **details)  # type: ignore[arg-type]


__all__ = ["NativeAuthError", "RestoreStateError", "ERROR_CLASSES", "error_for"] + [cls.__name__ for cls in ERROR_CLASSES.values()]


def annotate(error: NativeAuthError, details: Dict[str, object]) -> NativeAuthError:
    """Adds what a result's JSON says beyond the common fields: the scopes of a DeclinedScopesError,
    the refused names of an InvalidAttributesError."""
    if isinstance(error, DeclinedScopesError):
        error.granted_scopes = list(details.get("scopes") or [])  # type: ignore[attr-defined, call-overload]
        error.declined_scopes = list(details.get("declined_scopes") or [])  # type: ignore[attr-defined, call-overload]
    if isinstance(error, InvalidAttributesError):
        error.attribute_names = [a["name"] for a in details.get("attributes") or []]  # type: ignore[attr-defined, union-attr]
    return error
