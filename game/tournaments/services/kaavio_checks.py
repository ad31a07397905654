"""A KaisaKaavio file's values checked before an import writes a row (services/kaavio.py): the seed
marks, each game's table and each played game's result, by the same checks as the forms
(game/tournaments/values.py, services/club.board_winner). A refusal names the field and its value."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from game.tournaments.kaisakaavio import FileGame, KaavioFile, Participant
from game.tournaments.kaisakaavio_values import SEEDINGS, choice, game_field
from game.tournaments.pairing.draw_seeding import (
    CHAMPIONSHIP_FIELD,
    MOST_SEEDS,
    championship_places,
    is_crowded,
    seed_places,
)
from game.tournaments.services.base import TournamentError
from game.tournaments.services.club import AT_TARGET, ON_TIME, SHOOTOUT, BoardResult, board_winner
from game.tournaments.values import Said, Words, bounded, number_of, shown, table


def file_error(words: str, params: dict[str, object] | None = None) -> TournamentError:
    return TournamentError("bad_file", words, params)


def ended_of(game: FileGame, target: int) -> str:
    """How a played game ended, from its points (the file does not say)."""
    winner, loser = (
        (game.first_points, game.second_points) if game.winner == 1 else (game.second_points, game.first_points)
    )
    if (winner or 0) <= (loser or 0):
        return SHOOTOUT
    return AT_TARGET if (winner or 0) >= target else ON_TIME


def results_checked(kaavio: KaavioFile, target: int) -> None:
    """Every played game's points as the phone's form checks a result (services/club.board_winner):
    each score 0 to target + 30, and one that a game can end with."""
    for number, game in enumerate(kaavio.games, start=1):
        if not game.played or game.first_id is None or game.second_id is None:
            continue  # a cup's walk-over has no score
        result = BoardResult(
            first_score=game.first_points or 0,
            second_score=game.second_points or 0,
            ended=ended_of(game, target),
            shootout_winner=game.first_id if game.winner == 1 else game.second_id,
        )
        fields = (game_field(number, "Pisteet1"), game_field(number, "Pisteet2"))
        try:
            board_winner(sides=(game.first_id, game.second_id), fields=fields, result=result, target=target)
        except TournamentError as error:
            if error.parts[0][1].get("field") in fields:
                raise  # a score out of range names its game already
            raise file_error(
                gettext_noop("game %(game)s: %(reason)s"), {"game": number, "reason": Said(error)}
            ) from error


def seeds_marked(kaavio: KaavioFile) -> int | None:
    """The number of top seeds the file marks (`Sijoitettu`), checked against the draw list; None
    if its marks are no seeds. The program seeds by the marks only when the event says it seeds
    (`Sijoittaminen` Sijoitetaan8Pelaajaa); otherwise a mark is a label beside the name (a weekly
    event's "3P", the ranking points a player brings). A file without the setting (older than it,
    or an export of Kaiza's before it wrote one) seeds by its marks unless one has a letter. Kaiza's
    seed k stands at the handbook's place for seed k (selectors/draw.py), so a mark elsewhere, a mark
    that is not 1 to 8, repeated, or with a gap below it, has no home and is refused. A championship
    (Sijoitetaan24Pelaajaa) marks up to 24 seeds, each at the championship's place for it."""
    seeding = choice(dict(kaavio.other_fields), "Sijoittaminen", SEEDINGS)
    marks_given = [p.seeded.strip() for p in kaavio.participants if p.seeded.strip()]
    if seeding == "EiSijoittamista" or (seeding is None and any(c.isalpha() for m in marks_given for c in m)):
        return None
    order = list(kaavio.draw_list)
    championship = seeding == "Sijoitetaan24Pelaajaa"
    most = min(CHAMPIONSHIP_FIELD if championship else MOST_SEEDS, len(order))
    marks = _seed_marks(kaavio, most)
    if list_is_drawn(kaavio, championship=championship, seeds=len(marks)):
        return len(marks)  # the program drew the list at random: Kaiza keeps it as it is (list_place)
    places = championship_places(len(order), len(marks)) if championship else seed_places(len(order), most)
    _check_seed_places(kaavio, marks, order, places)
    return len(marks)


def list_is_drawn(kaavio: KaavioFile, *, championship: bool, seeds: int) -> bool:
    """Whether the program drew the file's seeds' places with the rest of the list: a championship
    smaller than its 24 places (drawn whole), or a small field whose 8 places clash (a seed at
    place 0 is drawn, the free places taken at random; draw_seeding.crowded_draw_list)."""
    size = len(kaavio.draw_list)
    if championship:
        return size < CHAMPIONSHIP_FIELD
    return seeds > 0 and is_crowded(size, seeds)


def _seed_marks(kaavio: KaavioFile, most: int) -> dict[int, Participant]:
    """Each seed mark's participant: marks from 1 to `most`, each once, from 1 without a gap."""
    marks: dict[int, Participant] = {}
    for participant in kaavio.participants:
        where = Words(gettext_noop("Sijoitettu of %(name)s"), {"name": shown(participant.name)})
        mark = number_of(participant.seeded, field=where)
        if mark is None:
            continue
        bounded(mark, field=where, bounds=(1, most), rule=gettext_noop("a seed is %(least)s to %(most)s"))
        if mark in marks:
            raise file_error(
                gettext_noop("%(first)s and %(second)s are both marked seed %(seed)s"),
                {"first": shown(participant.name), "second": shown(marks[mark].name), "seed": mark},
            )
        marks[mark] = participant
    if sorted(marks) != list(range(1, len(marks) + 1)):
        raise file_error(
            gettext_noop("the seed marks are %(marks)s: they run from 1 without a gap"),
            {"marks": ", ".join(str(m) for m in sorted(marks))},
        )
    return marks


def _check_seed_places(kaavio: KaavioFile, marks: dict[int, Participant], order: list[int], places: list[int]) -> None:
    """Each marked seed at the place for it in the draw list (`places`, seed 1's first)."""
    by_id = {p.id: p for p in kaavio.participants}
    for seed, participant in marks.items():
        place = order.index(participant.id) + 1
        if place != places[seed - 1]:
            raise file_error(
                gettext_noop(
                    "%(name)s is marked seed %(seed)s at place %(place)s of the draw list, where seed %(seed)s "
                    "stands at place %(right)s (%(there)s)"
                ),
                {
                    "name": shown(participant.name),
                    "seed": seed,
                    "place": place,
                    "right": places[seed - 1],
                    "there": shown(by_id[order[places[seed - 1] - 1]].name),
                },
            )


def venue_offsets(kaavio: KaavioFile, tables: int) -> dict[str, tuple[int, int]]:
    """An event at several places: each place's name (as its games carry it) with the number of its
    first table less one and its tables (the host's are `tables`, the file does not keep them);
    tables are numbered through the places (services/venues.py)."""
    if not kaavio.venues:
        return {}
    labels, _ = kaavio.venue_groups()
    counts = {v.label: v.tables for v in kaavio.venues}
    offsets: dict[str, tuple[int, int]] = {}
    first = 0
    for label in labels:
        offsets[label] = (first, counts.get(label, tables))
        first += offsets[label][1]
    return offsets


def tables_of(kaavio: KaavioFile, tables: int) -> dict[int, int]:
    """Each game's table (`Poyta`): a played game keeps the one it was played on (1 to 32), a game
    not yet played is on it now, so it is one of the event's tables and no other such game's. At
    several places a table is its place's (`Paikka`), numbered through the places."""
    given: dict[int, int] = {}
    busy: dict[int, int] = {}
    offsets = venue_offsets(kaavio, tables)
    for index, game in enumerate(kaavio.games):
        where = game_field(index + 1, "Poyta")
        number = number_of(dict(game.extra).get("Poyta"), field=where)
        if number is None:
            continue
        first, count = offsets.get(
            dict(game.extra).get("Paikka", "").strip(), next(iter(offsets.values()), (0, tables))
        )
        table(number, field=where, tables=32 if game.played else count)
        number += first
        if not game.played:
            if number in busy:
                raise file_error(
                    gettext_noop("games %(first)s and %(second)s are both being played on table %(table)s"),
                    {"first": busy[number] + 1, "second": index + 1, "table": number},
                )
            busy[number] = index
        given[index] = number
    return given
