"""What an installed toolreg promises: one version everywhere, and ``python -m toolreg``."""

import subprocess
import sys
from importlib.metadata import version

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
