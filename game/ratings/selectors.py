"""Is this result rated? The one place that decides, and the words that say why not.

`results_record` asks `unrated_reason(match=...)` for a finished match that was created rated, with
both players' profiles locked (so two results of one pair cannot both slip under the daily limit).
None means rated; otherwise a reason code, stored on the MatchResult and shown with `reason_text`.
The ratings help page (/ratings/) says the same in words. The thresholds are `game/ratings/rules.py`.

The rules (against rating farming with throwaway accounts, and against a farm whose throwaways play
their two shots before resigning):
- `guest`: both players must be registered accounts, never guests;
- `unverified`: when e-mail verification is on (settings.ACCOUNT_EMAIL_VERIFICATION), both must have a
  verified address;
- `new_account`: both accounts must be established: old enough, with enough finished games of real
  play (`account_established`); a fresh throwaway moves nobody's rating, however it plays;
- `too_few_shots`: the loser played fewer than `min_shots` shots of their own, and the match did not
  end by reaching the target or the time limit (a resignation or forfeit at the first move proves
  nothing);
- `pair_daily_limit`: the same two players count at most `pair_daily_limit` rated results a day.

What a rated result may still give its winner against a provisional opponent is capped per day
(`provisional_gain_left`, applied by game/ratings/services.py). `resign_farm_suspects` is the admin's
flag: accounts whose rated losses are all resignations or forfeits before `farm_shots` shots.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Count, Exists, F, OuterRef, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from game.common import glicko2
from game.models import Match, Profile, RatingChange, Shot
from game.ratings.rules import rating_rules

#: K-9.1's target, for a stored position without its ruleset.
TARGET_SCORE = 60
#: Endings that are real results whatever the shot count (Match.result_code): the target, the time limit.
REAL_FINISHES: tuple[str, ...] = ("target", "time_limit", "shootout")
#: The inputs by which a loser gives a match up (the farm's pattern when it comes before a real game).
GIVE_UP_KINDS: tuple[str, ...] = ("resign", "forfeit")

#: The reason codes, in the order the ratings page lists them.
REASON_CODES: tuple[str, ...] = (
    "casual",
    "aborted",
    "guest",
    "unverified",
    "new_account",
    "too_few_shots",
    "pair_daily_limit",
)


def reason_texts() -> dict[str, str]:
    """Every reason code's words in the active language, with the thresholds in them (each page and
    result reads them in its reader's language: game/locale)."""
    rules = rating_rules()
    return {
        "casual": _("a casual match: not rated"),
        "aborted": _("the match was aborted"),
        "guest": _("a guest played: rated results need two registered accounts"),
        "unverified": _("a player's e-mail address is not verified yet"),
        "new_account": _(
            "a player's account is new: rated results need accounts at least {days} days old with {games}"
            " finished games of {shots} or more shots of their own"
        ).format(days=rules.established_days, games=rules.established_games, shots=rules.established_own_shots),
        "too_few_shots": _("the loser played fewer than {min_shots} shots and the match did not end by play").format(
            min_shots=rules.min_shots
        ),
        "pair_daily_limit": _("these two players already had {limit} rated results in the last 24 hours").format(
            limit=rules.pair_daily_limit
        ),
    }


#: The words for a reason code that is not (or no longer) known.
UNKNOWN_REASON = gettext_lazy("not rated")


def reason_text(code: str) -> str:
    """Words for a reason code (players read words, never codes), in the active language."""
    return reason_texts().get(code) or str(UNKNOWN_REASON)


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
    """The two-shot minimum: the loser played fewer than `min_shots` shots of their own, and the match did not
    end by reaching the target or the time limit."""
    if match.winner_id is None:
        return False
    loser_id = match.player2_id if match.winner_id == match.player1_id else match.player1_id
    last = Shot.objects.filter(match=match).order_by("-seq").values_list("kind", flat=True).first()
    if _ended_by_play(match, last):
        return False
    return Shot.objects.filter(match=match, player_id=loser_id, kind="shoot").count() < rating_rules().min_shots


