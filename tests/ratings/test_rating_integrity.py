"""Rating integrity: which results move ratings (game/ratings/selectors.py),
the farm of throwaway accounts through the real services, the pair's daily limit, guests and
unverified e-mail, the admin's resign-farming flag and the ratings help page."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.test import Client

from game.accounts.services import user_signup
from game.common import glicko2
from game.matches.services import match_create, match_join, match_resign
from game.matches.services.results import results_record
from game.models import Match, MatchResult, Profile, Shot
from game.ratings.rules import rating_rules
from game.ratings.selectors import reason_text, resign_farm_suspects
from tests.support.community_factories import establish, make_match, make_player, verdict
from tests.support.play_support import fast_password_hasher

__all__ = ["fast_password_hasher"]  # autouse fixture, imported to apply

pytestmark = [pytest.mark.django_db, pytest.mark.services]

PAIR_DAILY_LIMIT = rating_rules().pair_daily_limit


def established(*names: str) -> list:
    """Players whose accounts are established (old enough, real games played: game/ratings/rules.py),
    so that these tests test the rule they name and not the new-account rule."""
    users = [make_player(name) for name in names]
    establish(*users)
    return users


def legitimate_match(winner, loser, **kwargs) -> Match:
    """A finished rated match both played: each took several shots, the winner's last one ended it."""
    shots = [
        (loser, verdict(2)),
        (loser, verdict(0, turn_passes=True)),
        (winner, verdict(5)),
        (winner, verdict(0, turn_passes=True)),
        (loser, verdict(0, turn_passes=True)),
        (winner, verdict(60)),
    ]
    return make_match(winner, loser, rated=True, winner=winner, shots=shots, **kwargs)


