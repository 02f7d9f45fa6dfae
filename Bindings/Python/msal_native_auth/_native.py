"""Loads libmsalnativeauth.so and declares the C functions (ctypes, no compiler needed)."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from pathlib import Path
from typing import Optional, Union

from .errors import InvalidArgumentError

_HANDLE = ctypes.c_void_p
_STRING = ctypes.c_char_p  # arguments: bytes or None
_OWNED = ctypes.c_void_p  # returned strings: freed with msal_na_string_free after copying
_OUT = ctypes.POINTER(ctypes.c_void_p)
_INT = ctypes.c_int
CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)
LOG_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_void_p)


def _find() -> str:
    explicit = os.environ.get("MSAL_NATIVE_AUTH_LIBRARY")
    if explicit:
        return explicit
    bundled = Path(__file__).with_name("libmsalnativeauth.so")
    if bundled.exists():
        return str(bundled)
    found = ctypes.util.find_library("msalnativeauth")
    if found:
        return found
    raise OSError(
        "libmsalnativeauth.so not found: install the wheel that carries it, set MSAL_NATIVE_AUTH_LIBRARY, "
        "or put it on the library path (scripts/build-bindings builds it)"
    )


lib = ctypes.CDLL(_find())

_SIGNATURES = {
    "msal_na_app_create": (_INT, [_STRING, _OUT]),
    "msal_na_app_free": (_INT, [_HANDLE]),
    "msal_na_app_current_account": (_INT, [_HANDLE, _OUT]),
    "msal_na_sign_in": (_INT, [_HANDLE, _STRING, _STRING, _STRING, CALLBACK, ctypes.c_void_p]),
    "msal_na_sign_in_wait": (_INT, [_HANDLE, _STRING, _STRING, _STRING, _OUT]),
    "msal_na_sign_up": (_INT, [_HANDLE, _STRING, _STRING, _STRING, CALLBACK, ctypes.c_void_p]),
    "msal_na_sign_up_wait": (_INT, [_HANDLE, _STRING, _STRING, _STRING, _OUT]),
    "msal_na_reset_password": (_INT, [_HANDLE, _STRING, CALLBACK, ctypes.c_void_p]),
    "msal_na_reset_password_wait": (_INT, [_HANDLE, _STRING, _OUT]),
    "msal_na_state_kind": (_INT, [_HANDLE]),
    "msal_na_state_free": (_INT, [_HANDLE]),
    "msal_na_state_submit_code": (_INT, [_HANDLE, _STRING, CALLBACK, ctypes.c_void_p]),
    "msal_na_state_submit_code_wait": (_INT, [_HANDLE, _STRING, _OUT]),
    "msal_na_state_submit_password": (_INT, [_HANDLE, _STRING, CALLBACK, ctypes.c_void_p]),
    "msal_na_state_submit_password_wait": (_INT, [_HANDLE, _STRING, _OUT]),
    "msal_na_state_submit_attributes": (_INT, [_HANDLE, _STRING, CALLBACK, ctypes.c_void_p]),
    "msal_na_state_submit_attributes_wait": (_INT, [_HANDLE, _STRING, _OUT]),
    "msal_na_state_resend_code": (_INT, [_HANDLE, CALLBACK, ctypes.c_void_p]),
    "msal_na_state_resend_code_wait": (_INT, [_HANDLE, _OUT]),
    "msal_na_state_request_challenge": (_INT, [_HANDLE, _STRING, CALLBACK, ctypes.c_void_p]),
    "msal_na_state_request_challenge_wait": (_INT, [_HANDLE, _STRING, _OUT]),
    "msal_na_state_register_method": (_INT, [_HANDLE, _STRING, _STRING, CALLBACK, ctypes.c_void_p]),
    "msal_na_state_register_method_wait": (_INT, [_HANDLE, _STRING, _STRING, _OUT]),
    "msal_na_state_sign_in": (_INT, [_HANDLE, _STRING, CALLBACK, ctypes.c_void_p]),
    "msal_na_state_sign_in_wait": (_INT, [_HANDLE, _STRING, _OUT]),
    "msal_na_account_get_access_token": (_INT, [_HANDLE, _STRING, _INT, CALLBACK, ctypes.c_void_p]),
    "msal_na_account_get_access_token_wait": (_INT, [_HANDLE, _STRING, _INT, _OUT]),
    "msal_na_account_get_access_token_into": (
        _INT,
        [_HANDLE, _STRING, _INT, ctypes.POINTER(ctypes.c_char), ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t),
         ctypes.POINTER(ctypes.c_int64), _OUT],
    ),
    "msal_na_state_save": (_OWNED, [_HANDLE]),
    "msal_na_app_restore_state": (_INT, [_HANDLE, _STRING, _INT, _OUT]),
    "msal_na_app_redis_save_state": (_INT, [_HANDLE, _HANDLE, _OUT]),
    "msal_na_app_redis_take_state": (_INT, [_HANDLE, _STRING, _INT, _OUT]),
    "msal_na_state_auth_method_count": (ctypes.c_size_t, [_HANDLE]),
    "msal_na_state_auth_method": (_OWNED, [_HANDLE, ctypes.c_size_t, _INT]),
    "msal_na_account_username": (_OWNED, [_HANDLE]),
    "msal_na_account_home_account_id": (_OWNED, [_HANDLE]),
    "msal_na_account_id_token": (_OWNED, [_HANDLE]),
    "msal_na_account_claims_json": (_OWNED, [_HANDLE]),
    "msal_na_account_sign_out": (_INT, [_HANDLE]),
    "msal_na_account_free": (_INT, [_HANDLE]),
    "msal_na_result_error": (_INT, [_HANDLE]),
    "msal_na_result_outcome": (_INT, [_HANDLE]),
    "msal_na_result_access_token": (_OWNED, [_HANDLE]),
    "msal_na_result_expires_on": (ctypes.c_int64, [_HANDLE]),
    "msal_na_result_scopes": (_OWNED, [_HANDLE]),
    "msal_na_result_correlation_id": (_OWNED, [_HANDLE]),
    "msal_na_result_json": (_OWNED, [_HANDLE]),
    "msal_na_result_take_state": (_HANDLE, [_HANDLE]),
    "msal_na_result_take_account": (_HANDLE, [_HANDLE]),
    "msal_na_result_free": (_INT, [_HANDLE]),
    "msal_na_set_log_callback": (_INT, [_INT, _INT, LOG_CALLBACK, ctypes.c_void_p]),
    "msal_na_flush_log": (None, []),
    "msal_na_detach_callbacks": (None, []),
    "msal_na_string_free": (_INT, [ctypes.c_void_p]),
    "msal_na_last_error_message": (_OWNED, []),
    "msal_na_error_name": (ctypes.c_char_p, [_INT]),
    "msal_na_version": (ctypes.c_char_p, []),
    "msal_na_live_handles": (ctypes.c_size_t, []),
    "msal_na_live_strings": (ctypes.c_size_t, []),
}

def declare(signatures: "dict[str, tuple]") -> None:
    """Sets the ctypes signatures of more functions (each module declares those it uses)."""
    for name, (restype, argtypes) in signatures.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes


declare(_SIGNATURES)


def encode(value: Optional[Union[str, bytes]], name: str) -> Optional[bytes]:
    """str as UTF-8; bytes as they are (the library checks UTF-8 itself)."""
    if value is None or isinstance(value, bytes):
        return value
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError as error:
        raise InvalidArgumentError(f"'{name}' is not valid Unicode: {error}", code=1) from None


def take_string(pointer: Optional[int]) -> Optional[str]:
    """Copies a string the library returned and frees it."""
    if not pointer:
        return None
    try:
        return ctypes.string_at(pointer).decode("utf-8")
    finally:
        lib.msal_na_string_free(pointer)


def last_error_message() -> Optional[str]:
    return take_string(lib.msal_na_last_error_message())