def _unverified(player_ids: list[int]) -> bool:
    from allauth.account.models import EmailAddress

    verified = set(EmailAddress.objects.filter(user_id__in=player_ids, verified=True).values_list("user_id", flat=True))
    return any(pid not in verified for pid in player_ids)


def _pair_limit_reached(match: Match) -> bool:
    """Rated results of this pair that finished in the 24 hours up to this match's finish."""
    a, b = match.player1_id, match.player2_id
    rules = rating_rules()
    end = match.finished_at or timezone.now()
    counted = (
        Match.objects.filter(Q(player1_id=a, player2_id=b) | Q(player1_id=b, player2_id=a))
        .filter(result__rated=True, finished_at__gt=end - rules.pair_window, finished_at__lte=end)
        .exclude(pk=match.pk)
        .count()
    )
    return counted >= rules.pair_daily_limit


def account_established(*, user_id: int, at: datetime, exclude_match: str | None = None) -> bool:
    """Old enough (`established_age` since the account was made) and played enough: at least
    `established_games` finished games, any kind, each with `established_own_shots` shots of its own
    (`exclude_match`: the match being judged, which does not count towards its own eligibility)."""
    rules = rating_rules()
    joined = get_user_model().objects.filter(pk=user_id).values_list("date_joined", flat=True).first()
    if joined is None or joined > at - rules.established_age:
        return False
    games = (
        Shot.objects.filter(player_id=user_id, kind="shoot", match__status=Match.Status.FINISHED)
        .exclude(match_id=exclude_match)
        .values("match_id")
        .annotate(n=Count("id"))
        .filter(n__gte=rules.established_own_shots)
    )
    return games[: rules.established_games].count() >= rules.established_games


def provisional_gain_left(*, user_id: int, at: datetime) -> float:
    """What this account may still gain today from one-to-one results against provisional opponents:
    `provisional_gain_cap` less what its rating rose in such results in the window up to `at` (the
    stored, already capped changes: the cap holds whatever the order of the results)."""
    rules = rating_rules()
    provisional_opponent = RatingChange.objects.filter(
        match_id=OuterRef("match_id"), deviation_before__gt=glicko2.PROVISIONAL_DEVIATION
    ).exclude(user_id=user_id)
    gained = (
        RatingChange.objects.filter(
            user_id=user_id,
            match__team_size__isnull=True,
            match__finished_at__gt=at - rules.provisional_gain_window,
            match__finished_at__lte=at,
            rating_after__gt=F("rating_before"),
        )
        .filter(Exists(provisional_opponent))
        .aggregate(total=Sum(F("rating_after") - F("rating_before")))["total"]
    )
    return max(0.0, rules.provisional_gain_cap - float(gained or 0.0))


def unrated_reason(*, match: Match) -> str | None:
    """Why this finished, rated-as-created match must not move ratings, or None when it is rated."""
    players = _players(match)
    if len(players) < 2 or Profile.objects.filter(user_id__in=players, is_guest=True).exists():
        return "guest"
    if verification_required() and _unverified(players):
        return "unverified"
    if _too_few_shots(match):
        return "too_few_shots"
    at = match.finished_at or timezone.now()
    if not all(account_established(user_id=pid, at=at, exclude_match=match.pk) for pid in players):
        return "new_account"
    if _pair_limit_reached(match):
        return "pair_daily_limit"
    return None


def resign_farm_suspects() -> dict[int, list[str]]:
    """Accounts whose rated losses (matches created rated, whether or not they counted) are all
    resignations or forfeits before `farm_shots` shots of their own (a farm's throwaways play two
    and resign): user id -> the display names who won those matches (the farm's beneficiaries)."""
    farm_shots = rating_rules().farm_shots
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
    resigned = set(
        Shot.objects.filter(match_id__in=match_ids, kind__in=GIVE_UP_KINDS).values_list("match_id", "player_id")
    )
    farm_like: dict[int, list[int]] = defaultdict(list)
    honest: set[int] = set()
    for match_id, p1, p2, winner in losses:
        loser = p2 if winner == p1 else p1
        if (match_id, loser) in resigned and shots.get((match_id, loser), 0) < farm_shots:
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
