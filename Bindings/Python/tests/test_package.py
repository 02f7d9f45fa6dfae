"""The package as Python users meet it: type hints, help(), and ``python -m msal_native_auth``."""

from __future__ import annotations

import inspect
import os
import pydoc
import subprocess
import sys
import threading
from pathlib import Path
from typing import Iterator, List, Tuple

import msal_native_auth as m
from conftest import Emulator


def public_api() -> Iterator[Tuple[str, object]]:
    """Every name in __all__ that is a class or function, and the public methods and properties
    of those classes (exceptions aside: their interface is NativeAuthError's)."""
    for name in m.__all__:
        value = getattr(m, name)
        if inspect.isfunction(value):
            yield name, value
        elif inspect.isclass(value):
            yield name, value
            if issubclass(value, BaseException) or issubclass(value, int):
                continue
            for attribute, member in vars(value).items():
                if not attribute.startswith("_") and (inspect.isfunction(member) or isinstance(member, (property, classmethod))):
                    yield f"{name}.{attribute}", member


def test_every_public_class_function_method_and_property_has_a_docstring() -> None:
    missing = [name for name, value in public_api() if not inspect.getdoc(value)]
    assert missing == []
    # dataclasses: a docstring of our own, not the generated signature
    generated = [name for name, value in public_api() if inspect.isclass(value) and (inspect.getdoc(value) or "").startswith(f"{name}(")]
    assert generated == []


def test_every_public_function_and_method_is_fully_annotated() -> None:
    unannotated: List[str] = []
    for name, value in public_api():
        function = value.fget if isinstance(value, property) else value.__func__ if isinstance(value, classmethod) else value
        if not inspect.isfunction(function):
            continue
        signature = inspect.signature(function)
        for parameter in signature.parameters.values():
            if parameter.name not in ("self", "cls") and parameter.annotation is inspect.Parameter.empty:
                unannotated.append(f"{name}({parameter.name})")
        if signature.return_annotation is inspect.Signature.empty:
            unannotated.append(f"{name} -> ?")
    assert unannotated == []


def test_type_hints_are_shipped_and_help_reads_as_documentation() -> None:
    assert Path(m.__file__).with_name("py.typed").is_file()
    text = pydoc.render_doc(m, renderer=pydoc.plaintext)
    for line in ("Native sign-in for Microsoft Entra External ID", "class PublicClientApplication", "get_access_token(self, scopes",
                 "A one-time code was sent to"):
        assert line in text
    assert "access_token=" not in repr(m.AccessToken("secret-token", 0, []))  # help and logs never show a token


def run_module(*arguments: str, answers: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "msal_native_auth", *arguments], input=answers, capture_output=True, text=True, timeout=timeout,
        env=os.environ.copy(),
    )


def test_module_entry_against_the_emulator_it_starts() -> None:
    done = run_module("--emulator", "--sign-out", "ada@example.com", answers="Analytical-Engine-1843\n")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "signed in as: ada@example.com" in done.stdout
    assert done.stdout.count("HTTP 200") == 2 and '"name":"Ada Lovelace"' in done.stdout
    assert "sign-out: done" in done.stdout


def test_module_entry_with_an_email_code_shown_from_the_emulators_mailbox() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "msal_native_auth", "--emulator", "grace@example.com"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True,
    )
    assert process.stdin is not None and process.stdout is not None
    watchdog = threading.Timer(60, process.kill)  # a prompt that never gets its answer ends here
    watchdog.start()
    process.stdin.write("\n")  # no password: a code
    process.stdin.flush()
    seen = []
    for line in process.stdout:
        seen.append(line)
        if "the emulator's mailbox: " in line:
            code = line.split("the emulator's mailbox: ")[1].strip(" )\n")
            process.stdin.write(code + "\n")
            process.stdin.flush()
            break
    rest, _ = process.communicate(timeout=60)
    watchdog.cancel()
    output = "".join(seen) + rest
    assert process.returncode == 0, output
    assert "code sent to:" in output and "signed in as: grace@example.com" in output and output.count("HTTP 200") == 2


def test_module_entry_with_a_configuration_file(emulator: Emulator, tmp_path: Path) -> None:
    config = tmp_path / "config.json"
    config.write_text(f'{{"client_id": "{emulator.config()["client_id"]}", "authority": "{emulator.authority}", "cache": "memory"}}')
    done = run_module("--config", str(config), "ada@example.com", f"{emulator.base}/api/todolist", "api://emulator/todolist/ToDoList.Read",
                      answers="wrong-password\n")
    assert done.returncode == 1 and "error MSAL_NA_ERR_INVALID_CREDENTIALS" in done.stdout and "correlation id: " in done.stdout
    config.write_text('{"client_id": "x"}')
    done = run_module("--config", str(config), "ada@example.com", answers="")
    assert done.returncode == 2 and "set exactly one of 'tenant_subdomain' and 'authority'" in done.stdout
    done = run_module("--config", str(tmp_path / "missing.json"), "ada@example.com", answers="")
    assert done.returncode == 2 and "configuration:" in done.stdout
    done = run_module("ada@example.com", answers="")
    assert done.returncode == 2 and "one of the arguments --config --emulator is required" in done.stderr
    done = run_module("--emulator", "--emulator-command", str(tmp_path / "no-such-emulator"), "ada@example.com", answers="")
    assert done.returncode != 0 and "no-such-emulator" in done.stderr
