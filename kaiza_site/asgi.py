"""ASGI entry point: HTTP goes to Django; websockets pass the origin check, then authentication,
then the URL routes of the game app (the Channels tutorial's order)."""

from __future__ import annotations

import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kaiza_site.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from game.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)


from game.gctune import tune_garbage_collector  # noqa: E402

tune_garbage_collector()

if os.environ.get("KAIZA_WRITE_THROUGH", "1") == "1":
    from kaiza_site import tcp_write_through

    tcp_write_through.install()

# The GIL's switch interval: how long the event loop may wait for the GIL while the database thread
# runs Python (and the other way round). Python's 5 ms let the loop and the one database thread hand
# the GIL back and forth in 5 ms steps under load; 1 ms gave the load benchmark's 100 matches shot
# round trips p99 of 56-69 ms against 62-279 ms (docs/performance-load.md). KAIZA_SWITCH_INTERVAL
# overrides it (seconds).
sys.setswitchinterval(float(os.environ.get("KAIZA_SWITCH_INTERVAL", "0.001")))

# The server clocks (shot clock, disconnect grace, K-11) run in every daphne process from its start.
from game.deadline_runner import start_with_reactor  # noqa: E402

start_with_reactor()
