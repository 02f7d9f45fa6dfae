"""The token cache on Redis through the C interface ("cache": "redis"), against a redis-server each
test starts (with a password, on a free loopback port, in its temporary directory) and stops.

Two processes on one Redis share a signed-in account's tokens and see a sign-out; a sign-in saved in
Redis by one process is continued by another, once (StateNotFoundError after); bad settings are
InvalidConfigError naming the field; a wrong password or a server that is down is
RedisUnavailableError naming the server, never the password; a server that accepts connections and
never answers is RedisUnavailableError within the command timeout (2 s), AUTH and SELECT included.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Iterator

import pytest

import msal_native_auth as m
from conftest import PASSWORD_APP, ROOT, TODOLIST, Emulator

PASSWORD = "py-redis-password-5d1e"
WRONG_PASSWORD = "py-not-the-password-8a0b"
ADA = ("ada@example.com", "Analytical-Engine-1843")

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server is not installed")


@dataclass
class Redis:
    port: int
    directory: Path
    process: "subprocess.Popen[bytes]"

    def settings(self, prefix: str, **extra: Any) -> Dict[str, Any]:
        return {
            "url": f"redis://127.0.0.1:{self.port}", "password_file": str(self.directory / "password"),
            "key_prefix": prefix, "check_interval_seconds": 0, **extra,
        }

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[Redis]:
    (tmp_path / "password").write_text(PASSWORD + "\n")
    (tmp_path / "wrong-password").write_text(WRONG_PASSWORD)
    port = _free_port()
    process = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--requirepass", PASSWORD, "--save", "",
         "--appendonly", "no", "--daemonize", "no", "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    server = Redis(port, tmp_path, process)
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        yield server
    finally:
        server.stop()


def redis_config(emulator: Emulator, settings: Dict[str, Any]) -> Dict[str, Any]:
    return {**emulator.config(), "cache": "redis", "allows_multiple_accounts": True, "redis": settings}


# A second process: the account it finds in the cache, and that account's token (or "none").
CHILD = """
import json, sys
import msal_native_auth as m
with m.PublicClientApplication(json.loads(sys.argv[1])) as app:
    account = app.current_account()
    if account is None:
        print(json.dumps(None))
    else:
        print(json.dumps({"username": account.username, "token": account.get_access_token(sys.argv[2]).access_token}))
        account.close()
