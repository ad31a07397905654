from django.apps import AppConfig


class GameConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "game"
    verbose_name = "Kaiza"

    def ready(self) -> None:
        from django.core.signals import request_finished

        from game import language  # noqa: F401  (registers the log-in receiver that applies a profile's language)
        from game.db import close_request_connection

        request_finished.connect(close_request_connection, dispatch_uid="kaiza-close-request-connection")
