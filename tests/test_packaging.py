"""What an installed toolreg promises: one version everywhere, and ``python -m toolreg``."""

import runpy
import subprocess
import sys
from importlib.metadata import version

import pytest

import toolreg


def test_the_version_is_the_installed_one():
    # pyproject.toml reads the version from toolreg/_version.py; pip's metadata must agree with it.
    assert version("pytoolreg") == toolreg.__version__


def test_python_dash_m_toolreg_runs_the_command_line():
    done = subprocess.run(
        [sys.executable, "-m", "toolreg", "--help"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: toolreg ")
    assert "validate" in done.stdout and done.stderr == ""


def test_the_main_module_calls_main(monkeypatch, capsys):
    # The same in this process, where coverage sees it.
    monkeypatch.setattr(sys, "argv", ["toolreg", "--help"])
    with pytest.raises(SystemExit) as exited:
        runpy.run_module("toolreg", run_name="__main__")
    assert exited.value.code == 0
    assert capsys.readouterr().out.startswith("usage: toolreg ")
