#!/usr/bin/env python3
"""Cached getAccessToken side by side, in one run, on the same cache file: the Swift SDK (a Swift
program, the reference), the C interface in both forms (a C program: the blocking `_wait` form
with its result, and `msal_na_account_get_access_token_into`, the fast path), the Python package
(`account.get_access_token()`, and the same over the result form as the package did before the
fast path), and MSAL for Python (`acquire_token_silent`, Benchmarks/peer_msal.py). Caches of the
Swift figure's sizes (1 x 10, 10 x 100 and 100 x 100 accounts x scope sets, 1 KB secrets: the
fixture of Benchmarks/msal-benchmarks/CacheFixture.swift). Prints p50 / p99 in microseconds, then
each target (C within 1.5x of Swift, Python at least 3x faster than MSAL for Python, both at p50)
with whether this run met it.

Usage: bench_cached_token.py C_BENCH [--swift-bench PROGRAM] [--peer-python PYTHON] [--iterations N]
       (scripts/bench-bindings)
"""

import argparse
import base64
import json
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Tuple

import msal_native_auth as msal

CLIENT_ID = "11111111-1111-4111-8111-111111111111"
AUTHORITY = "https://contoso.ciamlogin.com/contoso.onmicrosoft.com"
UTID = "5c3b1c2e-8a4f-4f5e-9d7a-0e6b2a9c1d00"
PEER = Path(__file__).resolve().parents[2] / "Benchmarks" / "peer_msal.py"


def uid(account: int) -> str:
    return f"a1a1a1a1-0000-4000-8000-{account:012d}"


def scope(number: int) -> str:
    return f"api://bench/resource{number}/Data.Read"


def write_fixture(path: Path, accounts: int, scope_sets: int) -> None:
    """CacheFixture.write in Python: the same keys, fields and secrets."""
    environment, realm, now = "contoso.ciamlogin.com", "contoso.onmicrosoft.com", int(time.time())
    document: Dict[str, Dict] = {"AccessToken": {}, "RefreshToken": {}, "IdToken": {}, "Account": {}}
    for account in range(accounts):
        home = f"{uid(account)}.{UTID}"
        for number in range(scope_sets):
            target = scope(number)
            key = f"{home}-{environment}-accesstoken-{CLIENT_ID}-{realm}-{target}".lower()
            document["AccessToken"][key] = {
                "credential_type": "AccessToken", "secret": f"at-{account}-{number}-" + "x" * 900, "home_account_id": home,
                "environment": environment, "client_id": CLIENT_ID, "realm": realm, "target": target, "token_type": "Bearer",
                "cached_at": str(now), "expires_on": str(now + 31_536_000), "extended_expires_on": str(now + 31_536_000),
            }
        document["RefreshToken"][f"{home}-{environment}-refreshtoken-{CLIENT_ID}--".lower()] = {
            "credential_type": "RefreshToken", "secret": f"rt-{account}", "home_account_id": home, "environment": environment,
            "client_id": CLIENT_ID, "last_modification_time": str(now + account),
        }
        claims = {"preferred_username": f"user{account}@example.com", "oid": uid(account), "tid": UTID, "sub": uid(account), "ver": "2.0"}
        payload = base64.urlsafe_b64encode(json.dumps(claims).encode()).decode().rstrip("=")
        document["IdToken"][f"{home}-{environment}-idtoken-{CLIENT_ID}-{realm}-".lower()] = {
            "credential_type": "IdToken", "secret": f"eyJhbGciOiJub25lIn0.{payload}.", "home_account_id": home,
            "environment": environment, "realm": realm, "client_id": CLIENT_ID,
        }
        document["Account"][f"{home}-{environment}-{realm}".lower()] = {
            "home_account_id": home, "environment": environment, "realm": realm, "local_account_id": uid(account),
            "username": f"user{account}@example.com", "authority_type": "MSSTS",
        }
    document["AppMetadata"] = {f"appmetadata-{environment}-{CLIENT_ID}": {"client_id": CLIENT_ID, "environment": environment}}
    path.write_text(json.dumps(document))


