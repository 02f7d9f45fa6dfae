#!/usr/bin/env python3
"""The terminal demo's loop in Python: sign in (password, email code, MFA), get a token for each API,
call it, sign out. Usage: sign_in_demo.py CONFIG.json USERNAME [API_URL "SCOPES"]... [--sign-out]
Answers (password, codes) are read from stdin, one per line; an empty password asks for a code."""

import sys
import urllib.error
import urllib.request

import msal_native_auth as msal


def finish(step: msal.Step) -> msal.Account:
    """Answers what the service asks until the user is signed in."""
    while not isinstance(step, msal.SignedIn):
        with step:
            if isinstance(step, msal.CodeRequired):
                print(f"code sent to: {step.sent_to}")
                step = step.state.submit_code(input("Code: "))
            elif isinstance(step, msal.PasswordRequired):
                step = step.state.submit_password(input("Password: "))
            elif isinstance(step, msal.MFARequired):
                print("second factor required")
                step = step.state.request_challenge(step.auth_methods[0])
            else:
                raise SystemExit(f"unexpected step {type(step).__name__}")
    assert step.account is not None
    return step.account


def call_api(account: msal.Account, url: str, scopes: str) -> None:
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


def main(argv: list) -> int:
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    sign_out = argv[-1] == "--sign-out"
    apis = argv[3 : len(argv) - sign_out]
    try:
        app = msal.PublicClientApplication.from_file(argv[1])
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
                account = finish(app.sign_in(argv[2], password=password or None))
            except msal.NativeAuthError as error:
                print(f"error {error.name}\nmessage: {error.message}\ncorrelation id: {error.correlation_id}")
                return 1
            print(f"signed in as: {account.username}")
        with account:
            for url, scopes in zip(apis[::2], apis[1::2]):
                call_api(account, url, scopes)
            if sign_out:
                account.sign_out()
                print("sign-out: done")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
