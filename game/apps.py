from django.apps import AppConfig


class GameConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "game"
    verbose_name = "Kaiza"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in
        from django.core.signals import request_finished

        from game.accounts.language import profile_language_at_login
        from game.common import converters
        from game.common.db import close_request_connection

        converters.register()  # the URL parameters' converters (matchid, name), before any URL conf
        request_finished.connect(close_request_connection, dispatch_uid="kaiza-close-request-connection")
        user_logged_in.connect(profile_language_at_login, dispatch_uid="kaiza_profile_language_at_login")

        # How one domain hears another: the one wiring point. Tournaments build on matches;
        # the matches code sends its signals and polls its clock sources without knowing them.
        from game.matches.services.deadlines import clock_source_register
        from game.signals import match_finished, seat_arrived
        from game.tournaments.services import play as tournament_play
        from game.tournaments.services.clocks import tournament_clock_source

        match_finished.connect(tournament_play.on_match_finished, dispatch_uid="kaiza-tournament-match-finished")
        seat_arrived.connect(tournament_play.on_seat_arrived, dispatch_uid="kaiza-tournament-team-arrived")
        clock_source_register(tournament_clock_source)
        from game.clubs.receivers import on_tournament_finished
        from game.signals import tournament_finished

        # A club's ranking series keep each finished tournament's placings.
        tournament_finished.connect(on_tournament_finished, dispatch_uid="kaiza-club-series-tournament-finished")
        from game.clubs.register import club_player_for_name
        from game.tournaments.services.walk_ins import walk_in_finder_register

        walk_in_finder_register(club_player_for_name)  # a walk-in is a player of the club's register
        from django.db.models.signals import post_save

        from game.models.realgames import RealGame
        from game.realgames.stats_records import real_game_saved

        # Every save of a real game keeps its statistics' lines as its state says (finished: two lines).
        post_save.connect(real_game_saved, sender=RealGame, dispatch_uid="kaiza-real-game-lines")
        from game.puzzles.receivers import on_analysis_finished
        from game.signals import analysis_finished

        # A stored analysis of a rated match makes its shot puzzles.
        analysis_finished.connect(on_analysis_finished, dispatch_uid="kaiza-puzzles-analysis-finished")
        from game.lobby import seek_clock
        from game.matches.clock_runner import each_poll_register

        each_poll_register(seek_clock.pair_and_widen)  # quick pairing's queue, each poll
        from game.matches import analysis_runner

        each_poll_register(analysis_runner.start_waiting)  # the shot analyses asked for
        from game.matches.bot_runner import exhibitions_tend, outages_retry
        from game.puzzles.receivers import starter_puzzles_at_start

        # A fresh install shows life (settings.KAIZA_SHOWCASE): puzzles at once, a computer exhibition.
        each_poll_register(starter_puzzles_at_start)
        each_poll_register(exhibitions_tend)
        each_poll_register(outages_retry)  # a computer player's move after a database failure

        # What the real-time layer needs of the domains (it imports none of them: game.realtime.hooks).
        from game.matches.consumer import schedule_bot_turn
        from game.matches.selectors import matches as match_selectors
        from game.matches.services import connections, match_set_connected
        from game.realtime.hooks import register as realtime_hooks
        from game.tournaments.selectors.tournaments import tournament_of_match

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

        # What an event's pages read of the games scored at its tables (game.tournaments.hooks).
        from game.realgames.boards import real_games_of_pairings
        from game.tournaments.hooks import register as tournament_hooks

        tournament_hooks(real_games=real_games_of_pairings)

        # What the match code needs of the domains built on it (it imports none: game.matches.hooks).
        from game.accounts.services import bot_user_for_level, profile_ensure
        from game.chat import selectors as chat_selectors
        from game.chat import services as chat_services
        from game.matches.hooks import register as match_hooks
        from game.practice.selectors.positions import shot_practice_code
        from game.ratings.results import pair_results_record
        from game.ratings.selectors import reason_text
        from game.teams.results import team_results_record
        from game.tournaments.selectors.tournaments import awaiting_teams, reserved_player
        from game.tournaments.visibility import match_event_visible, matches_unlisted

        match_hooks(
            profile_ensure=profile_ensure,
            bot_user=bot_user_for_level,
            reserved_player=reserved_player,
            teams_awaited=awaiting_teams,
            pair_result=pair_results_record,
            team_result=team_results_record,
            unrated_reason_text=reason_text,
            chat_recent=chat_selectors.chat_recent,
            chat_post=chat_services.chat_post,
            chat_report=chat_services.chat_report,
            practice_code=shot_practice_code,
            event_visible=match_event_visible,
            events_unlisted=matches_unlisted,
        )
