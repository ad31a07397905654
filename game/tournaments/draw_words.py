"""The draw's refusals in words. The draw (game/tournaments/pairing/, free of Django) refuses with a
code and its values (`DrawError.code`, `.params`: entrants by id, a game by its number in draw
order); here each code has its sentence marked for translation, and the caller names the players
(a file's participants, an event's entries) and the games (a file's own numbering), so a refusal
reads wholly in the reader's language: "peli 3 (Aino Aalto v Eero Berg): ..." rather than an English
clause with internal ids inside a Finnish sentence."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext_noop

from game.tournaments.pairing.double_loss_state import DrawError
from game.tournaments.refusal import TournamentError
from game.tournaments.values import Words, shown

#: Every code of double_loss_state.REASONS, in words a director acts on (the same sentences).
DRAW_WORDS: dict[str, str] = {
    "entrant_twice": gettext_noop("a player is twice in the draw list"),
    "too_few_entrants": gettext_noop("a double-loss draw needs at least %(least)s players"),
    "knockout_round": gettext_noop("a knockout starts from round %(earliest)s to %(latest)s, not %(given)s"),
    "no_knockout": gettext_noop("this format has no knockout round to choose"),
    "cup_lots": gettext_noop("the cup's lots are not one for each player"),
    "not_in_list": gettext_noop("%(where)s names %(player)s, who is not in the draw list"),
    "with_himself": gettext_noop("%(where)s pairs a player with himself"),
    "walk_over_outside_cup": gettext_noop("%(where)s: only a cup game may have one player (a walk-over)"),
    "walk_over_winner": gettext_noop("%(where)s: a walk-over is won by its player"),
    "third_loss": gettext_noop("%(where)s would be a third loss for %(player)s, out after their game %(out_after)s"),
    "already_out": gettext_noop("%(where)s: %(player)s is already out (after their game %(out_after)s)"),
    "own_round": gettext_noop("%(where)s: for %(player)s it is own round %(expected)s, not %(given)s"),
    "round_before_own": gettext_noop("%(where)s: the game's round is before its players' own rounds"),
    "winner_not_player": gettext_noop("%(where)s: the winner %(winner)s did not play in it"),
    "no_game": gettext_noop("there is no game %(game)s"),
    "winner_not_in_game": gettext_noop("%(winner)s did not play in game %(game)s"),
    "round_two_no_opponent": gettext_noop("round 2 has no opponent left for place %(place)s that they have not met"),
    "seed_count": gettext_noop("1 to %(most)s seeds, and no more than the players; not %(seeds)s"),
    "no_seed_place": gettext_noop("no free place left for a seed"),
    "seed_not_entrant": gettext_noop("the seed %(player)s is not in the draw list"),
    "venue_format": gettext_noop("only a double-loss event, with or without a knockout, is played at several places"),
    "join_round": gettext_noop("the places' draws are joined from round %(earliest)s to %(latest)s, not %(given)s"),
    "venue_list": gettext_noop("the places' players are not the draw list, each once in its order"),
    "venue_too_small": gettext_noop("place %(venue)s has %(count)s players: each place needs at least %(least)s"),
}
GAME = gettext_noop("game %(game)s (%(first)s v %(second)s)")
NOBODY = gettext_noop("nobody")
#: The params that are entrants (by id), named for the reader.
ENTRANTS = ("first", "second", "player", "winner")


def draw_refusal(
    error: DrawError, *, names: Mapping[int, str], game_numbers: Mapping[int, int] | None = None
) -> TournamentError:
    """`error` in words: each entrant by `names` (an id without a name as itself), each game by
    `game_numbers` (the draw's number to the caller's: a file's game, say) or its own number."""
    params: dict[str, object] = {}
    for key, value in error.params.items():
        if key in ENTRANTS:
            params[key] = Words(NOBODY) if value is None else shown(names.get(int(value), value))
        elif key == "game" and isinstance(value, int):
            params[key] = (game_numbers or {}).get(value, value)
        else:
            params[key] = value
    if "first" in params:
        params["where"] = Words(GAME, {k: params[k] for k in ("game", "first", "second")})
    return TournamentError("bad_draw", DRAW_WORDS[error.code], params)
