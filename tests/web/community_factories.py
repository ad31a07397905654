"""Small factories for the community tests (players, clubs, matches with shots) without the online
layer: they write rows directly, as the online layer would have."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from game.models import Club, Match, Membership, Profile, Shot


def make_player(name: str, **profile_fields: Any) -> Any:
    user = get_user_model().objects.create_user(username=name.lower(), password="pw-" + name)
    Profile.objects.create(user=user, display_name=name, **profile_fields)
    return user


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
) -> Match:
    """A match row; `shots` is a list of (player user, verdict) stored as Shot rows in order."""
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
