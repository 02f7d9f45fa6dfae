#!/usr/bin/env python3
"""Signs in on the emulator's authorize page in headless Chromium, driven by Selenium.

RealBrowserSignInTests starts this as the SDK's browser launcher:

    python real_browser_sign_in.py URL --username U --password P
    python real_browser_sign_in.py URL --username U --email-code
    python real_browser_sign_in.py URL --cancel

It opens URL (the SDK's authorize request, or the SDK listener's short address
`http://localhost:PORT/`, which redirects to it), fills the page by the emulator's page contract
(`form#authorize-form`, `data-step` sign_in / otp, inputs `username`, `password`, `otp`, buttons
`name="action"`), submits, and waits until the browser has landed on the SDK's loopback redirect
page: "Authentication completed" (or "Authentication failed" after --cancel). For --email-code the
code comes from the emulator's mailbox hook on the authorize page's host, which must be loopback.

Exit status: 0 landed as expected; 1 the page or the flow went wrong; 2 bad arguments; 3 the
overall deadline passed; 4 something missing (selenium, chromium, chromedriver). The reason is on
stderr, one line starting with "real-browser:".

Chromium runs headless with a private profile, HOME and TMPDIR in a temporary folder that is
removed at the end, `--no-sandbox` as root, and never asks Selenium Manager for a driver.
"""

import argparse
import json
import os
import shutil
import signal
import sys
import tempfile
import time
import urllib.parse
import urllib.request

SUCCESS_TEXT = "Authentication completed"
FAILURE_TEXT = "Authentication failed"
NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback only: never a proxy


class Failure(Exception):
    def __init__(self, message, status=1):
        super().__init__(message)
        self.status = status


class Deadline(Exception):
    pass


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="the authorize URL the SDK opens, or the SDK listener's short address")
    parser.add_argument("--username")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--password")
    mode.add_argument("--email-code", action="store_true", help="send_code, then the code from the mailbox hook")
    mode.add_argument("--cancel", action="store_true", help="press Cancel on the sign-in page")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    parser.add_argument("--step-timeout", type=float, default=45, help="seconds to wait for each page (45)")
    parser.add_argument("--deadline", type=float, default=150, help="seconds for the whole run (150)")
    parser.add_argument("--screenshot", help="where to save a screenshot when something goes wrong")
    arguments = parser.parse_args()
    if not arguments.cancel and not arguments.username:
        parser.error("--username is needed to sign in")
    return arguments


def redirect_origin(authorize_url):
    """scheme://host:port of the authorize request's redirect_uri (the SDK's loopback listener)."""
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(authorize_url).query)
    redirect = query.get("redirect_uri", [""])[0]
    parts = urllib.parse.urlsplit(redirect)
    if parts.scheme != "http" or not parts.hostname:
        raise Failure(f"the authorize URL has no loopback redirect_uri: {redirect!r}", 2)
    return parts


def is_short_address(url):
    """Whether `url` is the SDK listener's short address (http://localhost:PORT/ and a random path, no
    query) rather than the authorize URL, which always has one: the browser then learns the authorize
    URL from its redirect."""
    parts = urllib.parse.urlsplit(url)
    return parts.scheme == "http" and parts.hostname in ("localhost", "127.0.0.1", "::1") and not parts.query


def same_origin(url, origin):
    parts = urllib.parse.urlsplit(url)
    loopback = {"localhost", "127.0.0.1", "::1"}
    host_matches = parts.hostname == origin.hostname or {parts.hostname, origin.hostname} <= loopback
    return parts.scheme == origin.scheme and host_matches and parts.port == origin.port


