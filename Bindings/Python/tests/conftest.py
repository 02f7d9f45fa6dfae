"""The emulator as a separate process for the whole session, and helpers around its test hooks."""

from __future__ import annotations

import json
import os
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

import pytest

import msal_native_auth as m

ROOT = Path(__file__).resolve().parents[3]  # the repository: Bindings/Python/tests/conftest.py
PASSWORD_APP = "11111111-1111-4111-8111-111111111111"  # demo seed: email + password, displayName required
TODOLIST = "api://emulator/todolist/ToDoList.Read"
PROFILE = "api://emulator/profile/Profile.Read"


@dataclass
class Emulator:
    base: str
    authority: str

    def config(self, **extra: Any) -> Dict[str, Any]:
        return {"client_id": PASSWORD_APP, "authority": self.authority, "cache": "memory", **extra}

    def app(self, **extra: Any) -> m.PublicClientApplication:
        return m.PublicClientApplication(self.config(**extra))

    def hook(self, method: str, path: str, body: Optional[Any] = None) -> int:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, method=method, data=data, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code

    def code(self, username: str, purpose: str) -> str:
        """The newest code of this purpose in the user's mailbox."""
        with urllib.request.urlopen(f"{self.base}/_emulator/mailbox?username={username}") as response:
            mails = [mail for mail in json.load(response) if mail["purpose"] == purpose]
        assert mails, f"no {purpose} code for {username}"
        return mails[-1]["code"]

    def new_user(self, **fields: Any) -> str:
        username = f"py-{uuid.uuid4().hex[:12]}@example.com"
        assert self.hook("POST", "/_emulator/users", {"username": username, **fields}) == 201
        return username

    def requests(self) -> List[Dict[str, Any]]:
        """The emulator's request log (secrets redacted), oldest first."""
        with urllib.request.urlopen(f"{self.base}/_emulator/requests") as response:
            return json.load(response)

    def api_answer(self, path: str, token: str) -> Tuple[int, str]:
        """The status of an API call and its WWW-Authenticate header ("" when none)."""
        request = urllib.request.Request(self.base + path, headers={"Authorization": f"Bearer {token}"})
        try:
            with urllib.request.urlopen(request) as response:
                return response.status, ""
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get("WWW-Authenticate", "")

    def call_api(self, path: str, token: str) -> Dict[str, Any]:
        request = urllib.request.Request(self.base + path, headers={"Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(request) as response:
            assert response.status == 200
            return json.load(response)


@pytest.fixture(scope="session")
def emulator() -> Iterator[Emulator]:
    yield from _running_emulator()


def _running_emulator(*arguments: str) -> Iterator[Emulator]:
    command = os.environ.get("NATIVE_AUTH_EMULATOR", str(ROOT / ".build/debug/native-auth-emulator"))
    process = subprocess.Popen(
        [command, "--port", "0", "--quiet", *arguments], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        assert process.stdout is not None
        lines: Dict[str, str] = {}
        deadline = time.monotonic() + 30
        while "authority" not in lines and time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                break
            key, _, value = line.strip().partition(": ")
            lines.setdefault(key, value)
        assert "authority" in lines, "the emulator printed no banner"
        yield Emulator(lines["base URL"], lines["authority"])
    finally:
        process.terminate()
        process.wait(timeout=10)


# API 2 (profile) asks for the authentication context c1 (docs/emulator.md, "Claims challenge"):
# a token without it gets 401 with a claims challenge, which only a browser sign-in satisfies.
CONDITIONAL_ACCESS_SEED = {
    "tenant": {"subdomain": "emulator", "id": "5c3b1c2e-8a4f-4f5e-9d7a-0e6b2a9c1d00"},
    "apps": [
        {
            "client_id": PASSWORD_APP, "name": "Demo app (email + password)", "sign_up_method": "password",
            "attributes": [{"name": "displayName", "regex": "^.{1,64}$"}],
        }
    ],
    "users": [
        {"username": "ada@example.com", "password": "Analytical-Engine-1843", "attributes": {"displayName": "Ada Lovelace"}},
    ],
    "apis": [
        {
            "name": "todolist", "app_id": "33333333-3333-4333-8333-333333333333", "identifier_uri": "api://emulator/todolist",
            "scopes": ["ToDoList.Read"], "path": "/api/todolist", "required_scope": "ToDoList.Read",
        },
        {
            "name": "profile", "app_id": "44444444-4444-4444-8444-444444444444", "identifier_uri": "api://emulator/profile/",
            "scopes": ["Profile.Read"], "path": "/api/profile", "required_scope": "Profile.Read", "required_acrs": ["c1"],
        },
    ],
}


@pytest.fixture(scope="session")
def conditional_access_emulator(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Emulator]:
    seed = tmp_path_factory.mktemp("seed") / "conditional-access.json"
    seed.write_text(json.dumps(CONDITIONAL_ACCESS_SEED))
    yield from _running_emulator("--seed", str(seed))
