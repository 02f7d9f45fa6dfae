"""Several accounts: every account of the token cache, look-ups, and the cache's last problem
(``msal_na_app_accounts`` and neighbours, Bindings/C/include/msal_native_auth.h). No network.
Each function takes the application, a PublicClientApplication (client.py, whose methods call them)."""

from __future__ import annotations

import ctypes
from typing import List, Optional

from . import _native
from ._calls import Text, _bytes, _check, _Handle
from ._native import lib
from .errors import NativeAuthError, NoAccountError, error_for
from .results import Account

_HANDLE = ctypes.c_void_p

_native.declare(
    {
        "msal_na_app_accounts": (ctypes.c_int, [_HANDLE, ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)]),
        "msal_na_app_account_for_username": (ctypes.c_int, [_HANDLE, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]),
        "msal_na_app_account_for_id": (ctypes.c_int, [_HANDLE, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]),
        "msal_na_app_last_cache_error": (ctypes.c_int, [_HANDLE]),
    }
)


def all_accounts(app: _Handle) -> List[Account]:
    """Every account, most recently used first. The list is read twice when it grew in between."""
    capacity = 4
    while True:
        handles = (ctypes.c_void_p * capacity)()
        count = ctypes.c_size_t()
        _check(lib.msal_na_app_accounts(app.handle, handles, capacity, ctypes.byref(count)))
        taken = [Account(handle) for handle in handles[: min(count.value, capacity)] if handle]
        if count.value <= capacity:
            return taken
        for account in taken:  # another process added accounts: ask again with room for all
            account.close()
        capacity = count.value


def find_account(app: _Handle, *, username: Optional[Text] = None, home_account_id: Optional[Text] = None) -> Optional[Account]:
    if (username is None) == (home_account_id is None):
        raise TypeError("give exactly one of username and home_account_id")
    out = ctypes.c_void_p()
    try:
        if username is not None:
            _check(lib.msal_na_app_account_for_username(app.handle, _bytes(username, "username"), ctypes.byref(out)))
        else:
            _check(lib.msal_na_app_account_for_id(app.handle, _bytes(home_account_id, "home_account_id"), ctypes.byref(out)))
    except NoAccountError:
        return None
    return Account(out.value or 0)


def last_cache_error(app: _Handle) -> Optional[NativeAuthError]:
    code = lib.msal_na_app_last_cache_error(app.handle)
    if code == 0:
        return None
    error = error_for(code, _native.last_error_message())
    if code in (1, 2):  # a closed application: a mistake of the caller, raised
        raise error
    return error
