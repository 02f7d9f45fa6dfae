"""``python -m msal_native_auth``: the terminal demo's loop (sign in with a password, an email code
or MFA, get a token for each API, call it, optionally sign out), against a configuration file or
a local emulator of the service.

    python -m msal_native_auth --config config.json ada@contoso.com https://api.contoso.com/todo "api://contoso/todo/Read"
    python -m msal_native_auth --emulator ada@example.com          # password: Analytical-Engine-1843

Answers (password, codes) are read from stdin, one per line; an empty password asks for a code.
``--config`` takes the C interface's JSON configuration (the terminal demo's ``--config`` format).
``--emulator`` starts ``native-auth-emulator`` (``--emulator-command``, else ``$NATIVE_AUTH_EMULATOR``,
else the one on ``PATH``) on a free loopback port, signs in to its seeded password app, calls its
two sample APIs unless others are given, shows each one-time code it sends, and stops it after.
Bindings/Python/examples/sign_in_demo.py runs the same loop.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from typing import Callable, Dict, Iterator, Mapping, Optional, Sequence, Tuple, Union

import msal_native_auth as msal

EMULATOR_CLIENT_ID = "11111111-1111-4111-8111-111111111111"  # the emulator's seeded email + password app


def finish(step: msal.Step, show_code: Callable[[str], None] = lambda username: None, username: str = "") -> msal.Account:
    """Answers what the service asks until the user is signed in."""
    while not isinstance(step, msal.SignedIn):
        with step:
            if isinstance(step, msal.CodeRequired) and step.state is not None:
                print(f"code sent to: {step.sent_to}")
                show_code(username)
                step = step.state.submit_code(input("Code: "))
            elif isinstance(step, msal.PasswordRequired) and step.state is not None:
                step = step.state.submit_password(input("Password: "))
            elif isinstance(step, msal.MFARequired) and step.state is not None:
                print("second factor required")
                step = step.state.request_challenge(step.auth_methods[0])
            else:
                raise SystemExit(f"unexpected step {type(step).__name__}")
    assert step.account is not None
    return step.account


def call_api(account: msal.Account, url: str, scopes: str) -> None:
    """Gets a token for ``scopes`` and calls ``url`` with it."""
    try:
        token = account.get_access_token(scopes.split())
    except msal.NativeAuthError as error:
        print(f"token for {url}: {error.name}: {error.message}")
        return
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token.access_token}"})
    print(f"GET {url}")
    try:
        with urllib.request.urlopen(request) as response:
            print(response.read().decode())
            print(f"HTTP {response.status}")
    except urllib.error.HTTPError as error:
        print(f"HTTP {error.code}")


def run(config: Union[Mapping[str, object], str], username: str, apis: Sequence[Tuple[str, str]], sign_out: bool,
        show_code: Callable[[str], None] = lambda username: None) -> int:
    """The loop: the cached account or a sign-in, a token and a call per API, then sign-out if asked.
    ``config``: a mapping, or the JSON text of a configuration file."""
    try:
        app = msal.PublicClientApplication(config)
    except msal.InvalidConfigError as error:
        print(f"configuration: {error.message}")
        return 2
    with app:
        account = app.current_account()
        if account:
            print(f"account found in cache: {account.username}")
        else:
            password = input("Password (empty: email code): ")
            try:
                account = finish(app.sign_in(username, password=password or None), show_code, username)
            except msal.NativeAuthError as error:
                print(f"error {error.name}\nmessage: {error.message}\ncorrelation id: {error.correlation_id}")
                return 1
            print(f"signed in as: {account.username}")
        with account:
            for url, scopes in apis:
                call_api(account, url, scopes)
            if sign_out:
                account.sign_out()
                print("sign-out: done")
    return 0


class Emulator:
    """``native-auth-emulator --port 0 --quiet`` as a child process, read from its banner. Its
    built-in seed has the password app and two sample APIs (docs/emulator.md)."""

    def __init__(self, command: str) -> None:
        try:
            self.process = subprocess.Popen(
                [command, "--port", "0", "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
            )
        except OSError as error:
            raise SystemExit(f"cannot start the emulator {command}: {error}") from None
        banner: Dict[str, str] = {}
        assert self.process.stdout is not None
        for line in self.process.stdout:  # 'base URL: …' then 'authority: …'
            key, _, value = line.strip().partition(": ")
            banner.setdefault(key, value)
            if key == "authority":
                break
        if "authority" not in banner or "base URL" not in banner:
            self.stop()
            raise SystemExit(f"{command} printed no authority")
        self.base, self.authority = banner["base URL"], banner["authority"]
        self.apis = [
            (f"{self.base}/api/todolist", "api://emulator/todolist/ToDoList.Read"),
            (f"{self.base}/api/profile", "api://emulator/profile/Profile.Read"),
        ]

    def show_code(self, username: str) -> None:
        """Prints the newest code in the user's mailbox (the emulator sends no e-mail)."""
        with urllib.request.urlopen(f"{self.base}/_emulator/mailbox?username={username}") as response:
            mails = json.load(response)
        if mails:
            print(f"(the emulator's mailbox: {mails[-1]['code']})")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


def emulator_command(explicit: Optional[str]) -> str:
    command = explicit or os.environ.get("NATIVE_AUTH_EMULATOR") or shutil.which("native-auth-emulator")
    if not command:
        raise SystemExit(
            "native-auth-emulator not found: pass --emulator-command, set NATIVE_AUTH_EMULATOR, or put it on PATH "
            "(swift build --product native-auth-emulator)"
        )
    return command


def pairs(values: Sequence[str]) -> Iterator[Tuple[str, str]]:
    return zip(values[::2], values[1::2])


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m msal_native_auth", description=(__doc__ or "").replace("``", ""), formatter_class=argparse.RawDescriptionHelpFormatter
    )
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--config", metavar="FILE", help="the JSON configuration (client_id, tenant_subdomain or authority, ...)")
    source.add_argument("--emulator", action="store_true", help="start native-auth-emulator and use its seeded app")
    parser.add_argument("--emulator-command", metavar="PATH", help="the emulator program (default: $NATIVE_AUTH_EMULATOR, then PATH)")
    parser.add_argument("--sign-out", action="store_true", help="remove the account's tokens from the cache at the end")
    parser.add_argument("username")
    parser.add_argument("apis", nargs="*", metavar="API_URL SCOPES", help="pairs: an API's URL and the scopes of its token")
    options = parser.parse_args(argv)
    if len(options.apis) % 2:
        parser.error("APIs come in pairs: API_URL SCOPES")
    if options.config:
        try:
            with open(options.config, encoding="utf-8") as file:
                text = file.read()
        except (OSError, ValueError) as error:
            print(f"configuration: {error}")
            return 2
        return run(text, options.username, list(pairs(options.apis)), options.sign_out)
    emulator = Emulator(emulator_command(options.emulator_command))
    try:
        config = {"client_id": EMULATOR_CLIENT_ID, "authority": emulator.authority, "token_cache": "memory"}
        apis = list(pairs(options.apis)) or emulator.apis
        return run(config, options.username, apis, options.sign_out, emulator.show_code)
    finally:
        emulator.stop()


if __name__ == "__main__":
    sys.exit(main())
