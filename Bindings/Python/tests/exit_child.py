"""A process that exits while an operation of the package is still pending (test_exit.py): the
library calls into Python from its own threads (a result, the request interceptor, the browser's URL
callback, a log line), and one that came while the interpreter finalizes would crash the process.

Usage: python exit_child.py CONFIG_JSON BASE_URL KIND HOW HOLD_SECONDS [LATE_MS]

  KIND  sign_in      an asyncio sign-in whose first request the emulator answers late
        refresh      an asyncio token refresh (force_refresh) answered late
        interceptor  an asyncio sign-in whose interceptor is due after a late answer
        browser      an asyncio browser sign-in whose URL callback is still running at the exit
                     (asyncio.run cancels it; the result comes once the callback returned)
        browser_thread  a browser sign-in started by a daemon thread just before the exit
  HOW   return (the program ends), sys_exit (sys.exit(3)) or raise (an unhandled exception)
  HOLD_SECONDS  > 0: an object whose __del__ sleeps that long as the interpreter clears the
                modules, so that it is still finalizing when the late answer comes (0: exit as
                fast as it goes)
  LATE_MS       how late the emulator answers the pending request (default 300)

Prints "pending" once the operation is under way; then exits the way HOW says.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
import time
import types
import urllib.request
from typing import Any

import msal_native_auth as m

ADA = ("ada@example.com", "Analytical-Engine-1843")
TODOLIST = "api://emulator/todolist/ToDoList.Read"
LATE_MS = int(sys.argv[6]) if len(sys.argv) > 6 else 300  # the emulator's delay on the pending request


class Hold:
    """Sleeps in __del__, which runs when the interpreter clears the modules: it has begun finalizing."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def __del__(self, sleep: Any = time.sleep) -> None:  # bound now: the globals may be gone by then
        sleep(self.seconds)

    @staticmethod
    def install(seconds: float) -> None:
        # In a module of its own: __main__'s globals stay alive while a daemon thread runs code of it.
        holder = types.ModuleType("exit_child_hold")
        holder.hold = Hold(seconds)  # type: ignore[attr-defined]
        sys.modules[holder.__name__] = holder


def late(base: str, endpoint: str) -> None:
    """The next request to ``endpoint`` is answered LATE_MS late (docs/emulator.md, faults)."""
    body = json.dumps([{"endpoint": endpoint, "delay_ms": LATE_MS}]).encode()
    request = urllib.request.Request(base + "/_emulator/faults", data=body, method="POST", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        assert response.status == 200


def finish(how: str) -> None:
    print("pending", flush=True)
    if how == "sys_exit":
        sys.exit(3)
    if how == "raise":
        raise RuntimeError("exit while pending")


async def pending(config: Any, base: str, kind: str, how: str) -> None:
    if kind == "sign_in":
        app = m.PublicClientApplication(config)
        late(base, "/oauth2/v2.0/initiate")
        task = asyncio.ensure_future(app.sign_in_async(*ADA))
    elif kind == "refresh":
        app = m.PublicClientApplication(config)
        step = app.sign_in(*ADA, scopes=[TODOLIST])
        assert isinstance(step, m.SignedIn) and step.account is not None
        late(base, "/oauth2/v2.0/token")
        task = asyncio.ensure_future(step.account.get_access_token_async(TODOLIST, force_refresh=True))
    elif kind == "interceptor":
        app = m.PublicClientApplication(config, request_interceptor=lambda url: {"x-contoso-exit": "1"})
        late(base, "/oauth2/v2.0/initiate")  # the interceptor of /challenge is called after it
        task = asyncio.ensure_future(app.sign_in_async(*ADA))
    elif kind == "browser":
        app = m.PublicClientApplication(config)
        loop = asyncio.get_running_loop()
        shown = asyncio.Event()

        def show(address: m.SignInURL) -> None:
            loop.call_soon_threadsafe(shown.set)
            time.sleep(LATE_MS / 1000)  # still in the callback when the program ends

        task = asyncio.ensure_future(app.acquire_token_interactive_async(TODOLIST, on_sign_in_url=show, use_system_browser=False))
        await shown.wait()
    else:
        raise SystemExit(f"unknown kind {kind}")
    await asyncio.sleep(0.02)  # the request is on its way
    assert not task.done(), task
    _keep.append((app, task))
    finish(how)


_keep: "list[Any]" = []  # what the program still holds when it exits


def main() -> None:
    config, base, kind, how, hold = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5])
    if hold > 0:
        Hold.install(hold)
    if kind == "browser_thread":
        app = m.PublicClientApplication(config)
        _keep.append(app)
        started = threading.Event()

        def sign_in() -> None:
            started.set()
            app.acquire_token_interactive(TODOLIST, on_sign_in_url=lambda address: None, use_system_browser=False)

        threading.Thread(target=sign_in, daemon=True).start()
        started.wait()
        finish(how)
    else:
        asyncio.run(pending(config, base, kind, how))


if __name__ == "__main__":
    main()
