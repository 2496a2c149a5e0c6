"""The version: the build reads it here (pyproject.toml), and ``toolreg.__version__`` gives it."""

__all__ = ["__version__"]

__version__ = "0.1.0.dev0"
