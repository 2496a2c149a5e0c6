"""What an installed toolreg promises: one version everywhere."""

from importlib.metadata import version

import toolreg


def test_the_version_is_the_installed_one():
    # pyproject.toml reads the version from toolreg/_version.py; pip's metadata must agree with it.
    assert version("pytoolreg") == toolreg.__version__
