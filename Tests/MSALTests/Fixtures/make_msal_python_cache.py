"""Writes msal-python-cache.json: a token cache produced by the `msal` Python package itself.

It feeds msal's own TokenCache.add() a token response (no network), as msal does after a
sign-in, then serialises the cache. Re-run with: python3 make_msal_python_cache.py
(needs `pip install msal`). The tokens are fakes; the id token is unsigned test data.
"""
import base64
import json
import sys

import msal


def b64(obj):
    return base64.urlsafe_b64encode(json.dumps(obj, separators=(",", ":")).encode()).decode().rstrip("=")


CLIENT_ID = "11111111-1111-4111-8111-111111111111"
UID, UTID = "a1a1a1a1-0000-4000-8000-000000000001", "5c3b1c2e-8a4f-4f5e-9d7a-0e6b2a9c1d00"
NOW = 1_900_000_000

id_token = ".".join([
    b64({"alg": "RS256", "typ": "JWT", "kid": "fixture"}),
    b64({"aud": CLIENT_ID, "iss": f"https://{UTID}.ciamlogin.com/{UTID}/v2.0", "oid": UID, "sub": UID, "tid": UTID,
         "preferred_username": "ada@example.com", "name": "Ada Lovelace", "ver": "2.0", "iat": NOW, "exp": NOW + 3600}),
    "c2lnbmF0dXJl",
])

cache = msal.SerializableTokenCache()
cache.add({
    "client_id": CLIENT_ID,
    "scope": ["api://contoso/todolist/ToDoList.Read"],
    "token_endpoint": "https://contoso.ciamlogin.com/contoso.onmicrosoft.com/oauth2/v2.0/token",
    "environment": "contoso.ciamlogin.com",
    "grant_type": "password",
    "data": {},
    "response": {
        "token_type": "Bearer", "scope": "api://contoso/todolist/ToDoList.Read", "expires_in": 3600, "ext_expires_in": 3600,
        "access_token": "python-access-token", "refresh_token": "python-refresh-token", "id_token": id_token,
        "client_info": b64({"uid": UID, "utid": UTID}),
    },
}, now=NOW)

document = json.loads(cache.serialize())
json.dump(document, sys.stdout if len(sys.argv) < 2 else open(sys.argv[1], "w"), indent=2, sort_keys=True)
print(f"msal {msal.__version__}", file=sys.stderr)
