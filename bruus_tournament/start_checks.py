"""What ``bruus-turnier`` checks before a start writes anything: the values of its own settings
(``PORT``, ``WORKERS``/``THREADS``, ``GIL_SWITCH_INTERVAL``, ``LISTEN_ADDRESS``), whether the port is
free (waiting for it when ``serve`` asks), and this machine's addresses on the hall's network.
Whatever is wrong raises :class:`StartError`, one line for the person to read
(``bruus_tournament.cli`` prints it and exits with status 2).
"""

from __future__ import annotations

import errno
import os
import socket
import sys
import time


class StartError(Exception):
    """A start that cannot happen; the message is the one line the person reads."""


def port_number(raw: str | int) -> int:
    """A TCP port 1–65535 from the command line or ``PORT``; :class:`StartError` otherwise."""
    text = str(raw).strip()
    if text.isascii() and text.isdigit() and 1 <= int(text) <= 65535:
        return int(text)
    raise StartError(f"PORT must be a number from 1 to 65535, not {text!r}.")


def worker_count(name: str, raw: str | int) -> int:
    """A count 1–64 of workers or threads (the setting ``name``); :class:`StartError` otherwise."""
    text = str(raw).strip()
    if text.isascii() and text.isdigit() and 1 <= int(text) <= 64:
        return int(text)
    raise StartError(f"{name} must be a whole number from 1 to 64, not {text!r}.")


def switch_interval(raw: str) -> float:
    """A time in seconds above 0 and at most 1 (``GIL_SWITCH_INTERVAL``); :class:`StartError` otherwise."""
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0 < value <= 1:
        raise StartError(f"GIL_SWITCH_INTERVAL must be a number of seconds above 0 and at most 1, not {raw!r}.")
    return value


def listen_address(raw: str) -> str:
    """An IPv4 or IPv6 address to listen on (``LISTEN_ADDRESS``); :class:`StartError` otherwise."""
    text = raw.strip().strip("[]")
    for family in (socket.AF_INET, socket.AF_INET6):
        try:
            socket.inet_pton(family, text)
            return text
        except (OSError, ValueError):
            continue
    raise StartError(f"LISTEN_ADDRESS must be an IP address such as 127.0.0.1 or 0.0.0.0, not {raw!r}.")


def url_host(address: str) -> str:
    """``address`` as it stands in a URL (IPv6 in brackets)."""
    return f"[{address}]" if ":" in address else address


#: How long ``serve`` waits for its port to become free (seconds): gunicorn's workers, orphaned when
#: their master was killed, hold it for about 16 s before they notice and stop.
PORT_WAIT_SECONDS = 30.0


def check_port_free(address: str, port: int, wait: float = 0.0) -> None:
    """Raise :class:`StartError` naming the port when a server cannot listen on ``address:port``
    (taken by another program, not an address of this machine, or reserved for administrators).

    A port in use is tried again for up to ``wait`` seconds (one line on standard error says so);
    if it stays in use, the error names the program holding it where the system tells
    (:func:`port_holder`)."""
    deadline = time.monotonic() + wait
    said = False
    while True:
        try:
            _bind_probe(address, port)
            return
        except _PortInUse:
            if time.monotonic() >= deadline:
                holder = port_holder(port)
                raise StartError(
                    f"Port {port} ist belegt / is in use on {address}: another program (an earlier Bruus "
                    f"Turnier?) listens there{f' ({holder})' if holder else ''}. Stop it, or choose another "
                    f"port (--port or PORT)."
                ) from None
            if not said:
                sys.stderr.write(
                    f"bruus-turnier: Port {port} ist noch belegt, warte bis zu {wait:.0f} s / is still in use, "
                    f"waiting up to {wait:.0f} s ...\n"
                )
                sys.stderr.flush()
                said = True
            time.sleep(0.5)


class _PortInUse(Exception):
    pass


def _bind_probe(address: str, port: int) -> None:
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        if os.name != "nt":  # as the servers do: a port in TIME_WAIT is free (Windows means "share")
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((address, port))
        except OSError as error:
            if error.errno in (errno.EADDRINUSE, getattr(errno, "WSAEADDRINUSE", -1)):
                raise _PortInUse from None
            if error.errno in (errno.EADDRNOTAVAIL, getattr(errno, "WSAEADDRNOTAVAIL", -1)):
                raise StartError(f"LISTEN_ADDRESS {address} is not an address of this machine.") from None
            if error.errno in (errno.EACCES, getattr(errno, "WSAEACCES", -1)):
                raise StartError(f"Port {port} needs administrator rights; choose a port above 1023.") from None
            raise StartError(f"Cannot listen on {address} port {port}: {error.strerror or error}.") from None


def port_holder(port: int) -> str:
    """The programs listening on ``port`` ("Prozess / process 1234: gunicorn: worker ..."), as far
    as the system tells (psutil; on Linux the processes of other users only to root); "" else."""
    try:
        import psutil

        holders = []
        for connection in psutil.net_connections(kind="tcp"):
            listens = connection.status == psutil.CONN_LISTEN and connection.laddr and connection.laddr.port == port
            if listens and connection.pid and connection.pid not in holders:
                holders.append(connection.pid)
        described = []
        for pid in holders[:3]:
            try:
                process = psutil.Process(pid)
                command = " ".join(process.cmdline()) or process.name()
            except psutil.Error:
                command = ""
            described.append(f"Prozess / process {pid}" + (f": {command[:80]}" if command else ""))
        return "; ".join(described)
    except Exception:  # noqa: BLE001 - only a hint in a message: never the reason a start fails
        return ""


def hall_addresses() -> list[str]:
    """This machine's IPv4 addresses on its networks (not loopback, not link-local), the order
    the system lists its network interfaces in."""
    import psutil

    found: list[str] = []
    for addresses in psutil.net_if_addrs().values():
        for item in addresses:
            usable = item.family == socket.AF_INET and not item.address.startswith(("127.", "169.254."))
            if usable and item.address not in found:
                found.append(item.address)
    return found
