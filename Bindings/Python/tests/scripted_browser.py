#!/usr/bin/env python3
"""A scripted browser for the emulator's authorize page, over plain HTTP (no JavaScript needed).

It loads the authorize URL (or the SDK listener's short address, which redirects to it), fills
the page's form by the emulator's page contract (docs/emulator.md,
"Browser sign-in": `form#authorize-form` with `data-step` sign_in / otp / consent, hidden `flow`,
inputs `username`, `password`, `otp`, checkboxes `scope`, buttons `name="action"`), posts it, keeps
the session cookie, and follows the final redirect to the SDK's loopback listener, which then
finishes the sign-in: what Sources/NativeAuthTesting/HeadlessSignInBrowser.swift does for the Swift
tests. Used from the tests as a function (the URL callback) and as a command (the system browser
through $BROWSER, which appends the URL):

    scripted_browser.py --password USER PASSWORD URL
    scripted_browser.py --email-code USER URL     (the code from the emulator's mailbox hook)
    scripted_browser.py --cancel URL

Exit status 0 when the redirect reached the app, 1 otherwise (the reason on stderr). With
`--record FILE` it appends the URL it was given to FILE first.
"""

from __future__ import annotations

import argparse
import html.parser
import json
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Dict, List, Optional, Tuple

NO_PROXY = urllib.request.ProxyHandler({})  # loopback only: never a proxy


