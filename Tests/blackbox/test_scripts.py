"""The developer scripts as a developer runs them."""
import os
import stat
import subprocess
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "../.."))


def test_run_stops_when_the_build_fails_instead_of_running_an_old_binary():
    # A `swift` that prints a compiler error and fails. The release binary from an earlier build may
    # well exist in .build; scripts/run must not fall back to it.
    with tempfile.TemporaryDirectory() as bin_dir:
        fake = os.path.join(bin_dir, "swift")
        with open(fake, "w") as f:
            f.write("#!/bin/sh\necho '[1/9] Compiling'\necho 'error: cannot find x in scope' >&2\nexit 7\n")
        os.chmod(fake, stat.S_IRWXU)
        env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ["PATH"])
        run = subprocess.run([os.path.join(ROOT, "scripts/run"), "--version"], env=env,
                             capture_output=True, text=True, timeout=120)
    assert run.returncode == 7, (run.returncode, run.stdout, run.stderr)
    assert "error: cannot find x in scope" in run.stderr
    assert "[1/9]" not in run.stderr  # progress lines are still filtered
    assert "the build failed" in run.stderr
    assert run.stdout == ""  # phone-verify never ran
