#!/usr/bin/env python3
"""Verifies a PhoneVerify credential with PyJWT, knowing only the issuer: discovery -> JWKS -> kid.

usage: verify.py BASE_URL TOKEN AUDIENCE  (exit 0 valid, 1 refused, 2 discovery/JWKS error)
"""
import json
import sys
import urllib.request

import jwt


def main(base, token, audience):
    try:
        with urllib.request.urlopen(base.rstrip("/") + "/.well-known/openid-configuration", timeout=10) as resp:
            config = json.load(resp)
    except Exception as err:  # noqa: BLE001 - any failure to discover is exit 2
        print(f"discovery failed: {err}", file=sys.stderr)
        return 2
    if config.get("issuer") != base:
        print(f"discovery issuer {config.get('issuer')!r} is not {base!r}", file=sys.stderr)
        return 2
    try:
        key = jwt.PyJWKClient(config["jwks_uri"]).get_signing_key_from_jwt(token)
    except jwt.PyJWKClientConnectionError as err:
        print(f"JWKS fetch failed: {err}", file=sys.stderr)
        return 2
    except jwt.PyJWTError as err:
        print(f"no key for this token: {err}", file=sys.stderr)
        return 1
    try:
        claims = jwt.decode(
            token, key.key, algorithms=["EdDSA", "ES256", "RS256"], audience=audience, issuer=base,
            options={"require": ["exp", "iss", "aud", "sub"]},
        )
    except jwt.PyJWTError as err:
        print(f"refused: {err}", file=sys.stderr)
        return 1
    print(json.dumps(claims))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
