"""The peer side of the benchmarks: MSAL for Python on the same token cache file.

    python peer_msal.py silent CACHE CLIENT_ID AUTHORITY SCOPE USERNAME ITERATIONS
        acquire_token_silent() latencies (ns) for a cached token, as JSON {"samples": [...]}
    python peer_msal.py persist CACHE ITERATIONS
        deserialize() and serialize() times (ns) of CACHE, as JSON
    python peer_msal.py token CACHE CLIENT_ID AUTHORITY SCOPE
        prints the cached access token of the first account: what a fresh process of a
        command-line tool does (the benchmarks time the whole process)

MSAL for Python looks up the authority's OpenID configuration when the application is created;
a fake HTTP client answers that one request locally, so nothing leaves the machine and the timed
calls run msal's own cache path unchanged (a cache hit makes no HTTP request).
"""
import json
import sys
import time

import msal


class DiscoveryOnly:
    """Answers the OpenID discovery GET; refuses anything else (a cache miss would show)."""

    def __init__(self, authority):
        self.authority = authority

    def get(self, url, **kwargs):
        base = self.authority
        body = {"authorization_endpoint": base + "/oauth2/v2.0/authorize", "token_endpoint": base + "/oauth2/v2.0/token",
                "issuer": base + "/v2.0", "device_authorization_endpoint": base + "/oauth2/v2.0/devicecode"}
        return Response(200, json.dumps(body))

    def post(self, url, **kwargs):
        raise RuntimeError("unexpected POST " + url + ": the benchmark expects cache hits only")

    def close(self):
        pass


class Response:
    def __init__(self, status_code, text):
        self.status_code = status_code
        self.text = text
        self.headers = {}

    def raise_for_status(self):
        pass


def silent(cache_path, client_id, authority, scope, username, iterations):
    cache = msal.SerializableTokenCache()
    cache.deserialize(open(cache_path).read())
    app = msal.PublicClientApplication(client_id, authority=authority, token_cache=cache, http_client=DiscoveryOnly(authority))
    accounts = app.get_accounts(username=username)
    assert accounts, "no account for " + username
    account = accounts[0]
    result = app.acquire_token_silent([scope], account)
    assert result and "access_token" in result, result
    samples = []
    for _ in range(iterations):
        start = time.perf_counter_ns()
        result = app.acquire_token_silent([scope], account)
        samples.append(time.perf_counter_ns() - start)
    assert result["token_source"] == "cache", result
    print(json.dumps({"samples": samples, "msal": msal.__version__}))


def persist(cache_path, iterations):
    text = open(cache_path).read()
    load, save = [], []
    for _ in range(iterations):
        cache = msal.SerializableTokenCache()
        start = time.perf_counter_ns()
        cache.deserialize(text)
        load.append(time.perf_counter_ns() - start)
        start = time.perf_counter_ns()
        cache.serialize()
        save.append(time.perf_counter_ns() - start)
    print(json.dumps({"load": load, "save": save}))


def token(cache_path, client_id, authority, scope):
    cache = msal.SerializableTokenCache()
    with open(cache_path) as file:
        cache.deserialize(file.read())
    app = msal.PublicClientApplication(client_id, authority=authority, token_cache=cache, http_client=DiscoveryOnly(authority))
    accounts = app.get_accounts()
    if not accounts:
        sys.exit("no account in " + cache_path)
    result = app.acquire_token_silent([scope], accounts[0])
    if not result or result.get("token_source") != "cache":
        sys.exit("no cached token: " + repr(result))
    print(result["access_token"])


if __name__ == "__main__":
    if sys.argv[1] == "silent":
        silent(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6], int(sys.argv[7]))
    elif sys.argv[1] == "persist":
        persist(sys.argv[2], int(sys.argv[3]))
    elif sys.argv[1] == "token":
        token(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
    else:
        sys.exit("usage: peer_msal.py silent|persist|token …")