def mailbox_codes(authorize_url, username):
    """The browser_sign_in codes mailed to `username`, oldest first, from the emulator's mailbox hook."""
    parts = urllib.parse.urlsplit(authorize_url)
    if parts.hostname not in ("127.0.0.1", "localhost", "::1"):
        raise Failure(f"the mailbox hook is read on loopback only, not {parts.hostname}", 2)
    hook = f"{parts.scheme}://{parts.netloc}/_emulator/mailbox?" + urllib.parse.urlencode({"username": username})
    try:
        with NO_PROXY.open(hook, timeout=10) as reply:
            mails = json.load(reply)
    except (OSError, ValueError) as error:
        raise Failure(f"the mailbox hook did not answer: {error}")
    return [mail["code"] for mail in mails if mail.get("purpose") == "browser_sign_in"]


def new_code(authorize_url, username, seen, wait):
    """The newest code once there are more than `seen`, polling for at most `wait` seconds."""
    end = time.monotonic() + wait
    while True:
        codes = mailbox_codes(authorize_url, username)
        if len(codes) > seen:
            return codes[-1]
        if time.monotonic() > end:
            raise Failure(f"no new browser_sign_in code in the mailbox of {username} after {wait:.0f} s")
        time.sleep(0.1)


def start_driver(arguments, home):
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError as error:
        raise Failure(f"selenium is missing in {sys.executable} ({error}); scripts/test installs it", 4)
    for name, path in (("chromium", arguments.chromium), ("chromedriver", arguments.chromedriver)):
        if not os.access(path, os.X_OK):
            raise Failure(f"{name} is missing ({path}); scripts/install-deps test installs it", 4)

    options = webdriver.ChromeOptions()
    options.binary_location = arguments.chromium
    for flag in (
        "--headless=new",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1024,768",
        f"--user-data-dir={os.path.join(home, 'profile')}",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-extensions",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--password-store=basic",
        "--no-proxy-server",
    ):
        options.add_argument(flag)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")  # Chromium refuses to start as root with its sandbox

    # Chromedriver and Chromium write under HOME and leave folders in TMPDIR: both go to `home`.
    environment = dict(os.environ, HOME=home, TMPDIR=home, SE_OFFLINE="true")
    environment.pop("DISPLAY", None)
    environment.pop("WAYLAND_DISPLAY", None)
    service = Service(executable_path=arguments.chromedriver, env=environment, log_output=os.path.join(home, "chromedriver.log"))
    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager never goes to the network
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(arguments.step_timeout)
    driver.set_script_timeout(arguments.step_timeout)
    return driver


