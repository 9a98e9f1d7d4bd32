"""Who may talk to the viewer: the Host and Origin checks in front of every request.

A web page the user opens on any site can make the browser connect to
``ws://127.0.0.1:8000/ws/live`` or post to ``/api/replay``: browsers allow
cross-site WebSockets and form-like POSTs, and only the server can refuse them.
A page can also rebind its own domain name to 127.0.0.1 (DNS rebinding) and then
read ``/api/*`` as if it were same-origin. Two checks close both doors:

* **Host.** Every HTTP request and WebSocket handshake must name one of the
  server's own host names in its ``Host`` header: for a loopback bind
  ``localhost``, ``127.0.0.1`` and ``[::1]``; otherwise the bound address; for a
  wildcard bind (``0.0.0.0``, ``::``) any IP address literal and this machine's
  host name, since an address typed as digits cannot be rebound; plus every name
  given with ``--allow-host``. Anything else gets **400**. A rebinding page's
  requests carry its own domain name, so they are refused.
* **Origin.** A WebSocket handshake and every state-changing request (any method
  but GET, HEAD and OPTIONS) must come from the server's own origin: the scheme
  and the ``Host`` the browser used (``localhost`` and ``127.0.0.1`` count as one
  for a loopback bind), or an origin given with ``--allow-origin``. Others get
  **403** before anything runs (a WebSocket is closed with 1008 before it is
  accepted, which the server answers with HTTP 403). A request without an
  ``Origin`` header does not come from a web page (browsers always send one on
  these requests); it is accepted on a loopback bind, where only programs on
  this machine can connect, and refused on any other bind.

The checks are an ASGI middleware (:class:`AccessMiddleware`) so no route can
forget them.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
"""Host names that always mean this machine."""

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
"""Methods that change nothing, so need no Origin check."""

WILDCARD_BINDS = frozenset({"", "0.0.0.0", "::", "[::]"})
"""Bind addresses meaning every interface."""


def _ip(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return None


def is_loopback(host: str) -> bool:
    """Whether a bind address or host name means this machine only."""
    name = host.strip("[]").lower()
    if name in LOOPBACK_NAMES:
        return True
    ip = _ip(name)
    return ip is not None and ip.is_loopback


def is_wildcard(host: str) -> bool:
    """Whether a bind address listens on every interface."""
    return host.strip().lower() in WILDCARD_BINDS


def split_host(value: str) -> tuple[str, str | None]:
    """``"name:port"`` (or ``"[v6]:port"``) as a lower-case name without brackets and the port."""
    value = value.strip().lower()
    if value.startswith("["):
        name, _, rest = value[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else None
        return name, port or None
    if value.count(":") == 1:
        name, _, port = value.partition(":")
        return name, port or None
    return value, None  # a bare name, or a bare IPv6 address


@dataclass(frozen=True)
class Access:
    """The server's own names and the extra origins and hosts it was told to accept.

    Args:
        bind_host: The address the server listens on (``--host``).
        allow_origins: Extra origins (``scheme://host[:port]``) allowed to open the
            WebSocket and post (``--allow-origin``).
        allow_hosts: Extra host names accepted in the ``Host`` header (``--allow-host``),
            e.g. the name of a reverse proxy in front of the server.
    """

    bind_host: str = "127.0.0.1"
    allow_origins: tuple[str, ...] = ()
    allow_hosts: tuple[str, ...] = ()
    _origins: frozenset[str] = field(init=False, repr=False)
    _hosts: frozenset[str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        origins = frozenset(o.strip().rstrip("/").lower() for o in self.allow_origins if o.strip())
        hosts = {split_host(h)[0] for h in self.allow_hosts if h.strip()}
        if self.loopback:
            hosts |= LOOPBACK_NAMES
        elif not is_wildcard(self.bind_host):
            hosts.add(split_host(self.bind_host)[0])
        else:
            hosts |= LOOPBACK_NAMES
            hosts.add(socket.gethostname().lower())
        object.__setattr__(self, "_origins", origins)
        object.__setattr__(self, "_hosts", frozenset(hosts))

    @property
    def loopback(self) -> bool:
        """Whether the server listens on this machine only."""
        return is_loopback(self.bind_host)

    def host_allowed(self, host_header: str | None) -> bool:
        """Whether a request's ``Host`` header names this server."""
        if not host_header:
            return False
        name, _port = split_host(host_header)
        if name in self._hosts:
            return True
        # Digits cannot be rebound to another machine: on a wildcard bind any address
        # of this machine (which the browser typed) is fine.
        return is_wildcard(self.bind_host) and _ip(name) is not None

    def origin_allowed(self, origin: str | None, scheme: str, host_header: str | None) -> bool:
        """Whether a request with this ``Origin`` may open the WebSocket or change state.

        Args:
            origin: The ``Origin`` header, or None when absent.
            scheme: ``http`` or ``https`` (``ws`` / ``wss`` are mapped to them).
            host_header: The request's ``Host`` header (already checked).
        """
        if origin is None:
            return self.loopback
        origin = origin.strip().rstrip("/").lower()
        if origin in self._origins:
            return True
        if not host_header or origin == "null":
            return False
        parts = urlsplit(origin)
        web_scheme = {"ws": "http", "wss": "https"}.get(scheme, scheme)
        if parts.scheme != web_scheme or not parts.hostname:
            return False
        own_name, own_port = split_host(host_header)
        default = "443" if web_scheme == "https" else "80"
        try:
            port = str(parts.port or default)
        except ValueError:  # a port out of range
            return False
        if port != (own_port or default):
            return False
        name = parts.hostname.lower()
        if name == own_name:
            return True
        # http://localhost:8000 and http://127.0.0.1:8000 reach the same loopback server.
        return self.loopback and is_loopback(name) and is_loopback(own_name)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


class AccessMiddleware:
    """ASGI middleware enforcing :class:`Access` on every request and WebSocket handshake."""

    def __init__(self, app: ASGIApp, access: Access) -> None:
        self.app = app
        self.access = access

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse foreign hosts (400) and foreign origins (403) before the app sees them."""
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = _header(scope, b"host")
        if not self.access.host_allowed(host):
            await _refuse(scope, receive, send, 400, "this server does not answer to that host name (see --allow-host)")
            return
        changes = kind == "websocket" or scope.get("method", "GET") not in SAFE_METHODS
        if changes and not self.access.origin_allowed(_header(scope, b"origin"), scope.get("scheme", "http"), host):
            await _refuse(scope, receive, send, 403, "requests from another site are refused (see --allow-origin)")
            return
        await self.app(scope, receive, send)


async def _refuse(scope: Scope, receive: Receive, send: Send, status: int, message: str) -> None:
    if scope["type"] == "websocket":
        # Closing before accepting: the server answers the handshake with HTTP 403.
        await receive()  # the websocket.connect event
        await send({"type": "websocket.close", "code": 1008, "reason": message})
        return
    from starlette.responses import JSONResponse

    await JSONResponse({"error": message}, status_code=status)(scope, receive, send)


def normalise_origins(values: Iterable[str]) -> tuple[str, ...]:
    """Check ``--allow-origin`` values: ``scheme://host[:port]`` with nothing after.

    Raises:
        ValueError: naming the first value that is not an origin.
    """
    out = []
    for value in values:
        parts = urlsplit(value.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/") or parts.query:
            raise ValueError(f"{value!r} is not an origin: expected scheme://host[:port], e.g. http://localhost:3000")
        out.append(value.strip().rstrip("/").lower())
    return tuple(out)
