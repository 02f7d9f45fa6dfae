"""Request options over the C interface's ``_ex`` calls: claims requests, correlation ids and the
refresh token in a token result (``msal_na_*_ex``, Bindings/C/include/msal_native_auth.h)."""

from __future__ import annotations

import ctypes
import json
import uuid
from typing import Any, Dict, Mapping, Optional, Sequence, Union

from . import _native
from ._native import CALLBACK, lib
from .errors import InvalidArgumentError, error_for

_HANDLE = ctypes.c_void_p
_STRING = ctypes.c_char_p
_OUT = ctypes.POINTER(ctypes.c_void_p)
_INT = ctypes.c_int

_native.declare(
    {
        "msal_na_sign_in_ex": (_INT, [_HANDLE, _STRING, _STRING, _STRING, CALLBACK, ctypes.c_void_p]),
        "msal_na_sign_in_ex_wait": (_INT, [_HANDLE, _STRING, _STRING, _STRING, _OUT]),
        "msal_na_sign_up_ex": (_INT, [_HANDLE, _STRING, _STRING, _STRING, CALLBACK, ctypes.c_void_p]),
        "msal_na_sign_up_ex_wait": (_INT, [_HANDLE, _STRING, _STRING, _STRING, _OUT]),
        "msal_na_reset_password_ex": (_INT, [_HANDLE, _STRING, _STRING, CALLBACK, ctypes.c_void_p]),
        "msal_na_reset_password_ex_wait": (_INT, [_HANDLE, _STRING, _STRING, _OUT]),
        "msal_na_account_get_access_token_ex": (_INT, [_HANDLE, _STRING, CALLBACK, ctypes.c_void_p]),
        "msal_na_account_get_access_token_ex_wait": (_INT, [_HANDLE, _STRING, _OUT]),
        "msal_na_result_refresh_token": (ctypes.c_void_p, [_HANDLE]),
        "msal_na_claims_from_challenge": (ctypes.c_void_p, [_STRING]),
    }
)

Claims = Union[str, Mapping[str, Any]]
CorrelationId = Union[str, uuid.UUID]


def encode(**fields: Any) -> Optional[bytes]:
    """The options object: fields that are None (or False: the default of every flag) are left out;
    None when none is left. ``claims``
    may be JSON text or a mapping; ``correlation_id`` a UUID or its text (the library checks both)."""
    options: Dict[str, Any] = {}
    for name, value in fields.items():
        if value is None or value is False:
            continue
        if name == "claims" and not isinstance(value, (str, Mapping)):
            raise TypeError(f"claims must be JSON text or a mapping, not {type(value).__name__}")
        if name == "correlation_id" and not isinstance(value, (str, uuid.UUID)):
            raise TypeError(f"correlation_id must be a UUID or its text, not {type(value).__name__}")
        options[name] = str(value) if isinstance(value, uuid.UUID) else dict(value) if isinstance(value, Mapping) else value
    if not options:
        return None
    try:
        return json.dumps(options).encode("utf-8")
    except (TypeError, ValueError, UnicodeEncodeError) as error:
        raise InvalidArgumentError(f"the options cannot be sent: {error}", code=1) from None


def scope_list(scopes: Union[None, str, bytes, Sequence[str]]) -> Optional[Sequence[str]]:
    if scopes is None:
        return None
    if isinstance(scopes, bytes):
        try:
            scopes = scopes.decode("utf-8")
        except UnicodeDecodeError as error:
            raise InvalidArgumentError(f"'scopes' is not valid UTF-8: {error}", code=1) from None
    if isinstance(scopes, str):
        return scopes.split()
    if not all(isinstance(scope, str) for scope in scopes):
        raise TypeError("scopes must be a string or a sequence of strings")
    return list(scopes)


def token_options(
    scopes: Union[None, str, bytes, Sequence[str]], force_refresh: bool, claims: Optional[Claims], correlation_id: Optional[CorrelationId],
    return_refresh_token: bool,
) -> Optional[bytes]:
    """The options of ``msal_na_account_get_access_token_ex``; None when the call needs none of
    claims, correlation_id and return_refresh_token (then the plain call, with its fast path, serves it)."""
    if claims is None and correlation_id is None and not return_refresh_token:
        return None
    return encode(
        scopes=scope_list(scopes), force_refresh=force_refresh, claims=claims, correlation_id=correlation_id,
        return_refresh_token=return_refresh_token,
    )


def claims_from_challenge(www_authenticate: Union[str, bytes]) -> Optional[str]:
    """The claims request (JSON text) of an API's claims challenge: the ``claims`` parameter of the
    ``WWW-Authenticate`` header of its 401 answer; None when the header carries none. Pass it as
    ``claims=`` to ``get_access_token`` or ``acquire_token_interactive``."""
    if not isinstance(www_authenticate, (str, bytes)):
        raise TypeError(f"www_authenticate must be a str, not {type(www_authenticate).__name__}")
    pointer = lib.msal_na_claims_from_challenge(_native.encode(www_authenticate, "www_authenticate"))
    if pointer:
        return _native.take_string(pointer)
    message = _native.last_error_message() or ""
    if "carries no claims challenge" in message:
        return None
    raise error_for(1, message)
