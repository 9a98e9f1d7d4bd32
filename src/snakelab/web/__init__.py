"""The web viewer: live games over a WebSocket, replays, human play, results.

Start it with ``snakelab serve`` (see ``docs/web.md``) or build the ASGI app with
:func:`create_app`.
"""

from snakelab.web.app import create_app

__all__ = ["create_app"]
