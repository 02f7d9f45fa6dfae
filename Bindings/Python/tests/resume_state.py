"""A second process that continues a saved flow (test_saved_states.py): restores the state read
from stdin in a new application made from the configuration, does one step, and prints JSON: the
kind it restored, the step's outcome, and the next state saved again (or the signed-in username).

Usage: python resume_state.py CONFIG_JSON STEP [ARGUMENT]   STEP: submit_code, submit_password,
       sign_in, request_challenge (to the first offered method)
"""

import json
import sys

import msal_native_auth as m


def main() -> None:
    config, step, *arguments = sys.argv[1:]
    with m.PublicClientApplication(config) as app, app.restore_state(sys.stdin.read()) as state:
        report = {"kind": state.kind.name if state.kind else None, "methods": [method.channel for method in state.auth_methods]}
        if step == "request_challenge":
            done = state.request_challenge(state.auth_methods[0])
        else:
            done = getattr(state, step)(*arguments)
        with done:
            report["outcome"] = type(done).__name__
            if isinstance(done, m.SignedIn) and done.account is not None:
                report["username"] = done.account.username
                done.account.close()
            elif done.state is not None:
                report["saved"] = done.state.dumps()
    print(json.dumps(report))


if __name__ == "__main__":
    main()
