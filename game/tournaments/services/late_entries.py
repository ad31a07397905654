"""Late entries of a double-loss event at the club: the program's two-stage draw
("kaksiosainen arvonta"). The draw begins with the players who are there; entries stay open, and
each late entrant is drawn in as the program draws its late-registered players in:

- **Until a game of round 2 has begun.** The program refuses to draw again once a game after round 1
  is played or being played; so does Kaiza (a game at a table or decided is begun).
- **The late entrants follow everyone** in the draw list: the program keeps the numbers it drew and
  numbers the late players after them, in an order it draws (selectors/draw.py `late_draw_list`:
  Kaiza draws it from the event's number, so the same entrants give the same list).
- **The games not begun are drawn again**: the program deletes every game not begun and draws rounds 1
  and 2 once more for the longer list, keeping the games that are played or being played. Those are
  round 1's (n, n+1) pairs, which the longer list's opening has too, so Kaiza's opening of the new
  list (pairing/double_loss.py, its missing games) is the program's second draw.

The director turns late entries on for the event (`Tournament.late_entries`); the format with a cup
after two rounds is not drawn so, their cup's lots being drawn from the first list.

Several players who come together are entered at once, a name a line, as the program's list of late
entrants is drawn in at once: one late draw for all of them, or, if any line is refused, none, with
each bad line named by its number.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_noop

from game.common.clock import game_now
from game.common.names import register_key
from game.models.tournaments import Tournament, TournamentEntry, TournamentPairing, TournamentRound
from game.tournaments.selectors.draw import LATE_FORMATS, games_begun, late_entries_open
from game.tournaments.services import play
from game.tournaments.services.base import TournamentError, lock_tournament, require_manager
from game.tournaments.services.walk_ins import walk_in_entry_make


def _check_open(tournament: Tournament) -> None:
    singles = tournament.kind == Tournament.Kind.SINGLES  # a late entrant is one player, by name
    if not (tournament.late_entries and tournament.tables and tournament.format in LATE_FORMATS and singles):
        raise TournamentError("no_late_entries", gettext_noop("this event takes no late entries"))
    if tournament.status != Tournament.Status.RUNNING:
        raise TournamentError("not_running", gettext_noop("late entries are taken once the draw has begun"))
    if not late_entries_open(tournament):
        raise TournamentError(
            "late_closed", gettext_noop("a game of round 2 has begun: the draw takes no more late entrants")
        )


#: The most names one late draw takes (an event takes at most 64 entries).
MOST_AT_ONCE = 64


def _said(error: TournamentError) -> Any:
    """A refusal's words, worded when shown (in the reader's language), inside another refusal."""
    return lazy(lambda: error.words(gettext), str)()


def _lines_refused(problems: list[tuple[int, TournamentError]]) -> TournamentError:
    """Every bad line with its number and why, after the sentence that nobody was drawn in."""
    return TournamentError(
        "bad_lines",
        gettext_noop("nobody is drawn in; fix these lines and send them again:"),
        {},
        more=[(gettext_noop("line %(line)s: %(problem)s"), {"line": n, "problem": _said(e)}) for n, e in problems],
    )


@transaction.atomic
def tournament_late_enter(*, user: Any, tournament_id: int, names: Sequence[str]) -> list[TournamentEntry]:
    """The director enters players who came after the draw began, by name, a line each (blank lines
    left out; each the club's register player of that name, as a walk-in), and the draw takes them
    in at once, the program's second draw: they follow everyone in the draw list, the games not begun
    are deleted, and rounds 1 and 2 are drawn again for the longer list. Refused with nothing changed
    if the event takes no late entrants now, or any name is refused (too long, entered already, on
    two lines, the event full): a single name with its own refusal, several with each bad line's."""
    tournament = lock_tournament(tournament_id)
    require_manager(club_id=tournament.club_id, user=user)
    _check_open(tournament)
    lines = [(number, name) for number, name in enumerate(names, start=1) if name.strip()]
    if not lines:
        raise TournamentError("bad_value", gettext_noop("give the late entrant's name"))
    if len(lines) > MOST_AT_ONCE:
        raise TournamentError("bad_value", gettext_noop("give at most %(most)s names at once"), {"most": MOST_AT_ONCE})
    entries = TournamentEntry.objects.filter(tournament=tournament)
    stage = (entries.aggregate(most=Max("late_stage"))["most"] or 0) + 1
    seed = entries.aggregate(most=Max("seed"))["most"] or 0
    made: list[TournamentEntry] = []
    problems: list[tuple[int, TournamentError]] = []
    for number, name in lines:
        try:
            with transaction.atomic():  # a refused line leaves the lines before it, to check those after
                entry = walk_in_entry_make(tournament=tournament, name=name)
        except TournamentError as refused:
            problems.append((number, refused))
            continue
        seed += 1
        entry.seed, entry.late_stage = seed, stage
        entry.save(update_fields=["seed", "late_stage"])
        made.append(entry)
    if len(lines) == 1 and problems:
        raise problems[0][1]
    if problems:
        raise _lines_refused(problems)  # the good lines' entries go with the transaction
    _file_list_drawn(tournament, made)
    _games_not_begun_delete(tournament)
    play.draw_advance(tournament, game_now())
    return made


def _file_list_drawn(tournament: Tournament, made: list[TournamentEntry]) -> None:
    """An imported file's late entrants drawn in leave its list (`file_late_entrants`), as the program
    moves its late entrants to the participants when it draws them in."""
    drawn = {register_key(entry.name) for entry in made}
    listed = tournament.file_late_entrants if isinstance(tournament.file_late_entrants, list) else []
    waiting = [entrant for entrant in listed if register_key(dict(entrant).get("Nimi", "")) not in drawn]
    if len(waiting) != len(listed):
        tournament.file_late_entrants = waiting
        tournament.save(update_fields=["file_late_entrants"])


def _games_not_begun_delete(tournament: Tournament) -> None:
    """The program's second draw starts from the games begun alone: the others are deleted, the rest
    numbered again in their order, and a round left with no game goes."""
    begun = {p.pk for p in games_begun(tournament=tournament)}
    TournamentPairing.objects.filter(tournament=tournament).exclude(pk__in=begun).delete()
    for index, pairing in enumerate(TournamentPairing.objects.filter(tournament=tournament).order_by("index", "pk")):
        if pairing.index != index:
            pairing.index = index
            pairing.save(update_fields=["index"])
    TournamentRound.objects.filter(tournament=tournament, pairings__isnull=True).delete()
    tournament.draw_searched = ""
    tournament.save(update_fields=["draw_searched"])