def test_rating_farm_is_refused(admin_client: Client) -> None:
    """The issue's farm: a main account beats 12 fresh accounts that resign at their first move of a
    rated match (1500 -> 2021 before). Through the real services, nothing of it may count for more
    than one legitimate win would."""
    main = user_signup(username="farmer", password="kaisa-pw-2024", display_name="Farmer")
    for index in range(12):
        throwaway = user_signup(username=f"throwaway{index}", password="kaisa-pw-2024")
        match, _ = match_create(user=main, rated=True, time_limit=None, shot_clock=None)
        match_join(match_id=match.id, user=throwaway)
        match_resign(match_id=match.id, user=throwaway)
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED and match.winner_id == main.pk

    one_win, _ = glicko2.rate_match(glicko2.Rating(), glicko2.Rating(), first_score=1.0)
    farmer = Profile.objects.get(user=main)
    assert farmer.rating - 1500 <= one_win.rating - 1500 + 1e-6
    assert farmer.rating == 1500 and farmer.rated_games == 0
    results = MatchResult.objects.filter(match__player1=main)
    assert results.count() == 12
    assert {(r.rated, r.unrated_reason) for r in results} == {(False, "too_few_shots")}
    assert "fewer than 2 shots" in reason_text("too_few_shots")
    # The players read why, in words, on the profile page.
    profile_page = Client().get("/players/Farmer/").content.decode()
    assert "not counted" in profile_page and 'title="The loser played fewer than 2 shots' in profile_page
    # Every throwaway is flagged, with the farmer as the one who won against it.
    suspects = resign_farm_suspects()
    flagged = set(Profile.objects.filter(user_id__in=list(suspects)).values_list("display_name", flat=True))
    assert flagged == {f"throwaway{index}" for index in range(12)}
    assert all(winners == ["Farmer"] for winners in suspects.values())
    page = admin_client.get("/admin/game/profile/resign-farming/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "throwaway11" in text and "Farmer" in text
    listing = admin_client.get("/admin/game/profile/?resign_farm=yes")
    assert listing.status_code == 200 and listing.context["cl"].result_count == 12
    # The farmer, who lost nothing, is not flagged; an honest loss clears an account.
    assert main.pk not in suspects


def test_an_honest_loss_is_not_flagged_and_a_real_finish_counts() -> None:
    alice, bob = established("Alice", "Bob")
    # Bob took one shot only, but Alice's last shot reached the target: a real finish, rated.
    shots = [(bob, verdict(0, turn_passes=True)), (alice, verdict(60))]
    match = make_match(alice, bob, rated=True, winner=alice, shots=shots)
    assert results_record(match=match) and MatchResult.objects.get(match=match).rated
    assert resign_farm_suspects() == {}


def test_a_finish_by_the_time_limit_counts_even_without_a_last_shot() -> None:
    """K-11: a match the clock ended is a real finish whichever input closed it; the same match
    closed by a forfeit before the clock ran out is not."""
    alice, bob = established("Alice", "Bob")
    for expired, rated in ((True, True), (False, False)):
        match = make_match(
            alice,
            bob,
            rated=True,
            winner=alice,
            shots=[(bob, verdict(0, turn_passes=True))],
            scores=(31, 12),
            how="time_limit" if expired else "abandoned",
        )
        match.snapshot["clock"] = {"limit": 3900, "expired": expired}
        match.save(update_fields=["snapshot"])
        Shot.objects.create(
            match=match, seq=2, version=2, player=bob, player_name="Bob", kind="forfeit", input={}, snapshot_hash="-"
        )
        results_record(match=match)
        result = MatchResult.objects.get(match=match)
        assert (result.rated, result.unrated_reason) == (rated, "" if rated else "too_few_shots")


def test_rated_results_between_one_pair_count_three_times_a_day() -> None:
    alice, bob, carl = established("Alice", "Bob", "Carl")
    reasons = []
    for index in range(PAIR_DAILY_LIMIT + 2):
        winner, loser = (alice, bob) if index % 2 == 0 else (bob, alice)
        match = legitimate_match(winner, loser)
        results_record(match=match)
        reasons.append(MatchResult.objects.get(match=match).unrated_reason)
    assert reasons == ["", "", "", "pair_daily_limit", "pair_daily_limit"]
    assert Profile.objects.get(user=alice).rated_games == 3
    # Another pair is not affected.
    match = legitimate_match(alice, carl)
    results_record(match=match)
    assert MatchResult.objects.get(match=match).rated


def test_guests_and_unverified_accounts_play_unrated(settings) -> None:
    (alice,), guest = established("Alice"), make_player("Guest-1234", is_guest=True)
    match = legitimate_match(alice, guest)
    assert results_record(match=match) == []
    assert MatchResult.objects.get(match=match).unrated_reason == "guest"

    settings.ACCOUNT_EMAIL_VERIFICATION = "optional"
    (bob,) = established("Bob")
    match = legitimate_match(alice, bob)
    assert results_record(match=match) == []
    assert MatchResult.objects.get(match=match).unrated_reason == "unverified"
    EmailAddress.objects.create(user=alice, email="alice@example.org", verified=True, primary=True)
    EmailAddress.objects.create(user=bob, email="bob@example.org", verified=False, primary=True)
    match = legitimate_match(bob, alice)
    results_record(match=match)
    assert MatchResult.objects.get(match=match).unrated_reason == "unverified"
    EmailAddress.objects.filter(user=bob).update(verified=True)
    match = legitimate_match(alice, bob)
    assert len(results_record(match=match)) == 2 and MatchResult.objects.get(match=match).rated


def test_casual_and_aborted_results_say_why() -> None:
    alice, bob = make_player("Alice"), make_player("Bob")
    casual = legitimate_match(alice, bob)
    Match.objects.filter(pk=casual.pk).update(rated=False)
    casual.refresh_from_db()
    results_record(match=casual)
    aborted = make_match(alice, bob, rated=True, status=Match.Status.ABORTED)
    results_record(match=aborted)
    assert MatchResult.objects.get(match=casual).unrated_reason == "casual"
    assert MatchResult.objects.get(match=aborted).unrated_reason == "aborted"
    assert reason_text("aborted") == "the match was aborted"


def test_the_ratings_help_page_says_the_rules(client: Client) -> None:
    page = client.get("/ratings/")
    assert page.status_code == 200
    text = page.content.decode()
    for words in [
        "guests play casual games only",
        "at least 2 shots",
        f"at most {PAIR_DAILY_LIMIT} rated results",
        "confirmed their e-mail",
        "resigning or forfeiting before they have played 3 shots",
    ]:
        assert words in text, words
