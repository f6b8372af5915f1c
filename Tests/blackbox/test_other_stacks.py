"""Other stacks accept the credential through discovery and JWKS only (issue 21, parts 2 and 3).

For each signing algorithm the real binary runs with a generated key of that algorithm and a fresh
data directory; every verifier under verifiers/ (Node jose, Go golang-jwt, Perl Crypt::JWT, C
libjwt, Python PyJWT) gets the issuer, a live credential and the audience, and must accept it with
the same claims, and refuse tampered copies. What a library cannot verify is written down in
EXPECTED: the verifier must then say "unsupported" (exit 3), so a library gaining or losing an
algorithm fails this test rather than passing silently.

The toolchains come from Debian's packages (scripts/install-deps --test). With CI set, a missing
one fails the test; on a developer's machine without CI it is skipped, naming what to install.

The second half checks the discovery document against what auto-configuring clients do with it:
Spring Security's `issuer-uri`, ASP.NET Core's `AddJwtBearer` with `Authority`, and the
OIDC Discovery rules for what a document may claim.
"""
import base64
import json
import os
import shutil
import subprocess
import tempfile
import urllib.error
import urllib.request

import pytest

from conftest import Server

HERE = os.path.dirname(os.path.abspath(__file__))
VERIFIERS = os.path.join(HERE, "verifiers")
PHONE = "+14155552671"
AUDIENCE = "main-auth"
ALGORITHMS = ["EdDSA", "ES256", "RS256"]
STACKS = ["node", "go", "perl", "c", "python"]

# Exit statuses every verifier uses (verifiers/README.md).
VALID, REFUSED, DISCOVERY_ERROR, UNSUPPORTED = 0, 1, 2, 3

# "verifies", or "unsupported": the library cannot verify that algorithm, and says so.
EXPECTED = {stack: {alg: "verifies" for alg in ALGORITHMS} for stack in STACKS}
# libjwt 1.10 (Debian 12's libjwt-dev) knows HS*, RS*, ES* only: jwt_str_alg("EdDSA") is
# JWT_ALG_INVAL. docs/INTEGRATION.md lists this with the other stacks that lack EdDSA.
EXPECTED["c"]["EdDSA"] = "unsupported"


def in_ci():
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def missing(reason):
    """A tool this module needs is absent: a failure in CI, a skip (with what to do) elsewhere."""
    reason += " (scripts/install-deps --test installs it)"
    if in_ci():
        pytest.fail(reason)
    pytest.skip(reason + "; CI is not set, so this is a skip, not a failure")


def run(cmd, timeout=120, **kwargs):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kwargs)