"""


def in_another_process(config: Dict[str, Any]) -> Any:
    done = subprocess.run([sys.executable, "-c", CHILD, json.dumps(config), TODOLIST], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_two_processes_share_the_account_and_its_tokens_and_see_a_sign_out(emulator: Emulator, redis: Redis) -> None:
    config = redis_config(emulator, redis.settings("py-shared:"))
    assert in_another_process(config) is None
    with m.PublicClientApplication(config) as app, m.PublicClientApplication(config) as second:
        step = app.sign_in(*ADA)
        assert isinstance(step, m.SignedIn) and step.account is not None
        token = step.account.get_access_token(TODOLIST).access_token
        # Another application object in this process, and another process: the same account and token.
        seen = second.current_account()
        assert seen is not None and seen.username == ADA[0]
        assert seen.get_access_token(TODOLIST).access_token == token
        assert in_another_process(config) == {"username": ADA[0], "token": token}
        # Another key prefix is another cache.
        assert in_another_process(redis_config(emulator, redis.settings("py-elsewhere:"))) is None
        step.account.sign_out()
        assert second.current_account() is None
        assert in_another_process(config) is None
        seen.close()
        step.close()


@pytest.mark.parametrize(
    ("settings", "fragment"),
    [
        (None, "needs a 'redis' object"),
        ({}, "redis.url"),
        ({"url": "http://127.0.0.1"}, "redis.url"),
        ({"url": "redis://127.0.0.1", "colour": "blue"}, "unknown field 'redis.colour'"),
        ({"url": f"redis://:{PASSWORD}@127.0.0.1"}, "password_file"),
        ({"url": "redis://127.0.0.1", "ca_file": "/etc/ssl/ca.pem"}, "rediss://"),
        ({"url": "redis://127.0.0.1", "check_interval_seconds": True}, "check_interval_seconds"),
        ({"url": "redis://127.0.0.1", "encryption_key_file": "key"}, "redis.encryption_key_file"),
        ({"url": "redis://127.0.0.1", "password_file": "/nonexistent/password"}, "redis.password_file"),
    ],
)
def test_bad_redis_settings_name_the_field(emulator: Emulator, settings: Any, fragment: str) -> None:
    config: Dict[str, Any] = {**emulator.config(), "cache": "redis"}
    if settings is not None:
        config["redis"] = settings
    with pytest.raises(m.InvalidConfigError) as caught:
        m.PublicClientApplication(config)
    assert fragment in caught.value.message and PASSWORD not in caught.value.message


def test_an_encryption_key_must_be_32_bytes(emulator: Emulator, redis: Redis) -> None:
    (redis.directory / "short.key").write_bytes(b"0123456789")
    settings = redis.settings("py-key:", encryption_key_file=str(redis.directory / "short.key"))
    with pytest.raises(m.InvalidConfigError, match="32 bytes or 64 hex digits"):
        m.PublicClientApplication(redis_config(emulator, settings))
    (redis.directory / "good.key").write_bytes(bytes(range(32)))
    settings = redis.settings("py-key:", encryption_key_file=str(redis.directory / "good.key"))
    m.PublicClientApplication(redis_config(emulator, settings)).close()


def test_a_wrong_password_or_a_server_down_is_redis_unavailable(emulator: Emulator, redis: Redis) -> None:
    place = f"127.0.0.1:{redis.port}"
    wrong = redis_config(emulator, redis.settings("py-x:", password_file=str(redis.directory / "wrong-password")))
    with pytest.raises(m.RedisUnavailableError) as caught:
        m.PublicClientApplication(wrong)
    error = caught.value
    assert error.code == 47 and error.name == "MSAL_NA_ERR_REDIS_UNAVAILABLE" and isinstance(error, ConnectionError)
    assert place in error.message and "refused the credentials" in error.message
    assert PASSWORD not in error.message and WRONG_PASSWORD not in error.message
    redis.stop()
    with pytest.raises(m.RedisUnavailableError) as caught:
        m.PublicClientApplication(redis_config(emulator, redis.settings("py-x:")))
    assert place in caught.value.message and "cannot be reached" in caught.value.message
    assert PASSWORD not in caught.value.message


def test_a_redis_that_never_answers_is_unavailable_within_the_command_timeout(emulator: Emulator, tmp_path: Path) -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    accepted = []

    def accept() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            accepted.append(connection)

    threading.Thread(target=accept, daemon=True).start()
    (tmp_path / "password").write_text(PASSWORD + "\n")
    port = listener.getsockname()[1]
    settings = {"url": f"redis://127.0.0.1:{port}/2", "password_file": str(tmp_path / "password")}
    try:
        start = time.monotonic()
        with pytest.raises(m.RedisUnavailableError) as caught:
            m.PublicClientApplication(redis_config(emulator, settings))
        elapsed = time.monotonic() - start
    finally:
        listener.close()
        for connection in accepted:
            connection.close()
    assert 1.8 <= elapsed < 3.6, f"gave up after {elapsed:.2f} s, where the command timeout is 2 s"
    assert f"127.0.0.1:{port}" in caught.value.message and PASSWORD not in caught.value.message


# A second process that takes a saved sign-in from Redis and submits the password on it.
TAKER = """
import json, sys
import msal_native_auth as m
with m.PublicClientApplication(json.loads(sys.argv[1])) as app:
    try:
        state = app.redis_take_state(sys.argv[2], kind=m.StateKind.SIGN_IN_PASSWORD_REQUIRED)
    except m.NativeAuthError as error:
        print(json.dumps({"error": type(error).__name__}))
    else:
        with state, state.submit_password(sys.argv[3]) as done:
            print(json.dumps({"outcome": type(done).__name__, "username": done.account.username}))
            done.account.sign_out()
