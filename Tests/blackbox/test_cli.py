"""The phone-verify CLI as support staff and operators use it."""
import json
import os
import re
import subprocess
import time
import urllib.request

from conftest import BINARY, Server


def run(args, data_dir, env=None):
    e = dict(os.environ, PHONE_VERIFY_DATA_DIR=data_dir)
    e.update(env or {})
    return subprocess.run([BINARY] + args, env=e, capture_output=True, text=True, timeout=30)


def test_phone_parse_explains_numbers(data_dir):
    ok = json.loads(run(["phone", "parse", "07400 123456", "--region", "GB"], data_dir).stdout)
    assert ok == {"valid": True, "e164": "+447400123456", "region": "GB", "type": "mobile",
                  "international": "+44 7400 123456", "reason": None,
                  "source": "libphonenumber", "range": None}
    bad = json.loads(run(["phone", "parse", "+1 415 555"], data_dir).stdout)
    assert bad["valid"] is False and bad["reason"] == "too_short" and bad["e164"] is None


def test_config_check_redacts_secrets_and_reports_problems(data_dir):
    secret = "a-very-secret-code-secret-0123456789"
    good = run(["config", "check"], data_dir, {"PHONE_VERIFY_CODE_SECRET": secret})
    assert good.returncode == 0
    report = json.loads(good.stdout)
    assert report["valid"] is True
    assert report["settings"]["PHONE_VERIFY_CODE_SECRET"] == "(set, redacted)"
    assert secret not in good.stdout
    bad = run(["config", "check"], data_dir, {"PHONE_VERIFY_CODE_LENGTH": "3", "PHONE_VERIFY_CODE_LENGHT": "8"})
    assert bad.returncode == 78
    report = json.loads(bad.stdout)
    assert report["valid"] is False
    assert any(p.startswith("PHONE_VERIFY_CODE_LENGTH") for p in report["problems"])
    assert "PHONE_VERIFY_CODE_LENGHT" in report["unknown_variables"]
    assert report["warnings"] == []  # development: nothing to warn about


def test_config_check_reads_the_key_file_and_names_the_real_store(data_dir):
    placeholder = os.path.join(data_dir, "signing-key.placeholder")
    with open(placeholder, "w") as f:
        f.write("REPLACE-ME\n")
    env = {"PHONE_VERIFY_SIGNING_KEY_FILE": placeholder,
           "PHONE_VERIFY_DATABASE_URL": "postgres://pv:s3cret@db.example.internal:5432/pv"}
    checked = run(["config", "check"], data_dir, env)
    assert checked.returncode == 78
    report = json.loads(checked.stdout)
    assert any("PHONE_VERIFY_SIGNING_KEY_FILE" in p for p in report["problems"])
    assert report["effective"]["database"].startswith("postgres://") and "s3cret" not in checked.stdout
    # serve refuses the same file as a configuration error (78: restarting cannot fix it).
    served = run(["serve"], data_dir, {"PHONE_VERIFY_SIGNING_KEY_FILE": placeholder, "PHONE_VERIFY_LISTEN": "127.0.0.1:0"})
    assert served.returncode == 78


def test_keys_rotate_keeps_the_old_key_published_until_retired(data_dir):
    server = Server(data_dir).start()
    _, _, before = server.request("GET", "/.well-known/jwks.json")
    server.stop()
    old = before["keys"][0]["kid"]
    assert run(["keys", "rotate"], data_dir).returncode == 0
    listed = [json.loads(line) for line in run(["keys", "list"], data_dir).stdout.splitlines()]
    status = {k["kid"]: k["status"] for k in listed}
    assert status[old] == "verifying" and list(status.values()).count("active") == 1
    server = Server(data_dir).start()
    try:
        _, _, after = server.request("GET", "/.well-known/jwks.json")
        kids = [k["kid"] for k in after["keys"]]
        assert old in kids and len(kids) == 2
    finally:
        server.stop()
    retired_out = run(["keys", "retire", old], data_dir)
    assert retired_out.returncode == 0
    # Still within its publication window: the command says what retiring it now breaks.
    assert "still published" in json.loads(retired_out.stdout)["note"]
    active = [json.loads(line)["kid"] for line in run(["keys", "list"], data_dir).stdout.splitlines() if json.loads(line)["status"] == "active"]
    assert run(["keys", "retire", active[0]], data_dir).returncode != 0  # the active key cannot be retired
    server = Server(data_dir).start()
    try:
        _, _, retired = server.request("GET", "/.well-known/jwks.json")
        assert [k["kid"] for k in retired["keys"]] == active
    finally:
        server.stop()


def test_migrate_reports_the_schema_version(data_dir):
    out = run(["migrate"], data_dir)
    assert out.returncode == 0
    assert json.loads(out.stdout)["schema_version"] >= 5


