"""The Python side of `msal-benchmarks --only redis`: MSAL for Python's SerializableTokenCache kept
in Redis with redis-py, one key per user, read-modify-write on every request, as msal-python's
documentation on token cache serialization shows for web apps (load before, save if changed after).

    python peer_redis_cache.py seed URL KEY CLIENT_ID AUTHORITY UID UTID SCOPES
        writes the user's cache (one access token per scope, one refresh token) under KEY
    python peer_redis_cache.py hit URL KEY CLIENT_ID AUTHORITY SCOPE ITERATIONS
        one request's token look-up, timed: GET, deserialize, acquire_token_silent, SET if changed;
        prints {"samples": [ns, ...]}
    python peer_redis_cache.py write URL KEY CLIENT_ID AUTHORITY UID UTID WRITER COUNT START
        COUNT refresh-like writes (a new access token for scope WRITER-i and a new refresh token),
        each GET, deserialize, add, SET; starts at wall-clock time START; prints {"samples": [...],
        "begin": first write's wall-clock time, "end": last write's}

No request leaves the machine: a fake HTTP client answers MSAL's OpenID discovery only.
"""
import base64
import json
import sys
import time

import msal
import redis

from peer_msal import DiscoveryOnly


def client_info(uid, utid):
    raw = json.dumps({"uid": uid, "utid": utid}).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def refresh_event(client_id, authority, uid, utid, scope, secret):
    """What MSAL for Python's application hands its cache after a token response."""
    return {
        "client_id": client_id, "scope": [scope], "token_endpoint": authority + "/oauth2/v2.0/token",
        "grant_type": "refresh_token",
        "response": {
            "access_token": "at-" + secret + "-" + "x" * 900, "refresh_token": "rt-" + secret, "expires_in": 3600,
            "token_type": "Bearer", "client_info": client_info(uid, utid),
        },
    }


def seed(url, key, client_id, authority, uid, utid, scopes):
    cache = msal.SerializableTokenCache()
    for index, scope in enumerate(scopes.split(",")):
        cache.add(refresh_event(client_id, authority, uid, utid, scope, "seed-%d" % index))
    redis.Redis.from_url(url).set(key, cache.serialize())


def hit(url, key, client_id, authority, scope, iterations):
    store = redis.Redis.from_url(url)
    cache = msal.SerializableTokenCache()
    app = msal.PublicClientApplication(client_id, authority=authority, token_cache=cache, http_client=DiscoveryOnly(authority))
    samples = []
    for _ in range(iterations + 200):
        start = time.perf_counter_ns()
        data = store.get(key)
        cache.deserialize(data.decode() if data else None)
        accounts = app.get_accounts()
        result = app.acquire_token_silent([scope], accounts[0])
        if cache.has_state_changed:
            store.set(key, cache.serialize())
        samples.append(time.perf_counter_ns() - start)
    assert result and result.get("token_source") == "cache", result
    print(json.dumps({"samples": samples[200:]}))


def write(url, key, client_id, authority, uid, utid, writer, count, start_at):
    store = redis.Redis.from_url(url)
    store.ping()
    time.sleep(max(0.0, start_at - time.time()))
    samples = []
    begin = time.time()
    for index in range(count):
        start = time.perf_counter_ns()
        cache = msal.SerializableTokenCache()
        data = store.get(key)
        if data:
            cache.deserialize(data.decode())
        name = "%s-%d" % (writer, index)
        cache.add(refresh_event(client_id, authority, uid, utid, "api://bench/" + name + "/Data.Write", name))
        store.set(key, cache.serialize())
        samples.append(time.perf_counter_ns() - start)
    print(json.dumps({"samples": samples, "begin": begin, "end": time.time()}))


if __name__ == "__main__":
    command, arguments = sys.argv[1], sys.argv[2:]
    if command == "seed":
        seed(*arguments[:7])
    elif command == "hit":
        hit(*arguments[:5], int(arguments[5]))
    elif command == "write":
        write(*arguments[:7], int(arguments[7]), float(arguments[8]))
    else:
        sys.exit("usage: peer_redis_cache.py seed|hit|write …")
