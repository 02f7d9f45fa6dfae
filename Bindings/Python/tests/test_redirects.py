"""No request follows a redirect (docs/decisions.md): the emulator answers a sign-in's first request
or its token request with a 3xx pointing at a listener on 127.0.0.2 that counts every connection;
each sign-in raises NetworkError naming the status and that host, and nothing reaches it."""

from __future__ import annotations

import socket
import threading
from typing import Iterator, List

import pytest

import msal_native_auth as m
from conftest import Emulator

ADA = "Analytical-Engine-1843"


class Recorder:
    """A listener on 127.0.0.2 that records each connection's first bytes."""

    def __init__(self) -> None:
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.socket.bind(("127.0.0.2", 0))
        self.socket.listen(16)
        self.port = self.socket.getsockname()[1]
        self.connections: List[bytes] = []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.socket.accept()
            except OSError:
                return
            with connection:
                connection.settimeout(0.3)
                try:
                    self.connections.append(connection.recv(4096))
                except OSError:
                    self.connections.append(b"")

    def close(self) -> None:
        self.socket.shutdown(socket.SHUT_RDWR)
        self.socket.close()
        self.thread.join(timeout=5)


@pytest.fixture
def recorder() -> Iterator[Recorder]:
    listener = Recorder()
    yield listener
    listener.close()


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirect_is_a_network_error_and_reaches_nothing(emulator: Emulator, recorder: Recorder, status: int) -> None:
    host = f"127.0.0.2:{recorder.port}"
    location = f"http://{host}/t/oauth2/v2.0/initiate?code=stolen"
    calls = [
        ("/oauth2/v2.0/initiate", lambda app: app.sign_in("ada@example.com", password=ADA)),
        ("/oauth2/v2.0/token", lambda app: app.sign_in("ada@example.com", password=ADA)),
        ("/authorize-challenge", lambda app: app.sign_in_v2("ada@example.com")),
    ]
    with emulator.app() as app:
        for endpoint, call in calls:
            assert emulator.hook("POST", "/_emulator/faults", [{"endpoint": endpoint, "status": status, "location": location}]) == 200
            with pytest.raises(m.NetworkError) as raised:
                call(app)
            message = str(raised.value)
            assert f"HTTP {status}" in message and host in message, (endpoint, message)
            assert "stolen" not in message, "only the host is named"
    assert recorder.connections == [], "a request reached the host a redirect named"
