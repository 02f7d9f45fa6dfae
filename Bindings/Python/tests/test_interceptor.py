"""The request interceptor: the app's own x- headers on every native-auth request, MSAL's rules
for reserved prefixes, and an interceptor that misbehaves. The requests go through a recording
proxy on loopback in front of the emulator, which shows the headers as they were sent."""

from __future__ import annotations

import ctypes
import http.server
import logging
import threading
import urllib.error
import urllib.request
from typing import Dict, Iterator, List, Mapping, Optional

import pytest

import msal_native_auth as m
from conftest import TODOLIST, Emulator
from test_browser import ADA


class Recorder:
    """A loopback proxy to the emulator that keeps each request's path and headers."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.seen: List[Dict[str, str]] = []
        recorder = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                recorder.seen.append({"path": self.path, **{name.lower(): value for name, value in self.headers.items()}})
                forward = urllib.request.Request(recorder.target + self.path, data=body, method="POST")
                for name, value in self.headers.items():
                    if name.lower() not in ("host", "content-length"):
                        forward.add_header(name, value)
                try:
                    with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(forward) as answer:
                        status, headers, payload = answer.status, answer.headers, answer.read()
                except urllib.error.HTTPError as error:
                    status, headers, payload = error.code, error.headers, error.read()
                self.send_response(status)
                for name, value in headers.items():
                    if name.lower() not in ("transfer-encoding", "connection", "content-length"):
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *arguments: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def authority(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}/emulator.onmicrosoft.com"


@pytest.fixture()
def recorder(emulator: Emulator) -> Iterator[Recorder]:
    proxy = Recorder(emulator.base)
    yield proxy
    proxy.server.shutdown()


def test_headers_reach_every_request_and_reserved_prefixes_are_refused(
    emulator: Emulator, recorder: Recorder, caplog: pytest.LogCaptureFixture
) -> None:
    urls: List[str] = []
    caught_threads: List[str] = []

    def interceptor(url: str) -> Mapping[str, str]:
        urls.append(url)
        caught_threads.append(threading.current_thread().name)
        return {"x-contoso-region": "eu-west", "X-Contoso-Trace": "t1", "x-ms-forged": "1", "x-client-SKU": "evil", "Accept": "x/y"}

    caplog.set_level(logging.WARNING, logger="msal_native_auth")
    config = {**emulator.config(), "authority": recorder.authority}
    with m.PublicClientApplication(config, request_interceptor=interceptor) as app:
        step = app.sign_in(*ADA)
        assert isinstance(step, m.SignedIn) and step.account is not None
        step.account.get_access_token(TODOLIST, force_refresh=True)
        step.close()
    native = [entry for entry in recorder.seen if "/oauth2/v2.0/" in entry["path"]]
    assert native, "requests went through the proxy"
    for entry in native:
        assert entry["x-contoso-region"] == "eu-west" and entry["x-contoso-trace"] == "t1"
        assert "x-ms-forged" not in entry
        assert entry["x-client-sku"] != "evil" and entry["accept"] == "application/json"
    assert len(urls) == len(native) and all(url.startswith(recorder.authority) for url in urls)
    assert threading.main_thread().name not in caught_threads  # a thread of the library
    refused = [record.getMessage() for record in caplog.records if "left out" in record.getMessage()]
    assert any("x-ms-forged" in text and "x-ms-" in text for text in refused)
    assert any("'Accept'" in text for text in refused)


def test_a_failing_interceptor_does_not_stop_the_request(emulator: Emulator, recorder: Recorder, caplog: pytest.LogCaptureFixture) -> None:
    calls: List[str] = []

    def broken(url: str) -> Optional[Mapping[str, str]]:
        calls.append(url)
        if len(calls) == 1:
            raise RuntimeError("the app's own bug")
        if len(calls) == 2:
            return {"x-line": "a\r\nx-injected: 1", 5: "x", "x-number": 7}  # type: ignore[dict-item]
        return None

    caplog.set_level(logging.WARNING, logger="msal_native_auth")
    config = {**emulator.config(), "authority": recorder.authority}
    with m.PublicClientApplication(config, request_interceptor=broken) as app:
        with app.sign_in("grace@example.com") as step:  # initiate (raises), challenge (bad headers)
            assert isinstance(step, m.CodeRequired) and step.state is not None
            assert isinstance(step.state.submit_code(emulator.code("grace@example.com", "sign_in")), m.SignedIn)
    assert len(calls) == 3
    assert not any("x-injected" in entry or "x-line" in entry for entry in recorder.seen)
    messages = "\n".join(record.getMessage() for record in caplog.records)
    assert "the request interceptor raised" in messages and "control character" in messages and "must be str" in messages


def test_bad_interceptors_and_stale_header_handles() -> None:
    with pytest.raises(TypeError):
        m.PublicClientApplication({"client_id": "x", "tenant_subdomain": "contoso"}, request_interceptor="not callable")  # type: ignore[arg-type]
    with pytest.raises(m.InvalidConfigError):  # the configuration is still checked
        m.PublicClientApplication({"client_id": "x"}, request_interceptor=lambda url: None)
    from msal_native_auth._native import lib

    stale = ctypes.c_void_p(0x6D73_6864_0000_0010)  # the first id the library hands out, long gone
    assert lib.msal_na_headers_add(stale, b"x-a", b"b") == m.InvalidHandleError.code
    assert lib.msal_na_headers_add(None, b"x-a", b"b") == m.InvalidArgumentError.code


def test_the_interceptor_is_not_called_after_close(emulator: Emulator, recorder: Recorder) -> None:
    calls: List[str] = []
    config = {**emulator.config(), "authority": recorder.authority}
    app = m.PublicClientApplication(config, request_interceptor=lambda url: calls.append(url) or {"x-a": "1"})
    step = app.sign_in(*ADA)
    assert isinstance(step, m.SignedIn) and step.account is not None
    app.close()
    seen = len(calls)
    # The account outlives its application (as the C interface's handles do); its refresh goes out
    # without calling the freed application's interceptor.
    step.account.get_access_token(TODOLIST, force_refresh=True)
    assert len(calls) == seen
    step.close()