def p50_p99(samples_ns: List[int]) -> Tuple[float, float]:
    ordered = sorted(samples_ns)
    return statistics.median(ordered) / 1000, ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] / 1000


def python_samples(config: str, target: str, iterations: int, result_form: bool) -> List[int]:
    """``account.get_access_token``, or with ``result_form`` the blocking C call and its result
    read through the typed getters (the package's path before msal_na_account_get_access_token_into)."""
    from msal_native_auth import results
    from msal_native_auth._native import lib

    with msal.PublicClientApplication(config) as app:
        account = app.current_account()
        assert account is not None
        with account:
            if result_form:
                encoded, wait = target.encode(), lib.msal_na_account_get_access_token_wait

                def call() -> object:
                    return results._wait(wait, account.handle, encoded, 0)
            else:

                def call() -> object:
                    return account.get_access_token(target)

            for _ in range(200):
                call()
            samples = []
            clock = time.perf_counter_ns
            for _ in range(iterations):
                start = clock()
                call()
                samples.append(clock() - start)
    return samples


def run_json(command: List[str]) -> Dict[str, List[int]]:
    return json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("c_bench")
    parser.add_argument("--swift-bench")
    parser.add_argument("--peer-python")
    parser.add_argument("--iterations", type=int, default=20_000)
    options = parser.parse_args()
    columns = ["Swift SDK", "C _wait", "C _into", "Python", "Python (result form)", "msal-python"]
    print(f"cached getAccessToken, p50 / p99 µs ({options.iterations} calls after 200 of warm-up; same cache file per row)")
    print(f"{'tokens':>7}" + "".join(f"  {name:>20}" for name in columns))
    verdicts: List[str] = []
    all_met = True
    for accounts, sets in [(1, 10), (10, 100), (100, 100)]:
        with tempfile.TemporaryDirectory() as directory:
            cache = Path(directory) / "token_cache.json"
            write_fixture(cache, accounts, sets)
            config = json.dumps({"client_id": CLIENT_ID, "authority": AUTHORITY, "cache_file": str(cache)})
            target = scope(sets // 2)
            figures: Dict[str, Tuple[float, float]] = {}
            if options.swift_bench:
                swift = run_json([options.swift_bench, CLIENT_ID, AUTHORITY, str(cache), target, str(options.iterations)])
                figures["Swift SDK"] = p50_p99(swift["samples"])
            c_run = run_json([options.c_bench, config, target, str(options.iterations)])
            figures["C _wait"] = p50_p99(c_run["wait"])
            figures["C _into"] = p50_p99(c_run["into"])
            figures["Python"] = p50_p99(python_samples(config, target, options.iterations, result_form=False))
            figures["Python (result form)"] = p50_p99(python_samples(config, target, options.iterations, result_form=True))
            if options.peer_python:
                # The account the application picks: the most recent refresh token's (the last one written).
                username = f"user{accounts - 1}@example.com"
                peer = run_json(
                    [options.peer_python, str(PEER), "silent", str(cache), CLIENT_ID, AUTHORITY, target, username,
                     str(max(200, options.iterations // 10))]
                )
                figures["msal-python"] = p50_p99(peer["samples"])
            cells = "".join(
                f"  {(f'{figures[name][0]:.2f} / {figures[name][1]:.2f}' if name in figures else '-'):>20}" for name in columns
            )
            print(f"{accounts * sets:>7}{cells}")
            tokens = accounts * sets
            if "Swift SDK" in figures:
                ratio = figures["C _into"][0] / figures["Swift SDK"][0]
                met = ratio <= 1.5
                all_met &= met
                verdicts.append(f"{tokens:>7}  C _into within 1.5x of Swift (p50): {ratio:.2f}x  {'met' if met else 'NOT MET'}")
            if "msal-python" in figures:
                speedup = figures["msal-python"][0] / figures["Python"][0]
                met = speedup >= 3
                all_met &= met
                verdicts.append(f"{tokens:>7}  Python at least 3x faster than msal-python (p50): {speedup:.2f}x  {'met' if met else 'NOT MET'}")
    print("targets:")
    for line in verdicts:
        print(line)
    print(f"all targets met: {'yes' if all_met and verdicts else 'no'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
