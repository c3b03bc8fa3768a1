"""The checkout's ``.env`` file (``KEY=value`` lines), read into the environment without overriding
what the environment already says. Read by the settings and by ``bruus-turnier serve`` (which
derives the hall's addresses from it before the settings are read)."""

from __future__ import annotations

from pathlib import Path

ENV_FILE = Path(__file__).resolve().parent.parent / ".env"


def read_env_file(path: Path = ENV_FILE) -> None:
    """Read ``path`` into ``os.environ`` (values already set win); nothing if it does not exist."""
    if path.is_file():
        import environ

        environ.Env.read_env(path, overwrite=False)
