"""Small factories for the community tests (players, clubs, matches with shots) without the online
layer: they write rows directly, as the online layer would have."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from game.accounts.services import bot_user_for_level
from game.models import Club, Match, Membership, Profile, Shot
from game.ratings.rules import rating_rules


def make_player(name: str, **profile_fields: Any) -> Any:
    """A user with a profile. No password (hashing one is slow): tests log in with force_login."""
    user = get_user_model().objects.create_user(username=name.lower())
    Profile.objects.create(user=user, display_name=name, **profile_fields)
    return user


def establish(*users: Any) -> None:
    """Make accounts established (game/ratings/rules.py: old enough, with enough finished games of real
    play), as a regular player's account is, so that their rated matches count: each account's
    `date_joined` is put back beyond `established_age` and it gets `established_games` finished casual
    games against the computer, each with `established_own_shots` shots of its own. Tests that play
    rated matches between fresh accounts call this first; the throwaway-farm tests do not."""
    rules = rating_rules()
    bot = bot_user_for_level(level=1)
    joined = timezone.now() - rules.established_age - timedelta(hours=1)
    for user in users:
        get_user_model().objects.filter(pk=user.pk).update(date_joined=joined)
        for _ in range(rules.established_games):
            played = [(user, verdict(0, turn_passes=True)) for _ in range(rules.established_own_shots)]
            make_match(user, bot, rated=False, winner=bot, shots=played, finished_at=joined)


def make_club(name: str, owner: Any, *, join_policy: str = Club.JoinPolicy.REQUEST, members: tuple = ()) -> Club:
    slug = name.lower().replace(" ", "-")
    club = Club.objects.create(name=name, slug=slug, join_policy=join_policy, created_by=owner)
    Membership.objects.create(club=club, user=owner, role=Membership.Role.OWNER)
    for member in members:
        Membership.objects.create(club=club, user=member, role=Membership.Role.MEMBER)
    return club


def make_match(
    player1: Any,
    player2: Any,
    *,
    status: str = Match.Status.FINISHED,
    rated: bool = True,
    winner: Any = None,
    club: Club | None = None,
    scores: tuple[int, int] = (0, 0),
    finished_at: datetime | None = None,
    shots: list[tuple[Any, dict]] | None = None,
    how: str = "target",
) -> Match:
    """A match row; `shots` is a list of (player user, verdict) stored as Shot rows in order. `how` is
    the result's code (a finished match reached the target unless told otherwise: that result is
    rated whatever the loser played, game/ratings/selectors.py)."""
    names = [player1.profile.display_name, player2.profile.display_name]
    snapshot = {
        "phase": "finished" if status == Match.Status.FINISHED else "play",
        "players": [
            {"name": names[0], "cue_ball": "white1", "score": scores[0], "connected": True},
            {"name": names[1], "cue_ball": "white2", "score": scores[1], "connected": True},
        ],
        "turn": 0,
        "winner": winner.profile.display_name if winner else None,
    }
    now = timezone.now()
    match = Match.objects.create(
        player1=player1,
        player2=player2,
        status=status,
        rated=rated,
        winner=winner,
        club=club,
        snapshot=snapshot,
        result_code=how if status == Match.Status.FINISHED else ("aborted" if status == Match.Status.ABORTED else ""),
        started_at=now,
        finished_at=(finished_at or now) if status in (Match.Status.FINISHED, Match.Status.ABORTED) else None,
    )
    for seq, (player, verdict) in enumerate(shots or [], start=1):
        Shot.objects.create(
            match=match,
            seq=seq,
            version=seq,
            player=player,
            player_name=player.profile.display_name,
            kind="shoot",
            input={"strike": {"angle": 0, "speed": 1}},
            verdict=verdict,
            points=verdict.get("points", 0),
            snapshot_hash=hashlib.sha256(json.dumps(verdict).encode()).hexdigest(),
        )
    return match


def verdict(points: int = 0, *, turn_passes: bool = False) -> dict:
    return {"scored": points > 0, "points": points, "penalty": 0, "foul": None, "turn_passes": turn_passes}


def _event_of(kind: str, name: str, payload: dict, snapshot: dict) -> tuple[str, dict[str, Any]]:
    """The event type and data `game.matches.services.inputs` stores for one input of `kind`."""
    if kind == "lag":
        return "shot", {"kind": "lag", "player": name, "call": None, "strike": payload["strike"]}
    if kind == "choose_break":
        return "choice", {"player": name, "take": payload["take"]}
    if kind == "place":
        return "placed", {"player": name, "ball": payload["ball"], "x": payload["x"], "y": payload["y"]}
    if kind == "resign":
        return "finished", {"winner": snapshot.get("winner"), "reason": str(snapshot.get("finish_reason") or "")}
    return "shot", {"kind": "shot", "player": name, "call": payload.get("call"), "strike": payload["strike"]}


def play_engine_match(
    player1: Any,
    player2: Any,
    *,
    inputs: int = 8,
    resign: bool = True,
    rated: bool = True,
    time_limit: int | None = None,
    seed: int = 7,
    club: Club | None = None,
) -> Match:
    """A real match played by the engine's bot, its search bounded by a count of simulations (not by time:
    the same match on any host), stored the way the online layer stores it: one Shot row per input
    (payload plus `now`), its event through `store_event` (the verdict in every language, the shot list's
    entry) with the state, and the final snapshot. With `resign` the first player resigns after `inputs`
    inputs, so the match finishes quickly; the second player wins."""
    from game.engine import bot
    from game.engine.rules import Match as EngineMatch
    from game.matches.services import store_event
    from game.models import MatchEvent

    names = (player1.profile.display_name, player2.profile.display_name)
    now = 1_800_000_000.0
    engine = EngineMatch.new(players=names, ruleset=None, time_limit=time_limit, now=now)
    match = Match.objects.create(
        player1=player1,
        player2=player2,
        status=Match.Status.ACTIVE,
        rated=rated,
        club=club,
        time_limit=time_limit,
        ruleset=engine.snapshot()["ruleset"],
        snapshot=engine.snapshot(),
        version=1,
        started_at=timezone.now(),
    )
    MatchEvent.objects.create(match=match, version=1, type="started", data={"state": engine.snapshot()})
    users = dict(zip(names, (player1, player2), strict=True))
    seq = 0

    def store(kind: str, name: str, payload: dict, outcome: Any) -> None:
        nonlocal seq
        seq += 1
        snapshot = engine.snapshot()
        verdict = getattr(outcome, "verdict", None)
        shot = getattr(outcome, "shot", None)
        # The event the online layer stores for this input (game.matches.services.inputs' `run`s), through
        # its own `store_event`: the verdict in every language and the shot list's entry, so a seeded
        # page's shot list reads as a played one ("Aino lag: the lag ball stopped…", not "shot" × 9).
        t, data = _event_of(kind, name, payload, snapshot)
        store_event(match, t, {**data, "verdict": verdict, "state": snapshot})
        Shot.objects.create(
            match=match,
            seq=seq,
            version=match.version,
            player=users[name],
            player_name=name,
            kind=kind,
            input=payload,
            call=payload.get("call"),
            verdict=verdict,
            segments=shot.segments if shot is not None else None,
            points=int((verdict or {}).get("points", 0) or 0),
            snapshot_hash=hashlib.sha256(json.dumps(snapshot, sort_keys=True).encode()).hexdigest(),
        )

    for i in range(inputs):
        if engine.snapshot()["phase"] == "finished":
            break
        now += 20.0
        move = bot.choose_move(engine.snapshot(), 2, seed=seed + i, simulations=64)
        kind, name = move["action"], move["player"]
        payload = {k: v for k, v in move.items() if k not in ("action", "player", "expected")}
        payload["now"] = now
        if kind == "lag":
            outcome = engine.lag(name, payload["strike"], now=now)
        elif kind == "choose_break":
            outcome = engine.choose_break(name, payload["take"], now=now)
        elif kind == "place":
            outcome = engine.place(name, payload["ball"], (payload["x"], payload["y"]), now=now)
        else:
            outcome = engine.shoot(name, call=payload["call"], strike=payload["strike"], now=now)
        store(kind, name, payload, outcome)
    if resign and engine.snapshot()["phase"] != "finished":
        now += 5.0
        outcome = engine.resign(names[0], now=now)
        store("resign", names[0], {"now": now}, outcome)
    snapshot = engine.snapshot()
    match.snapshot = snapshot
    if snapshot["phase"] == "finished":
        match.status = Match.Status.FINISHED
        match.finished_at = timezone.now()
        winner = snapshot.get("winner")
        match.winner = users.get(winner) if winner else None
        match.result_reason = str(snapshot.get("finish_reason") or "")
    match.save()
    return match


DEMO_PASSWORD = "kaisa-demo-pass"


@transaction.atomic
def seed_demo() -> dict[str, Any]:
    """A lived-in community for the browser test and screenshots: players with rating histories, a club
    with members, requests and club matches, two live matches (one a real engine position) and a real
    finished match to replay. Returns the ids the test needs."""
    import random

    from game.clubs.services import club_create, club_join, match_mark_for_club
    from game.matches.services.results import results_record

    rng = random.Random(2024)
    names = ["Aino", "Eero", "Kalle", "Liisa", "Mikko", "Sanna", "Tuomas", "Venla"]
    players = {name: make_player(name) for name in names}
    players["Aino"].set_password(DEMO_PASSWORD)
    players["Aino"].save(update_fields=["password"])
    club = club_create(
        user=players["Aino"],
        name="Helsinki Kaisa Club",
        slug="helsinki",
        description="Tuesday and Thursday evenings at the Kallio hall; online the rest of the week.",
        join_policy=Club.JoinPolicy.REQUEST,
    )
    for name in ("Eero", "Kalle", "Liisa", "Mikko"):
        Membership.objects.create(club=club, user=players[name], role=Membership.Role.MEMBER)
    Membership.objects.filter(club=club, user=players["Eero"]).update(role=Membership.Role.ADMIN)
    club_join(club=club, user=players["Venla"])
    club_create(user=players["Tuomas"], name="Oulu Cue Society", slug="oulu", description="Northern Kaisa.")

    strength = {"Aino": 0.8, "Eero": 0.65, "Kalle": 0.55, "Liisa": 0.5, "Mikko": 0.45, "Sanna": 0.4}
    start = timezone.now() - timezone.timedelta(days=30)
    members = {"Aino", "Eero", "Kalle", "Liisa", "Mikko"}
    for i in range(36):
        a, b = rng.sample(list(strength), 2)
        first_wins = rng.random() < strength[a] / (strength[a] + strength[b])
        winner = players[a] if first_wins else players[b]
        loser_score = rng.randint(8, 55)
        scores = (60, loser_score) if first_wins else (loser_score, 60)
        visits = [(players[a], verdict(rng.choice([2, 3, 4, 6]))) for _ in range(rng.randint(1, 4))]
        visits.append((players[a], verdict(0, turn_passes=True)))
        match = make_match(
            players[a],
            players[b],
            winner=winner,
            scores=scores,
            rated=i % 5 != 4,
            club=club if {a, b} <= members and i % 2 == 0 else None,
            finished_at=start + timezone.timedelta(hours=18 * i),
            shots=visits,
        )
        results_record(match=match)

    live = play_engine_match(players["Aino"], players["Eero"], inputs=9, resign=False, seed=3)
    match_mark_for_club(match=live, club=club, user=players["Aino"])
    casual = play_engine_match(players["Kalle"], players["Liisa"], inputs=6, resign=False, rated=False, seed=11)
    finished = play_engine_match(players["Mikko"], players["Sanna"], inputs=14, seed=5)
    results_record(match=finished)
    return {"live": live.pk, "casual": casual.pk, "finished": finished.pk, "club": club.slug}


def set_live_score(match_id: str, seat: int, score: int) -> None:
    """Moves a live match's stored score (what a shot would do), for the Watch page's live update."""
    match = Match.objects.get(pk=match_id)
    snapshot = dict(match.snapshot)
    snapshot["players"] = [dict(p) for p in snapshot["players"]]
    snapshot["players"][seat]["score"] = score
    match.snapshot = snapshot
    match.version += 1
    match.save(update_fields=["snapshot", "version", "updated_at"])
