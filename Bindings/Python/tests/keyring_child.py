"""The keyring cases that need a process of their own (GDBus keeps one session-bus connection per
process, and the keyring library is opened once): run by test_keyring.py.

    keyring_child.py CONFIG_JSON unavailable     create with the keyring; print the error, then the
                                                 same with "fallback": "file" and a sign-in
    keyring_child.py CONFIG_JSON locked          create (keyring open), lock it (gdbus), then print what
                                                 a new app, a sign-in and last_cache_error() say

Prints one line per step: `STEP ok ...` or `STEP ErrorClass message`.
"""

import json
import subprocess
import sys

import msal_native_auth as m


def report(step, action):
    try:
        print(step, "ok", action())
    except m.NativeAuthError as error:
        print(step, type(error).__name__, error.message)
    sys.stdout.flush()


def main():
    config, mode = json.loads(sys.argv[1]), sys.argv[2]
    lines = []
    m.set_log_callback(lambda level, message, pii: lines.append(message), level=m.LogLevel.WARNING)
    if mode == "unavailable":
        report("keyring", lambda: m.PublicClientApplication(config).close())
        fallback = {**config, "keyring": {**config["keyring"], "fallback": "file"}}

        def sign_in():
            with m.PublicClientApplication(fallback) as app:
                app.sign_in("ada@example.com", password="Analytical-Engine-1843").close()
                return [account.username for account in app.accounts()]

        report("fallback", sign_in)
        m.flush_log()
        print("log", json.dumps([line for line in lines if "keyring" in line]))
    elif mode == "locked":
        app = m.PublicClientApplication(config)
        app.sign_in("ada@example.com", password="Analytical-Engine-1843").close()
        subprocess.run(
            ["gdbus", "call", "--session", "--dest", "org.freedesktop.secrets", "--object-path", "/org/freedesktop/secrets",
             "--method", "org.freedesktop.Secret.Service.Lock", "['/org/freedesktop/secrets/collection/login']"],
            check=True, stdout=subprocess.DEVNULL)
        report("create", lambda: m.PublicClientApplication(config).close())
        # The open application signs in again: the tokens cannot be saved, which it reports.
        report("sign_in", lambda: type(app.sign_in("ada@example.com", password="Analytical-Engine-1843")).__name__)
        error = app.last_cache_error()
        print("last_cache_error", type(error).__name__, error.message if error else "")
        app.close()


if __name__ == "__main__":
    main()
