"""Clubs' upload keys: random, shown once, stored hashed.

A key is ``secrets.token_urlsafe(32)`` (256 random bits, 43 characters). The hub keeps its first
:data:`PREFIX_LENGTH` characters in clear (``Club.key_prefix``, unique: finds the club in one
indexed query) and a salted SHA-256 of the whole key (``Club.key_hash``, ``sha256$<salt>$<hex>``).
A slow password hash buys nothing for 256 random bits and would cost every snapshot a third of
a second of CPU. Pure Python.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

KEY_BYTES = 32
PREFIX_LENGTH = 10
#: The longest text taken as a key from a request (a real key has 43 characters).
MAX_KEY_LENGTH = 100


def new_key() -> str:
    """A fresh upload key (URL-safe base64, 43 characters)."""
    return secrets.token_urlsafe(KEY_BYTES)


def prefix(key: str) -> str:
    """The part of ``key`` kept in clear to find its club."""
    return key[:PREFIX_LENGTH]


def hashed(key: str) -> str:
    """``key`` salted and hashed for ``Club.key_hash``."""
    salt = secrets.token_hex(16)
    return f"sha256${salt}${hashlib.sha256((salt + key).encode()).hexdigest()}"


def matches(key: str, stored: str) -> bool:
    """Whether ``key`` is the key ``stored`` (a :func:`hashed` value) was made of; constant time."""
    try:
        algorithm, salt, digest = stored.split("$")
    except ValueError:
        return False
    if algorithm != "sha256":
        return False
    return hmac.compare_digest(hashlib.sha256((salt + key).encode()).hexdigest(), digest)


def bearer(header: str) -> str | None:
    """The key of an ``Authorization: Bearer <key>`` header; None when there is none."""
    scheme, _, key = header.strip().partition(" ")
    key = key.strip()
    if scheme.lower() != "bearer" or not key or len(key) > MAX_KEY_LENGTH or not key.isascii():
        return None
    return key
