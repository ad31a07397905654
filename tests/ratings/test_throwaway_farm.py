"""A farm of throwaway accounts that each play their own two shots of a rated match and
then resign (1500 -> 1886 in five matches before) moves no rating; established throwaways give their
winner at most the day's cap; the result says why in every language; the admin's farm flag catches
the pattern. The thresholds are game/ratings/rules.py."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import translation

from game.accounts.services import user_signup
from game.common import glicko2
from game.matches.services import match_create, match_join
from game.matches.services.results import results_record
from game.models import MatchResult, Profile, Shot
from game.ratings.rules import rating_rules
from game.ratings.selectors import account_established, reason_text, resign_farm_suspects
from tests.support.community_factories import establish, make_match, make_player, verdict
from tests.support.play_support import connect_communicator, next_ack, play_opening

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]

#: A shot of white1 or white2 that ends the visit (the opening's position: each misses everything).
MISS = {"angle": 3.14159, "speed": 0.4, "side": 0.0, "height": 0.0}
KAISA_CALL = {"ball": "kaisa", "pocket": "foot_left", "object_cushions": 0, "cue_cushions": 0, "via": None}


@database_sync_to_async
def established_main() -> Any:
    main = user_signup(username="farmer", password="kaisa-pw-2024", display_name="Farmer")
    establish(main)
    return main


@database_sync_to_async
def farm_match(main: Any, index: int) -> tuple[Any, str]:
    throwaway = user_signup(username=f"throwaway{index}", password="kaisa-pw-2024")
    match, _ = match_create(user=main, rated=True, time_limit=None, shot_clock=None)
    match_join(match_id=match.id, user=throwaway)
    return throwaway, match.id


@database_sync_to_async
def rating_of(user: Any) -> tuple[float, int]:
    profile = Profile.objects.get(user=user)
    return profile.rating, profile.rated_games


@database_sync_to_async
def stored_reason(match_id: str) -> tuple[bool, str]:
    result = MatchResult.objects.get(match_id=match_id)
    return result.rated, result.unrated_reason


async def play_two_own_shots_and_resign(main: Any, throwaway: Any, match_id: str) -> dict:
    """The farm's match, through the real consumers: the opening, then the throwaway's own two shots
    (each answered by one of the main account's), then the throwaway resigns."""
    farmer = await connect_communicator("farmer", match_id, main)
    thrower = await connect_communicator("throwaway", match_id, throwaway)
    await play_opening(farmer, thrower)
    for shooter, other in ((farmer, thrower), (thrower, farmer), (farmer, thrower), (thrower, farmer)):
        await shooter.send("shoot", {"call": KAISA_CALL, "strike": MISS}, ack=next_ack(), v=shooter.v)
        shot = await other.until(lambda m: m["t"] == "shot")
        assert shot["d"]["verdict"]["turn_passes"], shot["d"]["verdict"]
        await shooter.until(lambda m: m["t"] == "shot")
    await thrower.send("resign", ack=next_ack())
    finished = (await farmer.until(lambda m: m["t"] == "finished"))["d"]["result"]
    await farmer.close()
    await thrower.close()
    return finished


async def test_throwaway_farm_moves_no_rating() -> None:
    """The issue's farm: an established main account, five fresh accounts, two own shots each, then
    resign. Before: 1500 -> 1662 -> 1751 -> 1809 -> 1852 -> 1886. Now the main account moves by at most
    a few points (none), each result says why in the reader's language, and the admin's flag names
    every throwaway with the main account as the one who won."""
    main = await established_main()
    before, _ = await rating_of(main)
    for index in range(5):
        throwaway, match_id = await farm_match(main, index)
        result = await play_two_own_shots_and_resign(main, throwaway, match_id)
        assert (result["winner"], result["how"], result["rated"]) == ("Farmer", "resign", False)
        assert result["rating_changes"] == []
        assert result["unrated_reason"] == reason_text("new_account")
        assert "account is new" in result["unrated_words"]["en"]
        assert "uusi" in result["unrated_words"]["fi"] and "новая" in result["unrated_words"]["ru"]
        assert await stored_reason(match_id) == (False, "new_account")
    after, rated_games = await rating_of(main)
    assert abs(after - before) <= 3 and rated_games == 0
    suspects = await database_sync_to_async(resign_farm_suspects)()
    flagged = await database_sync_to_async(
        lambda: set(Profile.objects.filter(user_id__in=list(suspects)).values_list("display_name", flat=True))
    )()
    assert flagged == {f"throwaway{index}" for index in range(5)}
    assert all(winners == ["Farmer"] for winners in suspects.values())


@pytest.mark.django_db
def test_established_throwaways_give_at_most_the_daily_cap() -> None:
    """Throwaways that waited out the account age and played their casual games are established but
    provisional: five honest-looking wins against them give the winner at most `provisional_gain_cap`
    in a day (Glicko-2 alone gives about 160 for the first). The losers still lose in full; a win
    against a settled rating is not capped."""
    rules = rating_rules()
    main = make_player("Main")
    throwaways = [make_player(f"Throw{index}") for index in range(5)]
    establish(main, *throwaways)
    for throwaway in throwaways:
        shots = [(throwaway, verdict(0, turn_passes=True)), (throwaway, verdict(0, turn_passes=True))]
        results_record(match=make_match(main, throwaway, rated=True, winner=main, shots=[*shots, (main, verdict(60))]))
    profile = Profile.objects.get(user=main)
    assert profile.rated_games == 5
    assert 1500 < profile.rating <= 1500 + rules.provisional_gain_cap + 1e-6
    one_win, one_loss = glicko2.rate_match(glicko2.Rating(), glicko2.Rating(), first_score=1.0)
    assert one_win.rating - 1500 > 2 * rules.provisional_gain_cap  # the cap is what held it
    assert Profile.objects.get(user=throwaways[0]).rating == pytest.approx(one_loss.rating)
    # A settled opponent: Glicko-2's gain, uncapped.
    settled = make_player("Settled", rating=1500.0, rating_deviation=60.0)
    establish(settled)
    gained_before = Profile.objects.get(user=main).rating
    results_record(match=make_match(main, settled, rated=True, winner=main, shots=[(main, verdict(60))]))
    assert Profile.objects.get(user=main).rating - gained_before > 1.0


@pytest.mark.django_db
def test_an_account_becomes_established_by_age_and_real_games() -> None:
    rules = rating_rules()
    fresh = make_player("Fresh")
    match = make_match(fresh, make_player("Other"), rated=False, shots=[(fresh, verdict())] * 2)
    assert not account_established(user_id=fresh.pk, at=match.finished_at)
    establish(fresh)
    now = match.finished_at
    assert account_established(user_id=fresh.pk, at=now)
    # Two strokes a game do not count: a played-out farm account with short games stays new.
    short = make_player("Short")
    establish(short)
    Shot.objects.filter(player=short).exclude(seq__lte=rules.established_own_shots - 1).delete()
    assert not account_established(user_id=short.pk, at=now)


def test_the_ratings_page_in_three_languages() -> None:
    """/ratings/ states the rules, with the thresholds, in English, Finnish and Russian, and the
    leaderboard links to it."""
    rules = rating_rules()
    expected = {
        "en": ["Both accounts are established", f"at least {rules.established_days} days old", "Wins against"],
        "fi": ["Molemmat tilit ovat vakiintuneita", f"vähintään {rules.established_days} päivää vanhoja"],
        "ru": ["Обе учётные записи устоялись", f"не моложе {rules.established_days} дней"],
    }
    for language, words in expected.items():
        page = Client(headers={"accept-language": language}).get("/ratings/")
        assert page.status_code == 200
        text = page.content.decode()
        for phrase in words:
            assert phrase in text, (language, phrase)
        with translation.override(language):
            assert reason_text("new_account")[1:] in text.replace("&#x27;", "'")
    board = Client().get("/leaderboard/").content.decode()
    assert 'href="/ratings/"' in board


@pytest.mark.django_db
def test_admin_farm_flag_catches_forfeits_and_two_shot_resignations(admin_client: Client) -> None:
    """The admin's "resign farming" flag: throwaways that give a rated match up (resign or forfeit)
    before `farm_shots` shots of their own are flagged with the winner; one honest loss clears an
    account."""
    main = make_player("Main")
    honest = make_player("Honest")
    for index, kind in enumerate(["resign", "forfeit", "resign"]):
        throwaway = make_player(f"Throw{index}")
        two = [(throwaway, verdict(0, turn_passes=True)), (main, verdict(0, turn_passes=True))] * 2
        match = make_match(main, throwaway, rated=True, winner=main, shots=two, how=kind)
        Shot.objects.create(
            match=match, seq=5, version=5, player=throwaway, player_name=f"Throw{index}", kind=kind, input={}
        )
    make_match(main, honest, rated=True, winner=main, shots=[(honest, verdict())] * 5)
    suspects = resign_farm_suspects()
    names = set(Profile.objects.filter(user_id__in=list(suspects)).values_list("display_name", flat=True))
    assert names == {"Throw0", "Throw1", "Throw2"} and all(w == ["Main"] for w in suspects.values())
    listing = admin_client.get("/admin/game/profile/?resign_farm=yes")
    assert listing.status_code == 200 and listing.context["cl"].result_count == 3
    page = admin_client.get("/admin/game/profile/resign-farming/").content.decode()
    assert "Throw1" in page and "Main" in page and "Honest" not in page