"""


def take_in_another_process(config: Dict[str, Any], state_id: str) -> Any:
    done = subprocess.run(
        [sys.executable, "-c", TAKER, json.dumps(config), state_id, ADA[1]], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_sign_in_saved_in_redis_is_continued_once_by_another_process(emulator: Emulator, redis: Redis) -> None:
    config = redis_config(emulator, redis.settings("py-signins:"))
    with m.PublicClientApplication(config) as app, app.sign_in(ADA[0]) as step:
        assert isinstance(step, m.PasswordRequired) and step.state is not None
        state_id = app.redis_save_state(step.state)
        assert len(state_id) == 32 and int(state_id, 16) >= 0
        assert take_in_another_process(config, state_id) == {"outcome": "SignedIn", "username": ADA[0]}
        # Once only: here, and in another process.
        with pytest.raises(m.StateNotFoundError) as caught:
            app.redis_take_state(state_id)
        assert caught.value.code == 35 and isinstance(caught.value, m.RestoreStateError)
        assert state_id not in caught.value.message
        assert take_in_another_process(config, state_id) == {"error": "StateNotFoundError"}
        # Refused for its kind: taken all the same.
        state_id = app.redis_save_state(step.state)
        with pytest.raises(m.StateWrongKindError):
            app.redis_take_state(state_id, kind=m.StateKind.SIGN_IN_CODE_REQUIRED)
        with pytest.raises(m.StateNotFoundError):
            app.redis_take_state(state_id)
        # Redis down: the server's error, naming it.
        redis.stop()
        with pytest.raises(m.RedisUnavailableError, match=f"127.0.0.1:{redis.port}"):
            app.redis_save_state(step.state)


def test_saved_sign_ins_need_an_application_on_redis(emulator: Emulator) -> None:
    with emulator.app() as app, app.sign_in(ADA[0]) as step:
        assert step.state is not None
        with pytest.raises(m.InvalidArgumentError, match='"saved_sign_ins": "redis"'):
            app.redis_save_state(step.state)
        with pytest.raises(m.InvalidArgumentError, match='"saved_sign_ins": "redis"'):
            app.redis_take_state("0" * 32)


def test_one_configuration_file_serves_python_and_native_auth(emulator: Emulator, redis: Redis, tmp_path: Path) -> None:
    """The same file, read by the C interface (here, through Python) and by native-auth: one reader
    of the 'redis' object (Sources/MSALRedis/Configuration/MSALRedisSettings.swift), one spelling of the switch,
    the password printed by a command."""
    cli = Path(os.environ.get("NATIVE_AUTH_CLI", str(ROOT / ".build/debug/native-auth")))
    assert cli.exists(), f"{cli} is not built (scripts/test-bindings builds it)"
    settings = {
        "url": f"redis://127.0.0.1:{redis.port}", "password_command": ["cat", str(redis.directory / "password")],
        "key_prefix": "py-one-file:", "check_interval_seconds": 0,
    }
    config = {
        "client_id": PASSWORD_APP, "authority": emulator.authority, "token_cache": "redis", "saved_sign_ins": "redis",
        "redis": settings,
    }
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    home = {name: str(tmp_path / name.lower()) for name in ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME")}

    def native_auth(*arguments: str) -> "subprocess.CompletedProcess[str]":
        return subprocess.run(
            [str(cli), "--config", str(path), *arguments], capture_output=True, text=True, timeout=120, env={**os.environ, **home},
        )

    assert native_auth("token", "--scope", TODOLIST).returncode == 8  # nobody signed in yet
    with m.PublicClientApplication(json.loads(path.read_text())) as app:
        step = app.sign_in(*ADA)
        assert isinstance(step, m.SignedIn) and step.account is not None
        token = step.account.get_access_token(TODOLIST).access_token
        done = native_auth("token", "--scope", TODOLIST)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == token
        step.account.sign_out()
        assert native_auth("token", "--scope", TODOLIST).returncode == 8
        step.close()
