#!/usr/bin/env python3
"""The terminal demo's loop in Python: sign in (password, email code, MFA), get a token for each API,
call it, sign out. Usage: sign_in_demo.py CONFIG.json USERNAME [API_URL "SCOPES"]... [--sign-out]
Answers (password, codes) are read from stdin, one per line; an empty password asks for a code.

The loop ships in the package as `python -m msal_native_auth` (read msal_native_auth/__main__.py:
`finish` answers each step, `call_api` gets a token and calls an API, `run` is the loop); this
script runs it on a configuration file, the way the C example (Bindings/C/Examples) takes its
arguments."""

import sys

from msal_native_auth.__main__ import main

if __name__ == "__main__":
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sign_out = ["--sign-out"] if sys.argv[-1] == "--sign-out" else []
    sys.exit(main(["--config", sys.argv[1], *sign_out, "--", *sys.argv[2 : len(sys.argv) - len(sign_out)]]))
