#!/usr/bin/env python3
"""Cached getAccessToken through the C interface (a C program) and through the Python package, with
MSAL for Python (`acquire_token_silent`, Benchmarks/peer_msal.py) on the same files, in caches of the
Swift figure's sizes (1 x 10, 10 x 100 and 100 x 100 accounts x scope sets, 1 KB secrets: the
fixture of Benchmarks/msal-benchmarks/CacheFixture.swift). Prints p50 / p99 in microseconds.

Usage: bench_cached_token.py C_BENCH [--peer-python PYTHON] [--iterations N]   (scripts/bench-bindings)
"""

import argparse
import base64
import json
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional

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


def percentiles(samples_ns: List[int]) -> str:
    ordered = sorted(samples_ns)
    p50 = statistics.median(ordered) / 1000
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] / 1000
    return f"{p50:.2f} / {p99:.2f}"


def python_samples(config: str, target: str, iterations: int) -> List[int]:
    with msal.PublicClientApplication(config) as app:
        account = app.current_account()
        assert account is not None
        with account:
            for _ in range(200):
                account.get_access_token(target)
            samples = []
            for _ in range(iterations):
                start = time.perf_counter_ns()
                account.get_access_token(target)
                samples.append(time.perf_counter_ns() - start)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("c_bench")
    parser.add_argument("--peer-python")
    parser.add_argument("--iterations", type=int, default=20_000)
    options = parser.parse_args()
    print(f"cached getAccessToken, p50 / p99 µs ({options.iterations} calls after 200 of warm-up)")
    print(f"{'tokens':>7}  {'C interface':>16}  {'Python package':>16}  {'msal-python':>16}")
    for accounts, sets in [(1, 10), (10, 100), (100, 100)]:
        with tempfile.TemporaryDirectory() as directory:
            cache = Path(directory) / "token_cache.json"
            write_fixture(cache, accounts, sets)
            config = json.dumps({"client_id": CLIENT_ID, "authority": AUTHORITY, "cache_file": str(cache)})
            target = scope(sets // 2)
            c_run = subprocess.run([options.c_bench, config, target, str(options.iterations)], capture_output=True, text=True, check=True)
            c_figure = percentiles(json.loads(c_run.stdout)["samples"])
            python_figure = percentiles(python_samples(config, target, options.iterations))
            peer_figure: Optional[str] = "-"
            if options.peer_python:
                # The account the application picks: the most recent refresh token's (the last one written).
                username = f"user{accounts - 1}@example.com"
                peer = subprocess.run(
                    [options.peer_python, str(PEER), "silent", str(cache), CLIENT_ID, AUTHORITY, target, username,
                     str(max(200, options.iterations // 10))],
                    capture_output=True, text=True, check=True,
                )
                peer_figure = percentiles(json.loads(peer.stdout)["samples"])
            print(f"{accounts * sets:>7}  {c_figure:>16}  {python_figure:>16}  {peer_figure:>16}")


if __name__ == "__main__":
    main()