def test_keys_rotate_activates_an_installed_key_file_without_a_restart(data_dir):
    """Production keys come from PHONE_VERIFY_SIGNING_KEY_FILE: the operator installs the new PEM
    there, runs `keys rotate`, and the running service signs with it within the refresh time."""
    import time

    import jwt
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ed25519

    def write_key(path):
        pem = ed25519.Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        with open(path + ".new", "wb") as f:
            f.write(pem)
        os.replace(path + ".new", path)

    key_file = os.path.join(data_dir, "installed-key.pem")
    write_key(key_file)
    env = {"PHONE_VERIFY_SIGNING_KEY_FILE": key_file, "PHONE_VERIFY_KEY_REFRESH": "1"}

    server = Server(data_dir, env).start()
    try:
        first = server.credential("+14155552681")
        old = jwt.get_unverified_header(first)["kid"]
        refused = run(["keys", "rotate"], data_dir, env)
        assert refused.returncode == 65 and "already the active key" in refused.stderr

        with open(key_file, "rb") as f:
            old_pem = f.read()
        write_key(key_file)
        rotated = run(["keys", "rotate"], data_dir, env)
        assert rotated.returncode == 0, rotated.stderr
        new = json.loads(rotated.stdout)["active"]
        assert new != old
        # Every replica publishes a new key one refresh interval before any signs with it.
        deadline = time.time() + 10
        phone = 14155552682
        while True:
            token = server.credential("+%d" % phone)
            phone += 1
            if jwt.get_unverified_header(token)["kid"] == new or time.time() > deadline:
                break
            time.sleep(0.5)
        assert jwt.get_unverified_header(token)["kid"] == new
        _, _, jwks = server.request("GET", "/.well-known/jwks.json")
        assert {old, new} <= {k["kid"] for k in jwks["keys"]}  # the old key still verifies its credentials
        keys = {k["kid"]: jwt.PyJWK(k).key for k in jwks["keys"]}
        for token in (first, token):
            kid = jwt.get_unverified_header(token)["kid"]
            assert jwt.decode(token, keys[kid], algorithms=["EdDSA"], audience="main-auth")["sub"].startswith("tel:")
    finally:
        server.stop()

    # A replica restarting with the old file does not undo the rotation: it signs as a lagging
    # replica and says so; once the old key is retired, it refuses to start with it.
    with open(key_file + ".new", "wb") as f:
        f.write(old_pem)
    os.replace(key_file + ".new", key_file)
    server = Server(data_dir, env).start()
    try:
        status = {k["kid"]: k["status"] for k in map(json.loads, run(["keys", "list"], data_dir, env).stdout.splitlines())}
        assert status[new] == "active" and status[old] == "verifying"
        assert any("no longer the active one" in line for line in server.stderr_lines)
    finally:
        server.stop()
    assert run(["keys", "retire", old], data_dir, env).returncode == 0
    refused = run(["keys", "rotate"], data_dir, env)
    assert refused.returncode == 65 and "retired" in refused.stderr
    try:
        Server(data_dir, env).start(timeout=10)
        raise AssertionError("started with a retired key")
    except RuntimeError as error:
        assert "retired" in str(error)


