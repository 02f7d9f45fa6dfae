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

    python peer_redis_cache.py seed-many URL PREFIX CLIENT_ID AUTHORITY UTID SCOPES FIRST COUNT
        users FIRST..FIRST+COUNT-1 (uids as Benchmarks/msal-benchmarks/CacheFixture.swift makes them),
        each under PREFIX + uid, written pipelined; the access token of user U for scope I is
        "at-seed-U-I-" + "x" * 900
    python peer_redis_cache.py hit-many URL PREFIX CLIENT_ID AUTHORITY UTID SCOPES USERS SECONDS
        the stages of `msal-benchmarks --only redis-scale` (Benchmarks/msal-benchmarks/RedisScaleWorker.swift)
        over users 0..USERS-1: a new application's first request, warm requests, requests after a
        write to another user and to the same user, every user once; prints samples (ns) and RSS (MB)

No request leaves the machine: a fake HTTP client answers MSAL's OpenID discovery only.
"""
import base64
import json
import random
import resource
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


PLACEHOLDER = "a1a1a1a1-0000-4000-8000-uuuuuuuuuuuu"


def uid_of(user):
    return "a1a1a1a1-0000-4000-8000-%012d" % user


def seed_many(url, prefix, client_id, authority, utid, scopes, first, count):
    """One user's serialized cache made once, then the uid swapped in for each user (the keys,
    the home account id and the secrets all carry it), SET in pipelines of 1,000."""
    cache = msal.SerializableTokenCache()
    for index, scope in enumerate(scopes.split(",")):
        cache.add(refresh_event(client_id, authority, PLACEHOLDER, utid, scope, "seed-%s-%d" % (PLACEHOLDER, index)))
    template = cache.serialize()
    info = client_info(PLACEHOLDER, utid)
    store = redis.Redis.from_url(url)
    pipe = store.pipeline(transaction=False)
    for user in range(first, first + count):
        uid = uid_of(user)
        pipe.set(prefix + uid, template.replace(info, client_info(uid, utid)).replace(PLACEHOLDER, uid))
        if len(pipe) >= 1000:
            pipe.execute()
    pipe.execute()


def rss_mb():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return 0.0


def hit_many(url, prefix, client_id, authority, utid, scopes, users, seconds):
    scopes = scopes.split(",")
    baseline = rss_mb()

    def make_app():
        cache = msal.SerializableTokenCache()
        app = msal.PublicClientApplication(client_id, authority=authority, token_cache=cache, http_client=DiscoveryOnly(authority))
        return app, cache

    def request(store, app, cache, user):
        """A web app's request: the user's key read, the user found by id, a silent token."""
        uid = uid_of(user)
        data = store.get(prefix + uid)
        cache.deserialize(data.decode() if data else None)
        home = uid + "." + utid
        account = [a for a in app.get_accounts() if a["home_account_id"] == home][0]
        index = user % len(scopes)
        result = app.acquire_token_silent([scopes[index]], account)
        if cache.has_state_changed:
            store.set(prefix + uid, cache.serialize())
        assert result and result["access_token"].startswith("at-seed-%s-%d-" % (uid, index)), result

    def stage(body, least=20, most=2000000):
        end = time.monotonic() + seconds
        index = 0
        while index < most and (index < least or time.monotonic() < end):
            body()
            index += 1

    def timed(samples, body):
        def run():
            start = time.perf_counter_ns()
            body()
            samples.append(time.perf_counter_ns() - start)
        return run

    report = {"baselineRSS": baseline}
    store = redis.Redis.from_url(url)
    store.ping()
    first = []

    def first_request():
        app, cache = make_app()
        connection = redis.Redis.from_url(url)
        connection.ping()
        user = random.randrange(users)
        start = time.perf_counter_ns()
        request(connection, app, cache, user)
        first.append(time.perf_counter_ns() - start)
        connection.close()
    stage(first_request, most=300)
    report["first"] = first

    app, cache = make_app()
    warm_set = random.sample(range(users), min(users, 1000))
    for user in warm_set:
        request(store, app, cache, user)
    report["warm"] = []
    stage(timed(report["warm"], lambda: request(store, app, cache, random.choice(warm_set))))

    other = redis.Redis.from_url(url)

    def after_write(samples, same):
        def run():
            user = random.choice(warm_set)
            written = user if same else (user + 1 + random.randrange(users - 1)) % users
            other.set(prefix + uid_of(written), other.get(prefix + uid_of(written)))
            start = time.perf_counter_ns()
            request(store, app, cache, user)
            samples.append(time.perf_counter_ns() - start)
        return run
    report["otherWrite"] = []
    stage(after_write(report["otherWrite"], False))
    report["sameWrite"] = []
    stage(after_write(report["sameWrite"], True))

    app, cache = make_app()
    report["roundRobin"] = []
    began = time.monotonic()
    for user in range(users):
        timed(report["roundRobin"], lambda: request(store, app, cache, user))()
    report["roundRobinSeconds"] = time.monotonic() - began
    report["rssAfterRoundRobin"] = rss_mb()
    report["peakRSS"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    print(json.dumps(report))


if __name__ == "__main__":
    command, arguments = sys.argv[1], sys.argv[2:]
    if command == "seed":
        seed(*arguments[:7])
    elif command == "hit":
        hit(*arguments[:5], int(arguments[5]))
    elif command == "seed-many":
        seed_many(*arguments[:6], int(arguments[6]), int(arguments[7]))
    elif command == "hit-many":
        hit_many(*arguments[:6], int(arguments[6]), float(arguments[7]))
    elif command == "write":
        write(*arguments[:7], int(arguments[7]), float(arguments[8]))
    else:
        sys.exit("usage: peer_redis_cache.py seed|hit|write|seed-many|hit-many …")
