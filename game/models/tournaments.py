"""Club tournaments: the tournament, its entries, rounds, pairings and the kept reasons of fixed results.

Kept apart from game/models.py (which imports this module at its end, so Django registers these
with the app) because the tournament is a concept of its own. An entry is one player or a team of
players (`TournamentEntryMember`), so a team tournament stores the same rows; a pairing points at the
real Match its players play (created by the match services), and its result is copied from that
match when it finishes (game/tournaments/services/results.py) or decided by a no-show forfeit.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

#: K-11: the classic tournament limit, 60 + 5 minutes (the engine's ruleset default, seconds).
DEFAULT_TIME_LIMIT = 3900
#: A player who has not come to their match this long after it was made loses it by forfeit.
NO_SHOW_AFTER = 600.0


class Tournament(models.Model):
    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("Round robin")
        SINGLE_ELIMINATION = "single_elimination", _("Single elimination")
        DOUBLE_ELIMINATION = "double_elimination", _("Double elimination")
        SWISS = "swiss", _("Swiss system")
        DOUBLE_LOSS = "double_loss", _("Double-loss draw")
        DOUBLE_LOSS_THEN_KNOCKOUT = "double_loss_then_knockout", _("Double-loss draw, then knockout from round N")
        TWO_ROUNDS_THEN_CUP = "two_rounds_then_cup", _("Two rounds, then a cup")
        RANKING_EVENT = "ranking_event", _("Ranking event: double-loss draw, the top 8 seeds spread over the draw")
        CHAMPIONSHIP = (
            "championship",
            _("Championship: double-loss draw, seeds 1–12 start in round 3 and seeds 13–24 in round 2"),
        )

    class Kind(models.TextChoices):
        SINGLES = "singles", _("Singles")
        TEAMS = "teams", _("Teams")
        #: An event at the club whose entrants are pairs of register players (the entry's `player`
        #: and `partner`), named "A & B"; each game is one pair against another.
        PAIRS = "pairs", _("Pairs")
        #: An event at the club whose entrants are teams of 3 or 4 register players
        #: (`TournamentTeamPlayer`), KaisaKaavio's team event: the draw is of teams, and each team
        #: game is three games between their players (`TournamentBout`).
        CLUB_TEAMS = "club_teams", _("Teams of the club's players")

    class Category(models.TextChoices):
        """Who may enter, as the federation's series are divided (KaisaKaavio's `KilpaSarja`):
        open to all, women, juniors under 16 and 18, youth under 21, seniors by age class, and
        mixed pairs (a woman and a man)."""

        GENERAL = "general", pgettext_lazy("category", "Open")
        WOMEN = "women", _("Women")
        JUNIORS_U16 = "juniors_u16", _("Juniors under 16")
        JUNIORS_U18 = "juniors_u18", _("Juniors under 18")
        YOUTH_U21 = "youth_u21", _("Youth under 21")
        SENIORS_40 = "seniors_40", _("Seniors 40 and over")
        SENIORS_50 = "seniors_50", _("Seniors 50 and over")
        SENIORS_60 = "seniors_60", _("Seniors 60 and over")
        SENIORS_70 = "seniors_70", _("Seniors 70 and over")
        SENIORS_80 = "seniors_80", _("Seniors 80 and over")
        MIXED = "mixed", _("Mixed pairs")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Open for entries")
        RUNNING = "running", _("Running")
        FINISHED = "finished", pgettext_lazy("tournament", "Finished")
        CANCELLED = "cancelled", pgettext_lazy("tournament", "Cancelled")

    club = models.ForeignKey("game.Club", on_delete=models.CASCADE, related_name="tournaments", verbose_name=_("club"))
    name = models.CharField(max_length=80, verbose_name=_("name"))
    format = models.CharField(
        max_length=32, choices=Format.choices, default=Format.ROUND_ROBIN, verbose_name=_("format")
    )
    #: `double_loss_then_knockout`: the round from which one loss is out (2..6, checked by the
    #: services against the draw's bounds); null for every other format.
    knockout_from = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("knockout from round"), help_text=_("one loss is out from this round on")
    )
    kind = models.CharField(
        max_length=10, choices=Kind.choices, default=Kind.SINGLES, verbose_name=_("singles or teams")
    )
    team_size = models.PositiveSmallIntegerField(
        default=1, verbose_name=_("team size"), help_text=_("players per entry: 1, or 2 to 4 for teams")
    )
    category = models.CharField(
        max_length=12, choices=Category.choices, default=Category.GENERAL, verbose_name=_("category")
    )
    rated = models.BooleanField(default=True, verbose_name=_("rated"))
    time_limit = models.PositiveIntegerField(
        null=True,
        blank=True,
        default=DEFAULT_TIME_LIMIT,
        verbose_name=_("time limit"),
        help_text=_("K-11 match limit, seconds; empty: none"),
    )
    #: The event's clock and target: the `ruleset` JSON every match of it is created with,
    #: only what differs from the K-11 defaults (game/matches/clock_presets.py `EventClock.ruleset`).
    ruleset = models.JSONField(
        default=dict, blank=True, verbose_name=_("ruleset"), help_text=_("the clock and target of its matches")
    )
    max_entries = models.PositiveSmallIntegerField(default=16, verbose_name=_("most entries"))
    #: An event played at the club on this many real tables (1..32, drawn formats
    #: only): its games get a table, not an online match, and their results are entered by the
    #: director (game/tournaments/services/club.py). Null: an online tournament.
    tables = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("tables"), help_text=_("played at the club on this many tables")
    )
    #: An event imported from a KaisaKaavio file: how many of its top seeds the file
    #: marked (`Sijoitettu` 1..n, 0: none), so an export marks the same. Null: Kaiza seeded the event
    #: itself, and its top 1-8 seeds are the marked ones (selectors/draw.py places them).
    seeds_marked = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("seeds marked"), help_text=_("KaisaKaavio's seed marks of an import")
    )
    #: An event imported from a KaisaKaavio file: the file's SHA-256 (hex), so the same file is not
    #: imported twice (game/tournaments/services/kaavio.py); blank for an event made in Kaiza.
    source_digest = models.CharField(max_length=64, blank=True, db_index=True, verbose_name=_("imported file's digest"))
    #: The number the draw list is drawn from (its places below the seeds, and a cup's lots; set when
    #: the entries close, game/tournaments/selectors/draw.py): the same number gives the same list.
    #: Null: the list is in seed order (an import, whose list is the file's, or an event drawn before).
    draw_seed = models.PositiveIntegerField(
        null=True, blank=True, verbose_name=_("draw number"), help_text=_("the draw list is drawn from it")
    )
    #: The results the draw last searched after (a digest of each decided game and its winner): the
    #: draw searches once after each new or changed result, as the program does, never twice.
    draw_searched = models.CharField(max_length=64, blank=True, default="", verbose_name=_("results searched"))
    #: An event at the club played at several places (`TournamentVenue`, the program's `PeliPaikat`):
    #: the round from which the places' draws are joined (3 to 6); null: one place.
    join_round = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("places joined from round"))
    #: At the club: entries stay open once the draw has begun, each late entrant drawn in as the
    #: program's two-stage draw does (game/tournaments/services/late_entries.py), until a game of
    #: round 2 or later has begun.
    late_entries = models.BooleanField(default=False, verbose_name=_("late entries"))
    #: An event imported from a KaisaKaavio file: the late entrants its list names
    #: (`JalkiIlmoittautuneet`) not drawn in yet, each a list of the file's [attribute, value] pairs
    #: (`Nimi` first), written back by the export; a late entry of the name takes it off the list.
    file_late_entrants = models.JSONField(default=list, blank=True, verbose_name=_("late entrants from the file"))
    #: At the club: the two players of a game may enter its result too, not only the director.
    players_enter_results = models.BooleanField(default=False, verbose_name=_("players enter results"))
    starts_at = models.DateTimeField(verbose_name=_("start time"))
    status = models.CharField(
        max_length=14, choices=Status.choices, default=Status.REGISTRATION, db_index=True, verbose_name=_("status")
    )
    rounds_planned = models.PositiveSmallIntegerField(default=0, verbose_name=_("rounds planned"))
    winner = models.ForeignKey(
        "game.TournamentEntry",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("winner"),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="tournaments_created",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    started_at = models.DateTimeField(null=True, blank=True, verbose_name=_("started at"))
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("finished at"))

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = (
            "-starts_at",
            "-id",
        )

    def __str__(self) -> str:
        return f"{self.name} ({self.club})"


class TournamentEntry(models.Model):
    """One side of the tournament: a player, or a team (its members below). `seed` is 1 for the top.

    An entry with no member is a walk-in of an event at the club: a player of the club's register
    (`player`), joined to an account later (game/tournaments/services/club.py `tournament_walk_in_link`),
    when the entry gets its member. A walk-in has no rating: the 1500 stored is never shown."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entries", verbose_name=_("tournament")
    )
    name = models.CharField(max_length=80, verbose_name=_("name"))
    #: A walk-in's player in the club's register (game/models/register.py): the same person in every
    #: event of the club. Null for an entry of accounts only.
    player = models.ForeignKey(
        "game.ClubPlayer",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="entries",
        verbose_name=_("club player"),
    )
    #: A pairs event's second player in the club's register (`player` is the first); null for a
    #: single player, and for a pair imported without its partners' names.
    partner = models.ForeignKey(
        "game.ClubPlayer",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="partner_entries",
        verbose_name=_("partner"),
    )
    rating = models.FloatField(
        default=1500.0, verbose_name=_("rating"), help_text=_("the rating seeding used (a team's mean)")
    )
    seed = models.PositiveSmallIntegerField(default=0, verbose_name=_("seed"))
    #: The entrant's club as the federation's ranking list or a KaisaKaavio file names it (`Seura`).
    club = models.CharField(max_length=80, blank=True, default="", verbose_name=_("club"))
    #: A pair's partners' clubs, `player`'s and `partner`'s, as a KaisaKaavio pairs file names them
    #: (`Pelaajan1Seura`, `Pelaajan2Seura`); blank when not known, and for a single player.
    player_club = models.CharField(max_length=80, blank=True, default="", verbose_name=_("first partner's club"))
    partner_club = models.CharField(max_length=80, blank=True, default="", verbose_name=_("second partner's club"))
    #: The entrant's place on the ranking list the director pasted (`Sija`); null: not on it. The
    #: seeds follow it when the entries close (game/tournaments/services/ranking.py).
    ranking_place = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("ranking place"))
    #: The score the entrant's games start at (the program's `Tasoitus`); 0: no handicap.
    handicap = models.PositiveSmallIntegerField(default=0, verbose_name=_("handicap"))
    #: Which late draw brought the entry in (1: the first after the draw began); null: in the draw
    #: from the start. Late entrants follow everyone before them in the draw list.
    late_stage = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("late draw"))
    #: A cup's lot from an imported KaisaKaavio file (1: the best), the order its seats show; null:
    #: the lots are drawn from the event's draw number (or follow the draw list).
    cup_lot = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("cup lot"))
    #: The entry's place in the draw list of an imported KaisaKaavio file where the seeds cannot say
    #: it (a small seeded field the program drew at random); null: the list is drawn from the seeds
    #: and the event's draw number (game/tournaments/selectors/draw.py).
    list_place = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("place in the draw list"))
    #: The place the entrant plays at until the places' draws are joined (an event at several
    #: places, set when the entries close: game/tournaments/services/venues.py); null: one place.
    venue = models.ForeignKey(
        "game.TournamentVenue",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("place of play"),
    )
    #: The final placing of a drawn format (double loss, cup), stored when the tournament ends; shared
    #: by entries level on every count; null before the end and in the other formats.
    place = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("final placing"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = (
            "tournament",
            "seed",
            "id",
        )

    def __str__(self) -> str:
        return self.name


class TournamentVenue(models.Model):
    """A place an event at the club is played at (the host's hall is number 1): its name, the short
    name its games and players carry, and its tables (game/tournaments/services/venues.py)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="venues", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    name = models.CharField(max_length=80, verbose_name=_("name"))
    short_name = models.CharField(max_length=20, verbose_name=_("short name"))
    tables = models.PositiveSmallIntegerField(verbose_name=_("tables"))

    class Meta:
        ordering = ("tournament", "number")
        constraints = [models.UniqueConstraint(fields=("tournament", "number"), name="venue_number_unique")]
        verbose_name = _("place of play")
        verbose_name_plural = _("places of play")

    def __str__(self) -> str:
        return self.name


class TournamentEntryMember(models.Model):
    entry = models.ForeignKey(
        TournamentEntry, on_delete=models.CASCADE, related_name="members", verbose_name=_("entry")
    )
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+", verbose_name=_("tournament"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries", verbose_name=_("user")
    )
    position = models.PositiveSmallIntegerField(
        default=0, verbose_name=_("position"), help_text=_("the team's playing order, from 0")
    )

    class Meta:
        verbose_name = _("entry member")
        verbose_name_plural = _("entry members")
        ordering = (
            "entry",
            "position",
        )
        constraints = (models.UniqueConstraint(fields=("tournament", "user"), name="one_entry_per_player"),)


class TournamentTeamPlayer(models.Model):
    """A player of a team in a team event at the club: the club's register player, the same person in
    every event of the club. A player plays in one team of the event."""

    entry = models.ForeignKey(
        TournamentEntry, on_delete=models.CASCADE, related_name="team_players", verbose_name=_("team")
    )
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+", verbose_name=_("tournament"))
    player = models.ForeignKey(
        "game.ClubPlayer", on_delete=models.CASCADE, related_name="team_places", verbose_name=_("club player")
    )
    position = models.PositiveSmallIntegerField(default=0, verbose_name=_("position"))

    class Meta:
        verbose_name = _("team player")
        verbose_name_plural = _("team players")
        ordering = (
            "entry",
            "position",
        )
        constraints = (models.UniqueConstraint(fields=("tournament", "player"), name="one_team_per_player"),)


class TournamentRound(models.Model):
    class Status(models.TextChoices):
        PAIRED = "paired", _("Paired, not started")
        PLAYING = "playing", _("Playing")
        DONE = "done", _("Done")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PAIRED, verbose_name=_("status"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    started_at = models.DateTimeField(null=True, blank=True, verbose_name=_("started at"))
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("finished at"))

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = (
            "tournament",
            "number",
        )
        constraints = (models.UniqueConstraint(fields=("tournament", "number"), name="one_round_number"),)


class TournamentPairing(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("To play")
        DONE = "done", _("Done")

    class How(models.TextChoices):
        PLAYED = "played", _("Played")
        BYE = "bye", _("Bye")
        FORFEIT = "forfeit", _("Won by forfeit (no-show)")
        DOUBLE_FORFEIT = "double_forfeit", _("Neither came")
        FIXED = "fixed", _("Set by an admin")

    round = models.ForeignKey(
        TournamentRound, on_delete=models.CASCADE, related_name="pairings", verbose_name=_("round")
    )
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="pairings", verbose_name=_("tournament")
    )
    #: The bracket slot of an elimination ("W1-0": winners' round 1, first slot); blank otherwise.
    slot = models.CharField(max_length=12, blank=True, verbose_name=_("bracket slot"))
    index = models.PositiveSmallIntegerField(default=0, verbose_name=_("index"))
    first = models.ForeignKey(
        TournamentEntry, on_delete=models.CASCADE, related_name="+", verbose_name=_("first entry")
    )
    second = models.ForeignKey(
        TournamentEntry,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("second entry"),
    )
    match = models.OneToOneField(
        "game.Match",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournament_pairing",
        verbose_name=_("match"),
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING, verbose_name=_("status"))
    how = models.CharField(max_length=16, choices=How.choices, blank=True, verbose_name=_("how decided"))
    winner = models.ForeignKey(
        TournamentEntry,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("winner"),
    )
    first_points = models.FloatField(default=0.0, verbose_name=_("first entry's points"))
    second_points = models.FloatField(default=0.0, verbose_name=_("second entry's points"))
    first_score = models.IntegerField(default=0, verbose_name=_("first entry's score"))
    second_score = models.IntegerField(default=0, verbose_name=_("second entry's score"))
    #: How the game ended, the match's `result_code` (target, time_limit, shootout, resign, ...): a game
    #: decided in the shoot-out keeps both scores and its winner, who may have fewer points (K-11.4).
    result_code = models.CharField(max_length=16, blank=True, verbose_name=_("how the game ended"))
    #: Epoch seconds: if the match has not started by then, whoever did not come loses by forfeit
    #: (fired by the server clocks, game/matches/services/deadlines.py); null once started or decided.
    no_show_deadline = models.FloatField(null=True, blank=True, verbose_name=_("no-show deadline"))
    #: At the club: the real table (1..N) the game is played on; null while it waits for a free one
    #: (and online, where a game has its match instead).
    table = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("table"))
    #: When the game was given its table (at the club its start: the TV page's clock of the game).
    table_at = models.DateTimeField(null=True, blank=True, verbose_name=_("given its table at"))
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("finished at"))
    #: Each player's two longest runs (points in one visit) in the game, KaisaKaavio's "pisimmät sarjat":
    #: from the game scored at its table, or a file's import; null where none is known.
    first_longest_run = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("first entry's longest run")
    )
    first_second_run = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("first entry's second longest run")
    )
    second_longest_run = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("second entry's longest run")
    )
    second_second_run = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("second entry's second longest run")
    )

    class Meta:
        verbose_name = _("pairing")
        verbose_name_plural = _("pairings")
        ordering = (
            "round",
            "index",
        )
        indexes = (
            models.Index(
                fields=("no_show_deadline",),
                name="pairing_no_show_deadline",
                condition=models.Q(no_show_deadline__isnull=False),
            ),
        )

    def __str__(self) -> str:
        return f"{self.first} v {self.second or 'bye'}"


class TournamentBout(models.Model):
    """One of the three games of a team game (KaisaKaavio's "osaottelu"): a player of each team, drawn
    (game/tournaments/pairing/team_games.py), and its result as the director enters it. The team game
    (`pairing`) is decided by these once all three are played."""

    pairing = models.ForeignKey(
        TournamentPairing, on_delete=models.CASCADE, related_name="bouts", verbose_name=_("team game")
    )
    index = models.PositiveSmallIntegerField(default=0, verbose_name=_("index"))
    first_player = models.ForeignKey(
        "game.ClubPlayer", on_delete=models.CASCADE, related_name="+", verbose_name=_("first team's player")
    )
    second_player = models.ForeignKey(
        "game.ClubPlayer", on_delete=models.CASCADE, related_name="+", verbose_name=_("second team's player")
    )
    #: How many times the director drew the team game's pairings again (0: the draw's own).
    drawn_again = models.PositiveSmallIntegerField(default=0, verbose_name=_("drawn again"))
    #: 0: the first team's player won, 1: the second's; null: not played yet.
    winner_side = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("winner"))
    first_score = models.IntegerField(default=0, verbose_name=_("first player's score"))
    second_score = models.IntegerField(default=0, verbose_name=_("second player's score"))
    result_code = models.CharField(max_length=16, blank=True, verbose_name=_("how the game ended"))
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("finished at"))

    class Meta:
        verbose_name = _("team game's game")
        verbose_name_plural = _("team games' games")
        ordering = (
            "pairing",
            "index",
        )
        constraints = (models.UniqueConstraint(fields=("pairing", "index"), name="one_bout_per_place"),)


class TournamentResultFix(models.Model):
    """An admin's correction of a pairing's result, with the reason and what it was before (kept)."""

    pairing = models.ForeignKey(
        TournamentPairing, on_delete=models.CASCADE, related_name="fixes", verbose_name=_("pairing")
    )
    fixed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("fixed by")
    )
    reason = models.CharField(max_length=300, verbose_name=_("reason"))
    before = models.JSONField(verbose_name=_("before"))
    after = models.JSONField(verbose_name=_("after"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("result fix")
        verbose_name_plural = _("result fixes")
        ordering = (
            "pairing",
            "created_at",
        )


class TournamentResultKey(models.Model):
    """A result form's key, kept once the result it carried is stored: the same form sent again (a
    phone that lost the answer and sends what it kept once the club's wifi is back) is answered as
    stored and changes nothing (game/tournaments/services/club.py)."""

    key = models.CharField(max_length=64, unique=True, verbose_name=_("entry key"))
    pairing = models.ForeignKey(
        TournamentPairing, on_delete=models.CASCADE, related_name="+", verbose_name=_("pairing")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("result entry key")
        verbose_name_plural = _("result entry keys")
