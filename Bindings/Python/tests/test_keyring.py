"""The token cache in the desktop keyring through the C interface ("cache": "keyring").

Without a Secret Service, or without the keyring library, the library keeps working and says
why. The tests that use a keyring run only in the private D-Bus session scripts/test-bindings
starts (its own GNOME Keyring, unlocked with a test password, in a fresh HOME: never a developer's
login keyring), which sets MSAL_KEYRING_SESSION=1 and MSAL_KEYRING_PYTHON (a Python with
msal-extensions); outside it they are skipped, saying why.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any, Dict, List

import pytest

import msal_native_auth as m
from conftest import ROOT, TODOLIST, Emulator
from test_browser import ADA

HERE = Path(__file__).resolve().parent
IN_SESSION = os.environ.get("MSAL_KEYRING_SESSION") == "1"
# The package the tests import, for the child processes too (a checkout or the installed wheel).
PACKAGE_PATH = str(Path(m.__file__).resolve().parents[1])
session_only = pytest.mark.skipif(not IN_SESSION, reason="needs the private Secret Service session of scripts/test-bindings")


def keyring_config(emulator: Emulator, tmp_path: Path, schema: str = "com.example.native-auth.tests", app: str = "") -> Dict[str, Any]:
    return {
        **emulator.config(),
        "cache": "keyring",
        "cache_file": str(tmp_path / "fallback.json"),
        "keyring": {"schema_name": schema, "attributes": {"app": app or uuid.uuid4().hex}, "signal_file": str(tmp_path / "cache.signal")},
    }


def child(config: Dict[str, Any], mode: str, **environment: str) -> Dict[str, str]:
    """Runs keyring_child.py; its lines by step."""
    env = {**os.environ, "PYTHONPATH": PACKAGE_PATH, **environment}
    done = subprocess.run(
        [sys.executable, str(HERE / "keyring_child.py"), json.dumps(config), mode], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return {line.split(" ", 1)[0]: line.split(" ", 1)[1] for line in done.stdout.splitlines() if " " in line}


def test_without_the_keyring_library_the_rest_works(emulator: Emulator, tmp_path: Path) -> None:
    missing = str(tmp_path / "nowhere" / "libmsalnativeauth-keyring.so")
    lines = child(keyring_config(emulator, tmp_path), "unavailable", MSAL_NATIVE_AUTH_KEYRING_LIBRARY=missing)
    assert lines["keyring"].startswith("KeyringUnavailableError") and "libmsalnativeauth-keyring.so" in lines["keyring"]
    assert lines["fallback"] == "ok ['ada@example.com']"
    assert (tmp_path / "fallback.json").exists()  # the file took the tokens
    assert "the keyring cannot be used" in lines["log"]


def test_without_a_session_bus_the_keyring_is_unavailable(emulator: Emulator, tmp_path: Path) -> None:
    lines = child(
        keyring_config(emulator, tmp_path), "unavailable", DBUS_SESSION_BUS_ADDRESS=f"unix:path={tmp_path}/no-bus", DISPLAY=""
    )
    assert lines["keyring"].startswith("KeyringUnavailableError") and "Secret Service" in lines["keyring"]
    assert lines["fallback"] == "ok ['ada@example.com']"


@pytest.mark.parametrize(
    ("keyring", "fragment"),
    [
        (None, "needs a 'keyring' object"),
        ({"signal_file": "/tmp/s"}, "keyring.schema_name"),
        ({"schema_name": "a", "signal_file": "relative/s"}, "keyring.signal_file"),
        ({"schema_name": "a", "signal_file": "/tmp/s", "attributes": {"app": 1}}, "keyring.attributes"),
        ({"schema_name": "a", "signal_file": "/tmp/s", "attributes": {"xdg:schema": "x"}}, "xdg:schema"),
        ({"schema_name": "a\u0000b", "signal_file": "/tmp/s"}, "keyring.schema_name"),
        ({"schema_name": "a", "signal_file": "/tmp/s", "fallback": "memory"}, "keyring.fallback"),
        ({"schema_name": "a", "signal_file": "/tmp/s", "colour": "blue"}, "keyring.colour"),
    ],
)
def test_bad_keyring_settings_name_the_field(emulator: Emulator, keyring: Any, fragment: str) -> None:
    config: Dict[str, Any] = {**emulator.config(), "cache": "keyring"}
    if keyring is not None:
        config["keyring"] = keyring
    with pytest.raises(m.InvalidConfigError) as caught:
        m.PublicClientApplication(config)
    assert fragment in caught.value.message


def test_a_keyring_object_needs_the_keyring_cache(emulator: Emulator) -> None:
    with pytest.raises(m.InvalidConfigError) as caught:
        m.PublicClientApplication({**emulator.config(), "keyring": {"schema_name": "a", "signal_file": "/tmp/s"}})
    assert '"cache": "keyring"' in caught.value.message


@session_only
def test_tokens_kept_in_the_keyring_and_shared_with_msal_extensions(emulator: Emulator, tmp_path: Path) -> None:
    config = keyring_config(emulator, tmp_path)
    app_name = config["keyring"]["attributes"]["app"]
    with m.PublicClientApplication(config) as app:
        step = app.sign_in(*ADA)
        assert isinstance(step, m.SignedIn) and step.account is not None
        token = step.account.get_access_token(TODOLIST)
        step.close()
    assert not (tmp_path / "fallback.json").exists()  # not in a file
    # Another application (a restart) finds the account and its token in the keyring.
    with m.PublicClientApplication(config) as again:
        restored = again.current_account()
        assert restored is not None and restored.username == ADA[0]
        assert restored.get_access_token(TODOLIST).access_token == token.access_token
        # MSAL for Python's msal-extensions reads the same item...
        python = os.environ["MSAL_KEYRING_PYTHON"]
        interop = str(ROOT / "Tests/MSALSecretServiceTests/msal_extensions_interop.py")
        arguments = [config["keyring"]["signal_file"], config["keyring"]["schema_name"], app_name, config["client_id"]]
        read = subprocess.run([python, interop, "read", *arguments], capture_output=True, text=True, timeout=60)
        assert read.returncode == 0, read.stderr
        assert json.loads(read.stdout)["accounts"] == [ADA[0]] and token.access_token in json.loads(read.stdout)["access_tokens"]
        # ...and its writes are seen here (a sign-in of Grace by MSAL for Python).
        environment, realm = "127.0.0.1", "emulator.onmicrosoft.com"
        added = subprocess.run([python, interop, "add", *arguments, environment, realm], capture_output=True, text=True, timeout=60)
        assert added.returncode == 0, added.stderr
        usernames = sorted(account.username or "" for account in again.accounts())
        assert usernames == [ADA[0], "grace@example.com"]
        restored.sign_out()
        restored.close()
    read = subprocess.run([python, interop, "read", *arguments], capture_output=True, text=True, timeout=60)
    assert json.loads(read.stdout)["accounts"] == ["grace@example.com"]


@session_only
def test_a_locked_keyring_is_a_clear_error_not_an_empty_cache(emulator: Emulator, tmp_path: Path) -> None:
    # In a session of its own: locking the shared session's keyring would disturb the other tests.
    home = tmp_path / "home"
    home.mkdir()
    script = (
        'eval "$(printf testpw | gnome-keyring-daemon --unlock --components=secrets)" && '
        "gdbus wait --session --timeout 10 org.freedesktop.secrets && "
        'exec "$0" "$1" "$2" locked'
    )
    environment = {name: value for name, value in os.environ.items() if name not in ("DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR")}
    environment.pop("DBUS_SESSION_BUS_ADDRESS", None)
    environment["HOME"] = str(home)
    environment["PYTHONPATH"] = PACKAGE_PATH
    done = subprocess.run(
        ["dbus-run-session", "--", "sh", "-c", script, sys.executable, str(HERE / "keyring_child.py"), json.dumps(keyring_config(emulator, tmp_path))],
        env=environment, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines: List[str] = done.stdout.splitlines()
    assert any(line.startswith("create KeyringLockedError") for line in lines), lines
    assert "sign_in ok SignedIn" in lines, lines  # the sign-in still works, in memory
    assert any(line.startswith("last_cache_error KeyringLockedError") for line in lines), lines
