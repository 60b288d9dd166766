"""Where the browser suite's Chromium comes from, in order: $CHROMIUM, Playwright's
own, a system one, apt-get (Debian or Ubuntu, as root); else a clear failure. No
real browser is needed: the places are stand-ins in a temporary folder."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from scripts import find_chromium as kit
from scripts.find_chromium import HOW_TO_GET_ONE, NoChromium, find_chromium

APT = [["apt-get", "update", "-q"], ["apt-get", "install", "-y", "-q", "chromium"]]


def executable(path):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return path


@pytest.fixture
def places(tmp_path, monkeypatch):
    """No Chromium anywhere, until a test puts one somewhere; apt-get on PATH, its
    commands recorded."""
    monkeypatch.delenv("CHROMIUM", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "path"))
    executable(tmp_path / "path/apt-get")
    monkeypatch.setattr(kit, "playwright_chromium", lambda: None)
    monkeypatch.setattr(kit, "SYSTEM_CHROMIUMS", [str(tmp_path / "usr/bin/chromium")])
    monkeypatch.setattr(kit, "OS_RELEASE", tmp_path / "os-release")
    monkeypatch.setattr(kit.os, "geteuid", lambda: 0)
    apt = []

    def run(command, **kwargs):
        apt.append(command)
        if command[:2] == ["apt-get", "install"]:
            executable(tmp_path / "usr/bin/chromium")
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(kit.subprocess, "run", run)
    return tmp_path, apt


def test_chromium_env_comes_first(places, monkeypatch):
    tmp, _ = places
    chosen = executable(tmp / "mine/chrome")
    monkeypatch.setenv("CHROMIUM", str(chosen))
    monkeypatch.setattr(kit, "playwright_chromium", lambda: executable(tmp / "pw"))
    executable(tmp / "usr/bin/chromium")
    assert find_chromium() == chosen


def test_a_chromium_env_that_is_not_a_browser_fails_and_says_so(places, monkeypatch):
    tmp, _ = places
    executable(tmp / "usr/bin/chromium")  # there, but $CHROMIUM asked for another
    monkeypatch.setenv("CHROMIUM", str(tmp / "no/such/chrome"))
    with pytest.raises(NoChromium, match="is not a runnable file"):
        find_chromium()


def test_playwrights_own_comes_before_a_system_one(places, monkeypatch):
    tmp, _ = places
    own = executable(tmp / "ms-playwright/chromium-1/chrome-linux64/chrome")
    monkeypatch.setattr(kit, "playwright_chromium", lambda: own)
    executable(tmp / "usr/bin/chromium")
    assert find_chromium() == own


def test_a_system_chromium_at_a_known_place_then_on_path(places):
    tmp, _ = places
    on_path = executable(tmp / "path/google-chrome")
    assert find_chromium() == on_path
    known = executable(tmp / "usr/bin/chromium")
    assert find_chromium() == known


def test_apt_get_only_when_asked_on_debian_as_root(places):
    tmp, apt = places
    (tmp / "os-release").write_text('PRETTY_NAME="Debian GNU/Linux 12"\nID=debian\n')
    with pytest.raises(NoChromium):
        find_chromium()  # the suite never installs
    assert apt == []
    assert find_chromium(install=True) == tmp / "usr/bin/chromium"  # make test does
    assert apt == APT


def test_ubuntu_counts_as_debian(places):
    tmp, apt = places
    (tmp / "os-release").write_text("ID=ubuntu\nID_LIKE=debian\n")
    assert find_chromium(install=True) == tmp / "usr/bin/chromium"


@pytest.mark.parametrize(
    "os_release, root",
    [("ID=fedora\n", True), ("ID=debian\n", False), (None, True)],
    ids=["fedora", "debian-not-root", "no-os-release"],
)
def test_no_browser_and_no_apt_fails_saying_how_to_get_one(
    places, monkeypatch, os_release, root
):
    tmp, apt = places
    if os_release:
        (tmp / "os-release").write_text(os_release)
    monkeypatch.setattr(kit.os, "geteuid", lambda: 0 if root else 1000)
    with pytest.raises(NoChromium) as error:
        find_chromium(install=True)
    assert apt == []
    assert str(error.value) == HOW_TO_GET_ONE
    for way in ("CHROMIUM=", "playwright install chromium", "apt-get install"):
        assert way in HOW_TO_GET_ONE


def test_playwrights_own_is_taken_only_if_it_is_there(tmp_path, monkeypatch):
    reported = tmp_path / "ms-playwright/chromium-1/chrome-linux64/chrome"
    answer = subprocess.CompletedProcess([], 0, f"{reported}\n", "")
    monkeypatch.setattr(kit.subprocess, "run", lambda *a, **k: answer)
    assert kit.playwright_chromium() is None  # not installed
    executable(reported)
    assert kit.playwright_chromium() == reported


def test_a_browser_test_without_chromium_stops_the_run_at_once(tmp_path):
    """The real conftest: with no usable Chromium the run stops before any test,
    with the message, and a non-zero status; it is never skipped."""
    test = "tests/browser/test_behaviour.py::test_palette_toggle_switches_schemes"
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test],
        cwd=Path(__file__).resolve().parents[2],
        env={**os.environ, "CHROMIUM": str(tmp_path / "none")},
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = result.stdout + result.stderr
    assert result.returncode == pytest.ExitCode.USAGE_ERROR, output
    assert f"CHROMIUM={tmp_path / 'none'} is not a runnable file" in output
    assert "passed" not in output and "skipped" not in output
