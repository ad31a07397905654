"""ASGI entry point: HTTP goes to Django; websockets pass the origin check, then authentication,
then the URL routes of the game app (the Channels tutorial's order)."""

from __future__ import annotations

import os

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
