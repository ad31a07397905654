"""Is this result rated? The one place that decides, and the words that say why not.

`results_record` asks `unrated_reason(match=...)` for a finished match that was created rated, with
both players' profiles locked (so two results of one pair cannot both slip under the daily limit).
None means rated; otherwise a reason code, stored on the MatchResult and shown with `REASON_TEXT`.
The ratings help page (/ratings/) says the same in words.

The rules (issue 14, against rating farming with throwaway accounts):
- `guest`: both players must be registered accounts, never guests;
- `unverified`: when e-mail verification is on (settings.ACCOUNT_EMAIL_VERIFICATION), both must have a
  verified address;
- `too_few_shots`: the loser played fewer than 2 shots of their own, and the match did not end by
  reaching the target or the time limit (a resignation or forfeit at the first move proves nothing);
- `pair_daily_limit`: the same two players count at most 3 rated results in 24 hours.

`resign_farm_suspects` is the admin's flag: accounts whose rated losses are all resignations before
their third shot.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta

from django.conf import settings
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from game.models import Match, Profile, Shot

#: The two-shot minimum: a loser with fewer shots of their own gives an unrated result (unless the
#: match ended by play: the target or the time limit).
MIN_SHOTS = 2
#: Rated results between the same two players in 24 hours; more are stored unrated.
PAIR_DAILY_LIMIT = 3
PAIR_WINDOW = timedelta(hours=24)
#: K-9.1's target, for a stored position without its ruleset.
TARGET_SCORE = 60
#: Endings that are real results whatever the shot count (Match.result_code): the target, the time limit.
REAL_FINISHES: tuple[str, ...] = ("target", "time_limit", "shootout")
#: A loss by resignation before this many shots of one's own is the farming pattern.
FARM_SHOTS = 3

#: Lazy: each page reads them in its reader's language (game/locale); `reason_text` gives a plain str.
REASON_TEXT: dict[str, str | Promise] = {
    "casual": _("a casual match: not rated"),
    "aborted": _("the match was aborted"),
    "guest": _("a guest played: rated results need two registered accounts"),
    "unverified": _("a player's e-mail address is not verified yet"),
    "too_few_shots": format_lazy(
        _("the loser played fewer than {min_shots} shots and the match did not end by play"), min_shots=MIN_SHOTS
    ),
    "pair_daily_limit": format_lazy(
        _("these two players already had {limit} rated results in the last 24 hours"), limit=PAIR_DAILY_LIMIT
    ),
}


def reason_text(code: str) -> str:
    """Words for a reason code (players read words, never codes), in the active language."""
    return str(REASON_TEXT.get(code, _("not rated")))


def verification_required() -> bool:
    return getattr(settings, "ACCOUNT_EMAIL_VERIFICATION", "none") != "none"


def _players(match: Match) -> list[int]:
    return [pid for pid in (match.player1_id, match.player2_id) if pid is not None]


def _ended_by_play(match: Match, last_kind: str | None) -> bool:
    """The match ended by reaching the target or the time limit (K-9.1, K-11), not by a resignation or
    a forfeit: the input that ended it was a shot, or the stored position says so (the K-11 clock
    expired, or the winner's score reached the target), whichever path finished it. A match that
    records how it ended (`result_code`) is read from that; the position only for older matches."""
    if match.result_code:
        return match.result_code in REAL_FINISHES
    if last_kind == "shoot":
        return True
    snapshot = match.snapshot if isinstance(match.snapshot, dict) else {}
    clock = snapshot.get("clock")
    if isinstance(clock, dict) and clock.get("expired"):
        return True
    ruleset = raw if isinstance(raw := snapshot.get("ruleset"), dict) else {}
    target = ruleset.get("target_score", TARGET_SCORE)
    winner = snapshot.get("winner")
    for player in snapshot.get("players") or []:
        if isinstance(player, dict) and player.get("name") == winner:
            score = player.get("score")
            return isinstance(score, int | float) and score >= target
    return False


def _too_few_shots(match: Match) -> bool:
    """The two-shot minimum: the loser played fewer than 2 shots of their own, and the match did not
    end by reaching the target or the time limit."""
    if match.winner_id is None:
        return False
    loser_id = match.player2_id if match.winner_id == match.player1_id else match.player1_id
    last = Shot.objects.filter(match=match).order_by("-seq").values_list("kind", flat=True).first()
    if _ended_by_play(match, last):
        return False
    return Shot.objects.filter(match=match, player_id=loser_id, kind="shoot").count() < MIN_SHOTS


def _unverified(player_ids: list[int]) -> bool:
    from allauth.account.models import EmailAddress

    verified = set(EmailAddress.objects.filter(user_id__in=player_ids, verified=True).values_list("user_id", flat=True))
    return any(pid not in verified for pid in player_ids)


def _pair_limit_reached(match: Match) -> bool:
    """Rated results of this pair that finished in the 24 hours up to this match's finish."""
    a, b = match.player1_id, match.player2_id
    end = match.finished_at or timezone.now()
    counted = (
        Match.objects.filter(Q(player1_id=a, player2_id=b) | Q(player1_id=b, player2_id=a))
        .filter(result__rated=True, finished_at__gt=end - PAIR_WINDOW, finished_at__lte=end)
        .exclude(pk=match.pk)
        .count()
    )
    return counted >= PAIR_DAILY_LIMIT


def unrated_reason(*, match: Match) -> str | None:
    """Why this finished, rated-as-created match must not move ratings, or None when it is rated."""
    players = _players(match)
    if len(players) < 2 or Profile.objects.filter(user_id__in=players, is_guest=True).exists():
        return "guest"
    if verification_required() and _unverified(players):
        return "unverified"
    if _too_few_shots(match):
        return "too_few_shots"
    if _pair_limit_reached(match):
        return "pair_daily_limit"
    return None


def resign_farm_suspects() -> dict[int, list[str]]:
    """Accounts whose rated losses (matches created rated, whether or not they counted) are all
    resignations before their third shot: user id -> the display names who won those matches."""
    losses = list(
        Match.objects.filter(rated=True, status=Match.Status.FINISHED, winner__isnull=False)
        .exclude(player1__isnull=True)
        .exclude(player2__isnull=True)
        .values_list("id", "player1_id", "player2_id", "winner_id")
    )
    if not losses:
        return {}
    match_ids = [row[0] for row in losses]
    shots = {
        (row["match_id"], row["player_id"]): row["n"]
        for row in Shot.objects.filter(match_id__in=match_ids, kind="shoot")
        .values("match_id", "player_id")
        .annotate(n=Count("id"))
    }
    resigned = set(Shot.objects.filter(match_id__in=match_ids, kind="resign").values_list("match_id", "player_id"))
    farm_like: dict[int, list[int]] = defaultdict(list)
    honest: set[int] = set()
    for match_id, p1, p2, winner in losses:
        loser = p2 if winner == p1 else p1
        if (match_id, loser) in resigned and shots.get((match_id, loser), 0) < FARM_SHOTS:
            farm_like[loser].append(winner)
        else:
            honest.add(loser)
    names = dict(
        Profile.objects.filter(user_id__in={w for ws in farm_like.values() for w in ws}).values_list(
            "user_id", "display_name"
        )
    )
    return {
        loser: sorted({names.get(w, "?") for w in winners})
        for loser, winners in sorted(farm_like.items())
        if loser not in honest
    }
