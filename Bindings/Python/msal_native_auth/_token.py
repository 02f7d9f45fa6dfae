"""Access tokens through ``msal_na_account_get_access_token_into``: the hot path of the package.

A cached token costs one ``ctypes`` call with arguments made ahead of time: the scopes encoded
once per scopes value, and per thread a buffer and the out-parameters the library fills. The
library copies the token into the buffer on the calling thread, with no result handle; when the
bytes are those of the last token this account returned for the same scopes, that same (frozen)
``AccessToken`` is returned again, so a steady caller builds no objects. Anything else (a refresh,
an error) comes back as a result handle, read as every other result is (``client._outcome``).
"""

from __future__ import annotations

import ctypes
import threading
from datetime import datetime, timezone
from typing import Any, Callable, Dict, Optional, Sequence, Tuple, Union

from . import _native
from ._native import lib
from .errors import error_for

Scopes = Union[None, str, bytes, Sequence[str]]

OK = 0
BUFFER_TOO_SMALL = 29
INITIAL_CAPACITY = 4096  # the header's advice: holds the tokens Entra issues, with their scopes


class AccessToken:
    """An access token: ``access_token`` (send it as ``Authorization: Bearer …``), ``expires_on``
    (an aware ``datetime`` in UTC, or None), ``scopes`` (those granted), ``correlation_id`` (of
    the call that first returned the token, for support; None when that was the fast path) and
    ``refresh_token`` (only with ``get_access_token(..., return_refresh_token=True)``; a secret:
    never log it). Immutable: a cached token asked for again comes back as the same object."""

    __slots__ = ("access_token", "_expires", "scopes", "correlation_id", "refresh_token")

    access_token: str
    scopes: "list[str]"
    correlation_id: Optional[str]
    refresh_token: Optional[str]

    def __init__(
        self, access_token: str, expires_on: Union[None, int, datetime], scopes: Sequence[str], correlation_id: Optional[str] = None,
        refresh_token: Optional[str] = None,
    ) -> None:
        set_attribute = object.__setattr__
        set_attribute(self, "access_token", access_token)
        set_attribute(self, "_expires", int(expires_on.timestamp()) if isinstance(expires_on, datetime) else expires_on or 0)
        set_attribute(self, "scopes", list(scopes))
        set_attribute(self, "correlation_id", correlation_id)
        set_attribute(self, "refresh_token", refresh_token)

    @property
    def expires_on(self) -> Optional[datetime]:
        """When the token expires (UTC); None when the service did not say."""
        return datetime.fromtimestamp(self._expires, tz=timezone.utc) if self._expires else None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"AccessToken is immutable: cannot set {name!r}")

    def __eq__(self, other: object) -> bool:
        """The same token, expiry and scopes (whichever call fetched it)."""
        if not isinstance(other, AccessToken):
            return NotImplemented
        return (self.access_token, self._expires, self.scopes) == (other.access_token, other._expires, other.scopes)

    def __hash__(self) -> int:
        return hash((self.access_token, self._expires))

    def __repr__(self) -> str:
        # The tokens are secrets: only the access token's length is shown.
        return f"AccessToken(<{len(self.access_token)} characters>, expires_on={self.expires_on!r}, scopes={self.scopes!r})"


class _Slot:
    """One thread's buffer and out-parameters (the library writes them while the GIL is released)."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.buffer = ctypes.create_string_buffer(capacity)
        self.view = memoryview(self.buffer).cast("B")
        self.size = ctypes.c_size_t()
        self.expires = ctypes.c_int64()
        self.result = ctypes.c_void_p()


_slots = threading.local()
_into = lib.msal_na_account_get_access_token_into
_encoded: Dict[Any, bytes] = {}
_ENCODED_LIMIT = 256


def encode_scopes(scopes: Scopes) -> Optional[bytes]:
    """The scopes argument as the library takes it (space-separated UTF-8), remembered per value (a
    str, or a tuple of a sequence's items): an app asks for the same few scope sets over and over."""
    if scopes is None or isinstance(scopes, bytes):
        return scopes  # bytes as they are: the library checks UTF-8 itself
    key = scopes if isinstance(scopes, str) else tuple(scopes)
    try:
        return _encoded[key]
    except KeyError:
        pass
    except TypeError:  # unhashable items: encode every time
        key = None
    encoded = _native.encode(scopes if isinstance(scopes, str) else " ".join(scopes), "scopes")
    if key is not None:
        if len(_encoded) >= _ENCODED_LIMIT:
            _encoded.clear()
        _encoded[key] = encoded
    return encoded


def _slot() -> _Slot:
    slot: Optional[_Slot] = getattr(_slots, "slot", None)
    if slot is None:
        slot = _slots.slot = _Slot(INITIAL_CAPACITY)
    return slot


def get_access_token(
    handle: Optional[int], scopes: Scopes, force_refresh: bool, last: Dict[Optional[bytes], Tuple[bytes, AccessToken]],
    outcome: Callable[[int], Any],
) -> AccessToken:
    """The token for ``scopes`` of the account ``handle``; ``last`` is the account's memory of the
    token it last returned per scopes value, ``outcome`` turns a result handle into a token or
    raises its error (and frees it)."""
    encoded = encode_scopes(scopes)
    slot = _slot()
    while True:
        code = _into(handle, encoded, force_refresh, slot.buffer, slot.capacity, slot.size, slot.expires, slot.result)
        result = slot.result.value
        if code == OK and not result:
            size = slot.size.value
            raw = slot.view[:size].tobytes()
            remembered = last.get(encoded)
            if remembered is not None and remembered[0] == raw:
                return remembered[1]
            token, _, granted = raw[:-1].partition(b"\0")
            made = AccessToken(token.decode(), slot.expires.value, granted.decode().split(), None)
            last[encoded] = (raw, made)
            return made
        if result:
            # The full call: a refresh, the first look-up of these scopes, or an error (raised here).
            slot.result.value = None
            made = outcome(result)
            if code == OK:
                raw = slot.view[: slot.size.value].tobytes()
                remembered = last.get(encoded)
                if remembered is not None and remembered[0] == raw:
                    return remembered[1]  # the same token, re-read from a changed cache
                last[encoded] = (raw, made)
            elif code == BUFFER_TOO_SMALL:  # the token came in the result; make room for the next one
                _slots.slot = _Slot(max(slot.size.value, 2 * slot.capacity))
            return made
        if code != BUFFER_TOO_SMALL:
            raise error_for(code, _native.last_error_message())
        # The token and its scopes need more room: grow this thread's buffer and ask again (the
        # token is in the cache, so the second call is a fast one).
        slot = _slots.slot = _Slot(max(slot.size.value, 2 * slot.capacity))