class Page(html.parser.HTMLParser):
    """The form of one page: action, step, hidden fields, checkboxes, and the message paragraphs."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.action: Optional[str] = None
        self.step: Optional[str] = None
        self.hidden: List[Tuple[str, str]] = []
        self.checkboxes: List[str] = []
        self.paragraphs: Dict[str, str] = {}
        self._paragraph: Optional[str] = None
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: List[Tuple[str, Optional[str]]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag == "form" and self.action is None:
            self.action, self.step = found.get("action"), found.get("data-step")
        elif tag == "input" and found.get("type") == "hidden":
            self.hidden.append((found.get("name", ""), found.get("value", "")))
        elif tag == "input" and found.get("type") == "checkbox":
            self.checkboxes.append(found.get("value", ""))
        elif tag == "p" and "id" in found:
            self._paragraph = found["id"]
            self.paragraphs[self._paragraph] = ""

    def handle_data(self, data: str) -> None:
        if self._paragraph:
            self.paragraphs[self._paragraph] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "p":
            self._paragraph = None


class Stop(Exception):
    """The page could not be filled as asked; the message says why."""


class _KeepRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:  # type: ignore[override]
        return None  # every hop is the browser's own decision


def _load(url: str, cookies: Dict[str, str], form: Optional[List[Tuple[str, str]]] = None) -> Tuple[int, Dict[str, str], str]:
    data = urllib.parse.urlencode(form).encode() if form is not None else None
    request = urllib.request.Request(url, data=data, method="POST" if form is not None else "GET")
    if cookies:
        request.add_header("Cookie", "; ".join(f"{name}={value}" for name, value in sorted(cookies.items())))
    opener = urllib.request.build_opener(NO_PROXY, _KeepRedirects())
    try:
        response = opener.open(request, timeout=30)
        status, headers, body = response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        status, headers, body = error.code, error.headers, error.read()
    for value in headers.get_all("Set-Cookie") or []:
        name, _, rest = value.partition("=")
        cookies[name.strip()] = rest.split(";", 1)[0]
    return status, {"Location": headers.get("Location", "")}, body.decode("utf-8", "replace")


def mailbox_code(authorize_url: str, username: str, seen: int) -> str:
    """The newest browser_sign_in code for `username` once there are more than `seen`."""
    base = "{0.scheme}://{0.netloc}".format(urllib.parse.urlsplit(authorize_url))
    for _ in range(200):
        with urllib.request.build_opener(NO_PROXY).open(f"{base}/_emulator/mailbox?username={urllib.parse.quote(username)}") as answer:
            codes = [mail["code"] for mail in json.load(answer) if mail["purpose"] == "browser_sign_in"]
        if len(codes) > seen:
            return codes[-1]
        time.sleep(0.05)
    raise Stop(f"no browser_sign_in code for {username}")


def sign_in(
    url: str, *, username: str = "", password: Optional[str] = None, email_code: bool = False, cancel: bool = False,
    decline: Tuple[str, ...] = (),
) -> str:
    """Drives the page to the end; returns the redirect URL the app's listener was given. On a
    consent page it unchecks the scopes in `decline` and accepts the rest."""
    cookies: Dict[str, str] = {}
    status, headers, text = _load(url, cookies)
    seen = 0
    for _ in range(8):
        if 300 <= status < 400 and headers["Location"]:
            target = urllib.parse.urljoin(url, headers["Location"])
            # Followed unless it takes the answer to the app: on the page's own host, or from the
            # short address to the authorize page (as Sources/NativeAuthTesting/HeadlessSignInBrowser.swift).
            if urllib.parse.urlsplit(target).netloc == urllib.parse.urlsplit(url).netloc or not _answers_the_app(target):
                url = target
                status, headers, text = _load(target, cookies)
                continue
            _load(target, cookies)  # the redirect to the app: its listener answers and finishes the sign-in
            return target
        if status != 200:
            raise Stop(f"the sign-in page answered HTTP {status}: {text[:200]}")
        page = Page(text)
        if page.action is None:
            raise Stop(f"the page has no form: {page.paragraphs}")
        fields = list(page.hidden)
        if cancel:
            fields.append(("action", "cancel"))
        elif page.step == "sign_in" and password is not None:
            if page.paragraphs.get("message"):
                raise Stop(f"the sign-in page refused the credentials: {page.paragraphs['message']}")
            fields += [("username", username), ("password", password), ("action", "password")]
        elif page.step == "sign_in" and email_code:
            seen = len(_codes(url, username))
            fields += [("username", username), ("action", "send_code")]
        elif page.step == "otp" and email_code:
            fields += [("otp", mailbox_code(url, username, seen)), ("action", "verify_code")]
        elif page.step == "consent":
            fields += [("scope", scope) for scope in page.checkboxes if scope not in decline] + [("action", "accept")]
        else:
            raise Stop(f"cannot fill the '{page.step}' page: {page.paragraphs}")
        status, headers, text = _load(urllib.parse.urljoin(url, page.action), cookies, fields)
    raise Stop("too many pages")


def _answers_the_app(url: str) -> bool:
    """Whether the query has ``code`` or ``error``: the redirect that ends the sign-in at the app."""
    names = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query, keep_blank_values=True)
    return "code" in names or "error" in names


def _codes(url: str, username: str) -> List[str]:
    base = "{0.scheme}://{0.netloc}".format(urllib.parse.urlsplit(url))
    with urllib.request.build_opener(NO_PROXY).open(f"{base}/_emulator/mailbox?username={urllib.parse.quote(username)}") as answer:
        return [mail["code"] for mail in json.load(answer) if mail["purpose"] == "browser_sign_in"]


def main(arguments: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--password", nargs=2, metavar=("USER", "PASSWORD"))
    mode.add_argument("--email-code", metavar="USER")
    mode.add_argument("--cancel", action="store_true")
    parser.add_argument("--record", help="append the URL to this file first")
    parser.add_argument("url")
    options = parser.parse_args(arguments)
    if options.record:
        with open(options.record, "a", encoding="utf-8") as record:
            record.write(options.url + "\n")
    try:
        if options.password:
            sign_in(options.url, username=options.password[0], password=options.password[1])
        elif options.email_code:
            sign_in(options.url, username=options.email_code, email_code=True)
        else:
            sign_in(options.url, cancel=True)
    except (Stop, OSError) as error:
        print(f"scripted-browser: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
