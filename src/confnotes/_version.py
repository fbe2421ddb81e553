"""The version of confnotes: one place, read by the build backend and by every module that prints it."""

__version__ = "0.2.0"
