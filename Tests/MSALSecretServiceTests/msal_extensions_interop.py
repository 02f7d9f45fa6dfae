"""The MSAL for Python side of the keyring interoperability test (MSALExtensionsInteropTests).

Uses msal-extensions exactly as a Python desktop app does: a PersistedTokenCache over a
LibsecretPersistence(signal_location, schema_name, attributes), so reads reload when the signal
file changed and writes go through its lock file.

    python msal_extensions_interop.py read SIGNAL SCHEMA APP CLIENT_ID
        prints {"accounts": [usernames], "refresh_tokens": {home_account_id: secret}, "access_tokens": [secrets]}
    python msal_extensions_interop.py add SIGNAL SCHEMA APP CLIENT_ID ENVIRONMENT REALM
        adds a sign-in of grace@example.com (fake tokens, no network) as msal does after one
"""
import base64
import json
import sys
import time

import msal
import msal_extensions
from msal_extensions import LibsecretPersistence, PersistedTokenCache


def b64(obj):
    return base64.urlsafe_b64encode(json.dumps(obj, separators=(",", ":")).encode()).decode().rstrip("=")


def cache(signal, schema, app):
    return PersistedTokenCache(LibsecretPersistence(signal, schema_name=schema, attributes={"app": app}))


def read(signal, schema, app, client_id):
    tokens = cache(signal, schema, app)
    accounts = tokens.find(msal.TokenCache.CredentialType.ACCOUNT)
    refresh = tokens.find(msal.TokenCache.CredentialType.REFRESH_TOKEN, query={"client_id": client_id})
    access = tokens.find(msal.TokenCache.CredentialType.ACCESS_TOKEN, query={"client_id": client_id})
    print(json.dumps({
        "accounts": sorted(a["username"] for a in accounts),
        "refresh_tokens": {r["home_account_id"]: r["secret"] for r in refresh},
        "access_tokens": sorted(a["secret"] for a in access),
    }))


def add(signal, schema, app, client_id, environment, realm):
    uid, utid = "b2b2b2b2-0000-4000-8000-000000000002", "5c3b1c2e-8a4f-4f5e-9d7a-0e6b2a9c1d00"
    now = int(time.time())
    id_token = ".".join([
        b64({"alg": "RS256", "typ": "JWT"}),
        b64({"aud": client_id, "iss": f"https://{environment}/{utid}/v2.0", "oid": uid, "sub": uid, "tid": utid,
             "preferred_username": "grace@example.com", "name": "Grace Hopper", "ver": "2.0", "iat": now, "exp": now + 3600}),
        "c2lnbmF0dXJl",
    ])
    cache(signal, schema, app).add({
        "client_id": client_id,
        "scope": ["api://emulator/todolist/ToDoList.Read"],
        "token_endpoint": f"https://{environment}/{realm}/oauth2/v2.0/token",
        "environment": environment,
        "grant_type": "password",
        "data": {},
        "response": {
            "token_type": "Bearer", "scope": "api://emulator/todolist/ToDoList.Read", "expires_in": 3600, "ext_expires_in": 3600,
            "access_token": "python-access-token", "refresh_token": "python-refresh-token", "id_token": id_token,
            "client_info": b64({"uid": uid, "utid": utid}),
        },
    }, now=now)
    print(json.dumps({"msal": msal.__version__, "msal_extensions": msal_extensions.__version__}))


if __name__ == "__main__":
    {"read": read, "add": add}[sys.argv[1]](*sys.argv[2:])