def test_a_closed_stdout_does_not_kill_the_server(data_dir):
    # The console sink writes codes to stdout; a reader that went away (a log shipper restarting)
    # must cost that write, not the process (SIGPIPE is ignored).
    env = dict(os.environ, PHONE_VERIFY_LISTEN="127.0.0.1:0", PHONE_VERIFY_DATA_DIR=data_dir)
    proc = subprocess.Popen([BINARY], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        base = None
        deadline = time.time() + 20
        while base is None and time.time() < deadline:
            line = proc.stdout.readline()
            match = re.search(r"listening on (http://\S+)", line)
            base = match.group(1) if match else None
        assert base, "the server did not start"
        proc.stdout.close()
        request = urllib.request.Request(base + "/v1/verifications", data=json.dumps({"phone_number": "+14155552671"}).encode(),
                                         headers={"Content-Type": "application/json"}, method="POST")
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 201
        time.sleep(0.5)  # the console line is written after the answer, by the delivery thread
        with urllib.request.urlopen(base + "/healthz", timeout=10) as response:
            assert response.status == 200
        assert proc.poll() is None
    finally:
        proc.terminate()
        proc.wait(15)


def test_operator_commands_never_act_on_an_empty_database_of_their_own(data_dir):
    # Run from a shell without the service's settings, `fraud block` would have created ./data and
    # blocked nothing the service sees; it refuses instead and says why.
    empty = os.path.join(data_dir, "elsewhere")
    refused = run(["fraud", "block", "country:NG"], empty)
    assert refused.returncode == 78 and "no database at" in refused.stderr
    assert not os.path.exists(os.path.join(empty, "phone-verify.db"))
    assert run(["keys", "list"], empty).returncode == 78
    Server(data_dir).start().stop()  # the service's own database
    done = run(["fraud", "block", "country:NG"], data_dir)
    assert done.returncode == 0 and "using sqlite:" in done.stderr


def test_backup_copies_the_database_while_the_service_runs(data_dir):
    server = Server(data_dir).start()
    try:
        status, _, created = server.request("POST", "/v1/verifications", {"phone_number": "+14155552671"})
        assert status == 201
        target = os.path.join(data_dir, "backup.db")
        done = run(["backup", target], data_dir)
        assert done.returncode == 0, done.stderr
        assert os.stat(target).st_mode & 0o777 == 0o600
        assert run(["backup", target], data_dir).returncode == 73  # never overwrites
    finally:
        server.stop()
    # The copy is a working database: a service started on it knows the verification.
    restored = os.path.join(data_dir, "restored")
    os.makedirs(restored)
    os.replace(target, os.path.join(restored, "phone-verify.db"))
    for name in ("signing-key.pem", "code-secret"):
        os.replace(os.path.join(data_dir, name), os.path.join(restored, name))
    again = Server(restored).start()
    try:
        status, _, seen = again.request("GET", "/v1/verifications/" + created["id"])
        assert status == 200 and seen["status"] == "pending"
    finally:
        again.stop()


def test_config_check_masks_test_codes_and_credentials_in_urls(data_dir):
    env = {"PHONE_VERIFY_TEST_NUMBERS": "+15555550100:123456,+15555550101:654321",
           "PHONE_VERIFY_AUTH_CORE_JWKS_URL": "https://jwks-user:jwks-pass@auth.example.test/jwks.json",
           "PHONE_VERIFY_TWILIO_BASE_URL": "https://twilio-token@twilio.example.test/base",
           "PHONE_VERIFY_PUBLIC_URL": "https://verify.example.test/cb"}
    checked = run(["config", "check"], data_dir, env)
    assert checked.returncode == 0, checked.stdout
    for secret in ["123456", "654321", "jwks-pass", "jwks-user", "twilio-token"]:
        assert secret not in checked.stdout, secret
    settings = json.loads(checked.stdout)["settings"]
    assert settings["PHONE_VERIFY_TEST_NUMBERS"] == "+15555550100:(redacted),+15555550101:(redacted)"
    assert settings["PHONE_VERIFY_AUTH_CORE_JWKS_URL"] == "https://(redacted)@auth.example.test/jwks.json"
    assert settings["PHONE_VERIFY_TWILIO_BASE_URL"] == "https://(redacted)@twilio.example.test/base"
    assert settings["PHONE_VERIFY_PUBLIC_URL"] == "https://verify.example.test/cb"
    # A malformed entry is reported without its code.
    bad = run(["config", "check"], data_dir, {"PHONE_VERIFY_TEST_NUMBERS": "+15555550100:12345678901"})
    assert bad.returncode == 78 and "12345678901" not in bad.stdout


def test_switching_algorithm_rotates_without_a_gap(data_dir):
    """A deployment moving from EdDSA to the ES256 default: `keys rotate` publishes the new key
    beside the old one, credentials signed before keep verifying through JWKS until they expire,
    and new ones are ES256."""
    import jwt

    server = Server(data_dir, {"PHONE_VERIFY_SIGNING_ALGORITHM": "EdDSA"}).start()
    try:
        old_token = server.credential("+14155552691")
    finally:
        server.stop()
    assert jwt.get_unverified_header(old_token)["alg"] == "EdDSA"
    rotated = run(["keys", "rotate"], data_dir)  # the default algorithm, ES256
    assert rotated.returncode == 0, rotated.stderr
    server = Server(data_dir).start()
    try:
        new_token = server.credential("+14155552692")
        assert jwt.get_unverified_header(new_token)["alg"] == "ES256"
        with urllib.request.urlopen(server.base + "/.well-known/openid-configuration", timeout=5) as resp:
            config = json.load(resp)
        assert {"EdDSA", "ES256"} <= set(config["id_token_signing_alg_values_supported"])
        client = jwt.PyJWKClient(config["jwks_uri"])
        for token in (old_token, new_token):
            key = client.get_signing_key_from_jwt(token)
            # (A development issuer is the bound address, and port 0 picks another one per start.)
            claims = jwt.decode(token, key.key, algorithms=config["id_token_signing_alg_values_supported"],
                                audience="main-auth")
            assert claims["sub"].startswith("tel:+1415555269")
        _, _, jwks = server.request("GET", "/.well-known/jwks.json")
        assert sorted(k["kty"] for k in jwks["keys"]) == ["EC", "OKP"]
    finally:
        server.stop()


def test_phone_parse_says_when_a_declared_range_made_a_number_valid(data_dir):
    refused = json.loads(run(["phone", "parse", "+2290197000000"], data_dir).stdout)
    assert refused["valid"] is False and refused["source"] == "libphonenumber"  # 2022 metadata: 8 digits
    ranges = os.path.join(data_dir, "ranges.txt")
    with open(ranges, "w") as f:
        f.write("# Benin moved to 10 digits (01 + the old 8) in 2024\nBJ 01 10 mobile\n")
    env = {"PHONE_VERIFY_NUMBER_RANGES_FILE": ranges}
    declared = json.loads(run(["phone", "parse", "01 97 00 00 00", "--region", "bj"], data_dir, env).stdout)
    assert declared == {"valid": True, "e164": "+2290197000000", "region": "BJ", "type": "mobile",
                        "international": "+229 0197000000", "reason": None, "source": "declared_range",
                        "range": {"region": "BJ", "prefix": "01", "length": 10, "type": "mobile"}}
    known = json.loads(run(["phone", "parse", "+22997000000"], data_dir, env).stdout)
    assert known["valid"] is True and known["source"] == "libphonenumber" and known["range"] is None


def test_a_bad_ranges_file_is_a_configuration_error_naming_the_line(data_dir):
    ranges = os.path.join(data_dir, "ranges.txt")
    with open(ranges, "w") as f:
        f.write("BJ 01 10 mobile\nZZ 01 10 mobile\nBJ 01 99 mobile\n")
    env = {"PHONE_VERIFY_NUMBER_RANGES_FILE": ranges}
    parsed = run(["phone", "parse", "+2290197000000"], data_dir, env)
    assert parsed.returncode == 78 and "line 2: unknown region" in parsed.stderr and "line 3: length" in parsed.stderr
    checked = run(["config", "check"], data_dir, env)
    assert checked.returncode == 78
    assert any("PHONE_VERIFY_NUMBER_RANGES_FILE" in p and "line 2" in p for p in json.loads(checked.stdout)["problems"])
    served = run(["serve"], data_dir, dict(env, PHONE_VERIFY_LISTEN="127.0.0.1:0"))
    assert served.returncode == 78 and "line 3" in served.stderr


def test_the_service_starts_a_number_only_a_declared_range_makes_valid(data_dir):
    number = "+2290197000000"
    server = Server(data_dir).start()
    try:
        status, _, body = server.request("POST", "/v1/verifications", {"phone_number": number})
        assert status == 400, body
    finally:
        server.stop()
    ranges = os.path.join(data_dir, "ranges.txt")
    with open(ranges, "w") as f:
        f.write("BJ 01 10 mobile\n")
    server = Server(data_dir, {"PHONE_VERIFY_NUMBER_RANGES_FILE": ranges}).start()
    try:
        status, _, body = server.request("POST", "/v1/verifications", {"phone_number": "+229 01 97 00 00 00"})
        assert status == 201, body
        code = server.wait_for_code(body["id"], number)
        status, _, checked = server.request("POST", f"/v1/verifications/{body['id']}/check", {"code": code})
        assert status == 200 and checked["status"] == "approved", checked
    finally:
        server.stop()


def test_config_check_takes_what_libpq_takes_and_hides_the_password(data_dir):
    # Failover hosts and a password file: libpq's URL forms, shown back with the password masked.
    url = "postgres://pv:s3cret@db1.internal:5432,db2.internal:5433/pv?passfile=%2Frun%2Fsecrets%2Fpgpass&target_session_attrs=read-write"
    checked = run(["config", "check"], data_dir, {"PHONE_VERIFY_DATABASE_URL": url})
    assert checked.returncode == 0, checked.stdout
    report = json.loads(checked.stdout)
    # config check also redacts the user and query, as for every URL it shows; both hosts remain.
    assert report["effective"]["database"].startswith("postgres://")
    assert "@db1.internal:5432,db2.internal:5433/pv" in report["effective"]["database"]
    assert "s3cret" not in checked.stdout + checked.stderr
    # A typo in a parameter is a configuration problem naming it, without the password.
    bad = run(["config", "check"], data_dir, {"PHONE_VERIFY_DATABASE_URL": "postgres://pv:s3cret@db/pv?sslmod=require"})
    assert bad.returncode == 78
    problems = json.loads(bad.stdout)["problems"]
    assert any("PHONE_VERIFY_DATABASE_URL" in p and "sslmod" in p for p in problems), problems
    assert "s3cret" not in bad.stdout + bad.stderr
    served = run(["serve"], data_dir, {"PHONE_VERIFY_DATABASE_URL": "postgres://pv:s3cret@db:99999/pv",
                                       "PHONE_VERIFY_LISTEN": "127.0.0.1:0"})
    assert served.returncode == 78 and "65535" in served.stderr + served.stdout
    assert "s3cret" not in served.stdout + served.stderr
