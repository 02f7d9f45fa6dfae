"""The package's version: the repository's VERSION file, copied here by scripts/set-version."""

__version__ = "0.1.0"