@pytest.fixture(scope="session")
def verifiers():
    """stack -> the command to run its verifier, or a string saying what is missing. The Go and
    C programs are built here, offline, from Debian's packages."""
    build = tempfile.mkdtemp(prefix="phone-verify-verifiers-")
    found = {"python": ["python3", os.path.join(VERIFIERS, "python", "verify.py")]}

    node = shutil.which("node")
    if not node:
        found["node"] = "node is not installed (Debian package nodejs)"
    elif run([node, "-e", "module.paths.push('/usr/share/nodejs'); require('jose')"]).returncode != 0:
        found["node"] = "the jose module is not installed (Debian package node-jose)"
    else:
        found["node"] = [node, os.path.join(VERIFIERS, "node", "verify.js")]

    go = shutil.which("go")
    if not go:
        found["go"] = "go is not installed (Debian package golang-go)"
    elif not os.path.isdir("/usr/share/gocode/src/github.com/golang-jwt/jwt"):
        found["go"] = "golang-jwt is not installed (Debian package golang-github-golang-jwt-jwt-dev)"
    else:
        source = os.path.join(build, "go-src")
        shutil.copytree(os.path.join(VERIFIERS, "go"), source)
        env = dict(os.environ, GOPROXY="off", GOFLAGS="-mod=mod", GO111MODULE="on",
                   GOCACHE=os.path.join(build, "go-cache"), GOPATH=os.path.join(build, "go-path"))
        built = run([go, "build", "-o", os.path.join(build, "go-verifier"), "."], cwd=source, env=env, timeout=300)
        assert built.returncode == 0, "the Go verifier does not build:\n" + built.stderr
        found["go"] = [os.path.join(build, "go-verifier")]

    perl = shutil.which("perl")
    if not perl or run([perl, "-MCrypt::JWT", "-e", "1"]).returncode != 0:
        found["perl"] = "Crypt::JWT is not installed (Debian package libcrypt-jwt-perl)"
    else:
        found["perl"] = [perl, os.path.join(VERIFIERS, "perl", "verify.pl")]

    cc, pkg_config = shutil.which("cc"), shutil.which("pkg-config")
    libraries = ["libjwt", "libcurl", "jansson", "libcrypto"]
    if not cc or not pkg_config:
        found["c"] = "cc or pkg-config is not installed (Debian packages gcc, pkg-config)"
    elif run([pkg_config, "--exists"] + libraries).returncode != 0:
        found["c"] = "libjwt, libcurl, jansson or OpenSSL headers are missing (Debian packages libjwt-dev, " \
                     "libcurl4-openssl-dev, libjansson-dev, libssl-dev)"
    else:
        flags = run([pkg_config, "--cflags", "--libs"] + libraries).stdout.split()
        version = run([pkg_config, "--modversion", "libjwt"]).stdout.strip()
        out = os.path.join(build, "c-verifier")
        built = run([cc, "-Wall", "-Wextra", "-Werror", "-O2", f'-DLIBJWT_VERSION="{version}"', "-o", out,
                     os.path.join(VERIFIERS, "c", "verify.c")] + flags)
        assert built.returncode == 0, "the C verifier does not build:\n" + built.stderr
        found["c"] = [out]

    yield found
    shutil.rmtree(build, ignore_errors=True)


@pytest.fixture(scope="module", params=ALGORITHMS)
def issued(request):
    """(algorithm, server, live credential): the real binary with a generated key of that algorithm."""
    with tempfile.TemporaryDirectory(prefix="phone-verify-stacks-") as data_dir:
        server = Server(data_dir, {"PHONE_VERIFY_SIGNING_ALGORITHM": request.param}).start()
        try:
            yield request.param, server, server.credential(PHONE)
        finally:
            server.stop()


def b64decode(segment):
    return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))


