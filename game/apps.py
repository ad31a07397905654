from django.apps import AppConfig


class GameConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "game"
    verbose_name = "Kaiza"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in
        from django.core.signals import request_finished

        from game.common.db import close_request_connection
        from game.common.language import profile_language_at_login

        request_finished.connect(close_request_connection, dispatch_uid="kaiza-close-request-connection")
        user_logged_in.connect(profile_language_at_login, dispatch_uid="kaiza_profile_language_at_login")

        # How one domain hears another (issue 27): the one wiring point. Tournaments build on matches;
        # the matches code sends its signals and polls its clock sources without knowing them.
        from game.services.deadlines import clock_source_register
        from game.services.tournaments import play as tournament_play
        from game.services.tournaments.clocks import tournament_clock_source
        from game.signals import match_finished, seat_arrived

        match_finished.connect(tournament_play.on_match_finished, dispatch_uid="kaiza-tournament-match-finished")
        seat_arrived.connect(tournament_play.on_seat_arrived, dispatch_uid="kaiza-tournament-team-arrived")
        clock_source_register(tournament_clock_source)

        # What the real-time layer needs of the domains (it imports none of them: game.realtime.hooks).
        from game.matches.consumer import schedule_bot_turn
        from game.realtime.hooks import register as realtime_hooks
        from game.selectors import matches as match_selectors
        from game.selectors.tournaments import tournament_of_match
        from game.services import connections
        from game.services.matches import match_set_connected

        realtime_hooks(
            lobby_matches=match_selectors.match_open_list,
            tournament_of_match=tournament_of_match,
            match_presence=match_selectors.match_presence,
            seat_connected=match_set_connected,
            connections_write=connections.match_connections_write,
            connections_release_process=connections.match_connections_release_process,
            connections_release_boot=connections.match_connections_release_boot,
            heartbeat=connections.match_heartbeat,
            wake_bot=schedule_bot_turn,
        )