def run(arguments, driver):
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, TimeoutException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.expected_conditions import staleness_of
    from selenium.webdriver.support.ui import WebDriverWait

    # The listener's origin: from the authorize URL's redirect_uri; for the short address, from the
    # authorize URL it redirected to, once the sign-in page shows.
    origin = None if is_short_address(arguments.url) else redirect_origin(arguments.url)
    wait = WebDriverWait(
        driver, arguments.step_timeout, poll_frequency=0.1, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException))

    def page_state(_):
        """("landed", text) on the loopback page, ("form", step) on the authorize form, ("error", code)
        on the emulator's error page, else None (still loading)."""
        if origin is not None and same_origin(driver.current_url, origin):
            text = driver.find_element(By.TAG_NAME, "body").text
            return ("landed", text) if text.strip() else None
        forms = driver.find_elements(By.ID, "authorize-form")
        if forms:
            return ("form", forms[0].get_attribute("data-step"))
        errors = driver.find_elements(By.ID, "error-code")
        if errors:
            return ("error", errors[0].text)
        return None

    def wait_for(description, predicate):
        try:
            return wait.until(predicate)
        except TimeoutException:
            raise Failure(f"no {description} within {arguments.step_timeout:.0f} s; at {safe(driver.current_url)}")

    def message():
        notes = driver.find_elements(By.ID, "message") + driver.find_elements(By.ID, "error-description")
        text = " ".join(note.text for note in notes if note.text)
        return f": {text}" if text else ""

    def expect_form(expected):
        state = wait_for(f"'{expected}' page", page_state)
        if state != ("form", expected):
            raise Failure(f"expected the '{expected}' page, got {state[0]} {state[1]!r}{message()}")

    def fill(name, value):
        field = wait_for(f"input '{name}'", lambda _: driver.find_element(By.NAME, name))
        field.clear()
        field.send_keys(value)

    def press(action):
        """Clicks a submit button and waits until the next page replaced this one."""
        form = driver.find_element(By.ID, "authorize-form")
        selector = f'#authorize-form button[name="action"][value="{action}"]'
        wait_for(f"'{action}' button", lambda _: driver.find_element(By.CSS_SELECTOR, selector)).click()
        wait_for(f"page after '{action}'", staleness_of(form))

    driver.get(arguments.url)
    expect_form("sign_in")
    authorize_url = driver.current_url if origin is None else arguments.url
    if origin is None:
        if same_origin(authorize_url, urllib.parse.urlsplit(arguments.url)):
            raise Failure(f"the short address {safe(arguments.url)} did not lead to the sign-in page")
        origin = redirect_origin(authorize_url)
        print(f"real-browser: the short address led to {safe(authorize_url)}", file=sys.stderr)
    if arguments.cancel:
        press("cancel")
    elif arguments.password is not None:
        fill("username", arguments.username)
        fill("password", arguments.password)
        press("password")
    else:
        seen = len(mailbox_codes(authorize_url, arguments.username))
        fill("username", arguments.username)
        press("send_code")
        expect_form("otp")
        fill("otp", new_code(authorize_url, arguments.username, seen, arguments.step_timeout))
        press("verify_code")

    # The form posts, the emulator answers 302 to the loopback redirect URI, and the SDK's listener
    # answers with its result page. Anything else (the form again with a message) is a failure.
    kind, value = wait_for("loopback redirect page", page_state)
    if kind != "landed":
        raise Failure(f"stayed on the emulator's {kind} page {value!r}{message()}")
    expected = FAILURE_TEXT if arguments.cancel else SUCCESS_TEXT
    if expected not in value:
        raise Failure(f"the loopback page says {value!r}, expected {expected!r}")
    print(f"real-browser: landed on the loopback page: {value.strip()}", file=sys.stderr)


def safe(url):
    """A URL without its query (codes, state) for messages."""
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))


def main():
    arguments = parse_arguments()
    started = time.monotonic()

    def on_alarm(signum, frame):
        raise Deadline()

    def on_term(signum, frame):
        raise Failure("terminated by SIGTERM", 3)

    signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, arguments.deadline)
    signal.signal(signal.SIGTERM, on_term)  # the test gave up: still quit Chromium

    home = tempfile.mkdtemp(prefix="real-browser-")
    driver = None
    status = 0
    show_driver_log = False  # for failures without a message of ours
    try:
        driver = start_driver(arguments, home)
        run(arguments, driver)
    except Deadline:
        status, show_driver_log = 3, True
        print(f"real-browser: the whole run took over {arguments.deadline:.0f} s", file=sys.stderr)
    except Failure as failure:
        status = failure.status
        print(f"real-browser: {failure}", file=sys.stderr)
    except Exception as error:  # WebDriver errors: name the type, the message is long
        status, show_driver_log = 1, True
        first_line = (str(error).strip().splitlines() or [""])[0]
        print(f"real-browser: {type(error).__name__}: {first_line}", file=sys.stderr)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        if driver is not None:
            if status and arguments.screenshot:
                try:
                    driver.save_screenshot(arguments.screenshot)
                except Exception:
                    pass
            try:
                driver.quit()
            except Exception:
                pass
        if show_driver_log:
            log = os.path.join(home, "chromedriver.log")
            if os.path.exists(log):
                with open(log, errors="replace") as file:
                    tail = file.read()[-2000:]
                if tail.strip():
                    print("real-browser: chromedriver log tail:\n" + tail, file=sys.stderr)
        shutil.rmtree(home, ignore_errors=True)
    print(f"real-browser: {time.monotonic() - started:.1f} s", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