def b64encode(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def verify(verifiers, stack, base, token, audience=AUDIENCE):
    cmd = verifiers[stack]
    if isinstance(cmd, str):
        missing(f"{stack} verifier: {cmd}")
    return run(cmd + [base, token, audience], timeout=60)


def expect_refused(result, stack, alg, what):
    """A bad token is refused: exit 1, or exit 3 where the algorithm is expected unsupported
    (the library never gets as far as the signature). Never 0, and never a discovery error."""
    wanted = UNSUPPORTED if EXPECTED[stack][alg] == "unsupported" else REFUSED
    assert result.returncode == wanted, (stack, alg, what, result.returncode, result.stdout, result.stderr)
    assert result.stdout.strip() == "", (stack, alg, what, "claims printed for a refused token")


@pytest.mark.parametrize("stack", STACKS)
def test_stack_verifies_a_live_credential_through_discovery(verifiers, issued, stack):
    alg, server, token = issued
    header = json.loads(b64decode(token.split(".")[0]))
    assert header["alg"] == alg and header["kid"]
    result = verify(verifiers, stack, server.base, token)
    if EXPECTED[stack][alg] == "unsupported":
        assert result.returncode == UNSUPPORTED, (stack, alg, result.returncode, result.stdout, result.stderr)
        assert "unsupported algorithm" in result.stderr and alg in result.stderr, result.stderr
        return
    assert result.returncode == VALID, (stack, alg, result.returncode, result.stderr)
    claims = json.loads(result.stdout)
    # Exactly what was signed: the verifier parsed the payload it verified, nothing else.
    assert claims == json.loads(b64decode(token.split(".")[1]))
    assert claims["iss"] == server.base
    assert claims["aud"] == AUDIENCE
    assert claims["sub"] == "tel:" + PHONE
    assert claims["phone_number"] == PHONE and claims["phone_number_verified"] is True
    assert claims["acr"] == "aal1" and claims["amr"] == ["sms"]


@pytest.mark.parametrize("stack", STACKS)
def test_stack_refuses_tampered_credentials(verifiers, issued, stack):
    alg, server, token = issued
    head, payload, signature = token.split(".")

    claims = json.loads(b64decode(payload))
    claims["phone_number"], claims["sub"] = "+14155550000", "tel:+14155550000"
    changed_payload = ".".join([head, b64encode(json.dumps(claims, separators=(",", ":")).encode()), signature])

    raw = bytearray(b64decode(signature))
    raw[len(raw) // 2] ^= 0x01  # one bit in the middle: the signature is still well formed
    changed_signature = ".".join([head, payload, b64encode(bytes(raw))])

    # The classic confusions: HS256 keyed with the public key, and "none" without a signature.
    hs256 = dict(json.loads(b64decode(head)), alg="HS256")
    as_hs256 = ".".join([b64encode(json.dumps(hs256).encode()), payload, signature])
    none = {"alg": "none", "typ": "JWT", "kid": json.loads(b64decode(head))["kid"]}
    as_none = ".".join([b64encode(json.dumps(none).encode()), payload, ""])

    for what, forged in [("changed payload", changed_payload), ("changed signature", changed_signature)]:
        expect_refused(verify(verifiers, stack, server.base, forged), stack, alg, what)
    for what, forged in [("alg HS256", as_hs256), ("alg none", as_none)]:
        result = verify(verifiers, stack, server.base, forged)
        assert result.returncode == REFUSED, (stack, alg, what, result.returncode, result.stderr)
    if EXPECTED[stack][alg] == "verifies":
        wrong_audience = verify(verifiers, stack, server.base, token, audience="another-service")
        assert wrong_audience.returncode == REFUSED, (stack, alg, wrong_audience.stderr)


@pytest.mark.parametrize("stack", STACKS)
def test_stack_requires_the_discovery_issuer_to_be_the_one_it_knows(verifiers, issued, stack):
    """A verifier configured with another spelling of the issuer (here with a trailing "/") finds a
    document naming a different issuer and stops before looking at the token: exit 2."""
    _, server, token = issued
    result = verify(verifiers, stack, server.base + "/", token)
    assert result.returncode == DISCOVERY_ERROR, (stack, result.returncode, result.stdout, result.stderr)


# --- Discovery conformance -------------------------------------------------------------------

def fetch(url, method="GET", data=None):
    req = urllib.request.Request(url, method=method, data=data)
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, resp.headers, resp.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers, err.read()


# Spring Security's SignatureAlgorithm enum: what JwtDecoders.fromIssuerLocation can derive from a
# JWK Set (JwtDecoderProviderConfigurationUtils matches RSA and EC keys only). No EdDSA:
# spring-projects/spring-security#8960 and #17098.
SPRING_ALGORITHMS = {"RS256", "RS384", "RS512", "ES256", "ES384", "ES512", "PS256", "PS384", "PS512"}
# Microsoft.IdentityModel's JsonWebKey -> SecurityKey conversion: RSA and EC (P-256/384/521) only.
# No EdDSA: AzureAD/azure-activedirectory-identitymodel-extensions-for-dotnet#2426.
DOTNET_KEY_TYPES = {"RSA": None, "EC": {"P-256", "P-384", "P-521"}}


@pytest.mark.parametrize("introspection", [False, True], ids=["plain", "with-introspection"])
@pytest.mark.parametrize("alg", ALGORITHMS)
def test_discovery_document_satisfies_auto_configuring_clients(data_dir, alg, introspection):
    env = {"PHONE_VERIFY_SIGNING_ALGORITHM": alg}
    if introspection:
        env["PHONE_VERIFY_INTROSPECTION_API_KEYS"] = "main-auth-introspection-key-0123456789abcdef"
    server = Server(data_dir, env).start()
    try:
        issuer = server.base  # what a relying party is configured with (issuer-uri, Authority)

        # Spring `issuer-uri` (first candidate) and .NET `Authority` both fetch
        # {issuer}/.well-known/openid-configuration; .NET adds the "/" when the Authority lacks it.
        status, headers, body = fetch(issuer + "/.well-known/openid-configuration")
        assert status == 200
        assert headers["Content-Type"].startswith("application/json")  # Spring reads it as a JSON Map
        config = json.loads(body)
        dotnet_url = issuer + ("" if issuer.endswith("/") else "/") + ".well-known/openid-configuration"
        assert json.loads(fetch(dotnet_url)[2]) == config

        # Spring: Assert.state(issuer equals the configured issuer) - plain string equality; .NET
        # takes `issuer` as the valid issuer. Both: the credential's `iss` is that same string.
        assert config["issuer"] == issuer

        # Both take jwks_uri (absolute, under the issuer) and read the keys by kid.
        jwks_uri = config["jwks_uri"]
        assert jwks_uri.startswith(issuer + "/")
        status, headers, body = fetch(jwks_uri)
        assert status == 200 and headers["Content-Type"].startswith("application/json")
        keys = json.loads(body)["keys"]
        assert keys and all(k["kid"] and k.get("use", "sig") == "sig" for k in keys)
        assert all("d" not in k and "p" not in k for k in keys), "private key material in the JWKS"

        # Algorithms advertised = algorithms of the published keys (and what the tokens use).
        advertised = config["id_token_signing_alg_values_supported"]
        assert isinstance(advertised, list) and advertised == sorted(set(advertised))
        assert set(advertised) == {k["alg"] for k in keys} == {alg}
        assert json.loads(b64decode(server.credential(PHONE).split(".")[0]))["alg"] in advertised

        # Spring derives its accepted algorithms from the JWK Set; with none it refuses to start
        # ("Failed to find any algorithms from the JWK set"). .NET builds SecurityKeys from RSA and
        # EC JWKs only. This is why EdDSA-only issuers do not work with either out of the box.
        spring = {k["alg"] for k in keys if k["kty"] in ("RSA", "EC") and k["alg"] in SPRING_ALGORITHMS}
        dotnet = [k for k in keys if k["kty"] in DOTNET_KEY_TYPES
                  and (DOTNET_KEY_TYPES[k["kty"]] is None or k.get("crv") in DOTNET_KEY_TYPES[k["kty"]])]
        assert bool(spring) == (alg != "EdDSA")
        assert bool(dotnet) == (alg != "EdDSA")

        # OIDC Discovery §3 / RFC 8414 §2: every member naming an endpoint names one that exists.
        # (authorization_endpoint, token_endpoint, userinfo_endpoint and response_types_supported
        # are left out on purpose: this issuer has no such endpoints; docs/INTEGRATION.md says why.)
        endpoints = {k: v for k, v in config.items() if k.endswith("_endpoint") or k.endswith("_uri")}
        assert set(endpoints) == ({"jwks_uri", "introspection_endpoint"} if introspection else {"jwks_uri"})
        for name, url in endpoints.items():
            assert url.startswith(issuer + "/"), (name, url)
            if name == "introspection_endpoint":
                # POST-only and authenticated: without a key it answers 401, so it exists.
                status, _, _ = fetch(url, "POST", b"token=x")
                assert status == 401, (name, status)
            else:
                assert fetch(url)[0] == 200, name
        for absent in ("authorization_endpoint", "token_endpoint", "userinfo_endpoint", "registration_endpoint",
                       "end_session_endpoint", "revocation_endpoint", "response_types_supported",
                       "token_endpoint_auth_methods_supported"):
            assert absent not in config
        assert config["subject_types_supported"] == ["public"]
        assert set(config["claims_supported"]) >= {"iss", "aud", "sub", "exp", "phone_number"}

        # Spring's later candidates (RFC 8414 and the path-inserted OIDC form) are only tried when
        # the first one answers 4xx; this service serves OIDC-style discovery only, and nothing
        # stale or half-true at the RFC 8414 location.
        assert fetch(issuer + "/.well-known/oauth-authorization-server")[0] == 404
    finally:
        server.stop()
