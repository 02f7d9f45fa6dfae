"""The request interceptor: headers of the app's own on every native-auth request
(``msal_na_app_create_with_interceptor``, Bindings/C/include/msal_native_auth.h).

    def headers(url: str) -> dict:
        return {"x-contoso-tenant-region": "eu"}

    app = PublicClientApplication(config, request_interceptor=headers)

Names must start with ``x-`` and not ``x-ms-``, ``x-client-``, ``x-broker-`` or ``x-app-`` (MSAL's
reserved prefixes); values have no line breaks. A header the library refuses is left out and
logged (logger ``msal_native_auth``, WARNING) with the reason, and so is an exception of the
interceptor: the request goes on. It runs on a thread of the library; an answer later than 5 s
is not waited for.
"""

from __future__ import annotations

import ctypes
import logging
from typing import Callable, Mapping, Optional

from . import _native
from ._native import lib

Interceptor = Callable[[str], Optional[Mapping[str, str]]]

_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p)

_native.declare(
    {
        "msal_na_app_create_with_interceptor": (
            ctypes.c_int, [ctypes.c_char_p, _CALLBACK, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)],
        ),
        "msal_na_headers_add": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p]),
    }
)

log = logging.getLogger("msal_native_auth")


def bridge(interceptor: Interceptor) -> "ctypes._CFuncPtr":
    """The C callback for ``interceptor``; the caller keeps it alive while the library may call it."""
    if not callable(interceptor):
        raise TypeError("request_interceptor must be callable: url -> {name: value} or None")

    def call(url: Optional[bytes], headers: Optional[int], _user_data: Optional[int]) -> None:
        try:
            offered = interceptor((url or b"").decode("utf-8", "replace"))
            items = list(offered.items()) if offered is not None else []
        except Exception:  # noqa: BLE001 - on a library thread, nobody to raise to
            log.exception("the request interceptor raised; the request goes on without its headers")
            return
        for name, value in items:
            if not isinstance(name, str) or not isinstance(value, str):
                log.warning("request interceptor: header %r: names and values must be str; left out", name)
                continue
            code = lib.msal_na_headers_add(headers, name.encode("utf-8", "replace"), value.encode("utf-8", "replace"))
            if code != 0:
                log.warning("request interceptor: header %r left out: %s", name, _native.last_error_message())

    return _CALLBACK(call)
