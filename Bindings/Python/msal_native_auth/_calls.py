"""What every call into the C interface shares: arguments encoded, a return code raised as its
error, an owned handle freed once. It imports _native, _token and errors only; results.py, client.py,
accounts.py and browser.py import it (tests/test_imports.py keeps the imports one way)."""

from __future__ import annotations

import threading
from typing import Callable, Optional, Sequence, Union

from . import _native, _token
from ._native import lib
from .errors import ERROR_NAMES, error_for

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
