"""Django admin so a club organiser can fix things without a shell.

What an organiser needs: rename a club or change its policy, fix roles and memberships, correct a
player's name or flags, abort a stuck match or mark it for a club, and read (not forge) the rating
history. Engine state (snapshot, version, shots) is read-only here: it is the authority of a match and
only the services may change it, so an admin cannot desynchronise a match from its shots.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db import transaction
from django.db.models import BooleanField, Case, QuerySet, Value, When
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.urls import URLPattern, path
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from game.matches.services.results import results_record
from game.models import Club, Match, MatchResult, Membership, Profile, RatingChange, Shot, TeamSeat
from game.models.chat import ChatMessage, ChatReport
from game.models.puzzles import Puzzle
from game.models.tournaments import Tournament, TournamentEntry, TournamentPairing, TournamentResultFix, TournamentRound
from game.ratings.selectors import reason_text, resign_farm_suspects


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]
    fields = ["user", "role", "status", "created_at"]
    readonly_fields = ["created_at"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "join_policy", "member_count", "created_by", "created_at"]
    list_filter = ["join_policy"]
    search_fields = ["name", "slug", "description"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]
    autocomplete_fields = ["created_by"]

    @admin.display(description=_("members"))
    def member_count(self, club: Club) -> int:
        return club.memberships.filter(status=Membership.Status.ACTIVE).count()


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "role", "status", "created_at"]
    list_filter = ["role", "status", "club"]
    list_editable = ["role", "status"]
    search_fields = ["user__username", "user__profile__display_name", "club__name"]
    autocomplete_fields = ["user", "club"]


class ResignFarmFilter(admin.SimpleListFilter):
    """Accounts whose rated losses are all resignations before their third shot (rating farming:
    game/ratings/selectors.py). The results did not count; the accounts deserve a look."""

    title = _("resign farming")
    parameter_name = "resign_farm"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        return [("yes", gettext("Suspected"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Profile]) -> QuerySet[Profile]:
        if self.value() == "yes":
            return queryset.filter(user_id__in=list(resign_farm_suspects()))
        return queryset


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = [
        "display_name",
        "rounded_rating",
        "rounded_deviation",
        "rated_games",
        "games_played",
        "games_won",
        "games_lost",
        "best_break",
        "last_played_at",
        "is_guest",
        "is_bot",
        "farm_flag",
    ]
    list_filter = ["is_guest", "is_bot", ResignFarmFilter]
    search_fields = ["display_name", "user__username", "user__email"]
    autocomplete_fields = ["user"]
    readonly_fields = ["created_at"]
    fieldsets = [
        (None, {"fields": ["user", "display_name", "is_guest", "is_bot", "bot_level", "created_at"]}),
        (_("Rating (Glicko-2)"), {"fields": ["rating", "rating_deviation", "rating_volatility", "rated_games"]}),
        (_("Record"), {"fields": ["games_played", "games_won", "games_lost", "best_break", "last_played_at"]}),
    ]

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view(self.resign_farming_view)
        return [path("resign-farming/", view, name="game_profile_resign_farming"), *super().get_urls()]

    def resign_farming_view(self, request: HttpRequest) -> TemplateResponse:
        """Every flagged account with the players who won against it (the farm's beneficiaries)."""
        suspects = resign_farm_suspects()
        profiles = {p.user_id: p for p in Profile.objects.filter(user_id__in=list(suspects))}
        rows = [{"profile": profiles[uid], "winners": winners} for uid, winners in suspects.items() if uid in profiles]
        context = {
            **self.admin_site.each_context(request),
            "title": _("Resign farming"),
            "rows": rows,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/game/resign_farming.html", context)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Profile]:
        suspects = list(resign_farm_suspects())
        return (
            super()
            .get_queryset(request)
            .annotate(
                farm_suspect=Case(
                    When(user_id__in=suspects, then=Value(True)), default=Value(False), output_field=BooleanField()
                )
            )
        )

    @admin.display(description=_("resign farming"), boolean=True, ordering="farm_suspect")
    def farm_flag(self, profile: Profile) -> bool:
        return bool(getattr(profile, "farm_suspect", False))

    @admin.display(description=_("rating"), ordering="rating")
    def rounded_rating(self, profile: Profile) -> int:
        return round(profile.rating)

    @admin.display(description=_("RD"), ordering="rating_deviation")
    def rounded_deviation(self, profile: Profile) -> int:
        return round(profile.rating_deviation)


class ShotInline(admin.TabularInline):
    model = Shot
    extra = 0
    can_delete = False
    fields = ("seq", "version", "player_name", "kind", "points", "verdict_reason", "created_at")
    readonly_fields = ("seq", "version", "player_name", "kind", "points", "verdict_reason", "created_at")
    ordering = ["seq"]
    show_change_link = True

    @admin.display(description=_("verdict"))
    def verdict_reason(self, shot: Shot) -> str:
        return (shot.verdict or {}).get("reason", "") if isinstance(shot.verdict, dict) else ""

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.action(description=_("Abort the selected matches that are not finished (no result, no rating change)"))
def abort_matches(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Match]) -> None:
    """For a stuck match (players gone, a bug): each is locked, aborted and recorded like any other end,
    so it leaves the Watch page and nobody's rating moves. Connected browsers learn it on reconnect."""
    count = 0
    for match_id in queryset.filter(status__in=[Match.Status.OPEN, Match.Status.ACTIVE]).values_list("pk", flat=True):
        with transaction.atomic():
            match = Match.objects.select_for_update().get(pk=match_id)
            if match.status not in (Match.Status.OPEN, Match.Status.ACTIVE):
                continue
            match.status = Match.Status.ABORTED
            match.finished_at = timezone.now()
            match.result_reason = "aborted by an organiser"
            match.result_code = "aborted"
            match.next_deadline = None  # the server clocks leave it alone
            match.save(
                update_fields=["status", "finished_at", "result_reason", "result_code", "next_deadline", "updated_at"]
            )
            results_record(match=match)
            count += 1
    modeladmin.message_user(
        request, ngettext("Aborted %(count)d match.", "Aborted %(count)d matches.", count) % {"count": count}
    )


class TeamSeatInline(admin.TabularInline):
    """A team match's members, team and order: read here; changed only by the services,
    since the started match's snapshot holds the same line-up."""

    model = TeamSeat
    extra = 0
    can_delete = False
    fields = ["team", "order", "user", "joined_at"]
    readonly_fields = ["team", "order", "user", "joined_at"]
    ordering = ["team", "order"]

    def has_add_permission(self, request: HttpRequest, obj: Match | None = None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "player1",
        "player2",
        "team_size",
        "status",
        "rated",
        "club",
        "winner",
        "created_at",
        "finished_at",
    ]
    list_filter = ["status", "rated", "club", "team_size"]
    search_fields = ["id", "player1__profile__display_name", "player2__profile__display_name"]
    date_hierarchy = "created_at"
    autocomplete_fields = ["player1", "player2", "winner", "club", "created_by"]
    readonly_fields = ["id", "snapshot", "version", "created_at", "started_at", "updated_at"]
    inlines = [TeamSeatInline, ShotInline]
    actions = [abort_matches]


@admin.register(Shot)
class ShotAdmin(admin.ModelAdmin):
    list_display = ["match", "seq", "player_name", "kind", "points"]
    search_fields = ["match__id", "player_name"]
    readonly_fields = [f.name for f in Shot._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ["user", "match", "rating_before", "rating_after", "delta_display", "created_at"]
    search_fields = ["user__username", "user__profile__display_name", "match__id"]
    readonly_fields = [f.name for f in RatingChange._meta.fields]

    @admin.display(description=_("delta"))
    def delta_display(self, change: RatingChange) -> str:
        return f"{change.delta:+.1f}"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Puzzle)
class PuzzleAdmin(admin.ModelAdmin):
    """Puzzles are made from analyses (game/puzzles/services.py), never typed in: read-only but deletable."""

    list_display = ["id", "match", "shot_index", "target", "themes", "rating", "attempts", "solved_count"]
    readonly_fields = [f.name for f in Puzzle._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(MatchResult)
class MatchResultAdmin(admin.ModelAdmin):
    list_display = ["match", "rated", "unrated_why", "player1_best_break", "player2_best_break", "recorded_at"]
    list_filter = ["rated", "unrated_reason"]

    @admin.display(description=_("why not rated"))
    def unrated_why(self, result: MatchResult) -> str:
        return reason_text(result.unrated_reason) if result.unrated_reason else ""

    readonly_fields = [f.name for f in MatchResult._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


# --- Tournaments ----------------------------------------------------------------------------------
class TournamentEntryInline(admin.TabularInline):
    model = TournamentEntry
    extra = 0
    fields = ["name", "seed", "rating"]
    readonly_fields = ["rating"]


class TournamentRoundInline(admin.TabularInline):
    model = TournamentRound
    extra = 0
    fields = ["number", "status", "started_at", "finished_at"]
    readonly_fields = ["number", "started_at", "finished_at"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    """Results are fixed on the site (with a kept reason, game.tournaments.services); here an organiser
    renames, moves the start time, or cancels."""

    list_display = ["name", "club", "format", "kind", "status", "starts_at", "winner"]
    list_filter = ["format", "kind", "status"]
    search_fields = ["name", "club__name"]
    autocomplete_fields = ["club", "created_by"]
    readonly_fields = ["rounds_planned", "winner", "started_at", "finished_at", "created_at"]
    inlines = [TournamentEntryInline, TournamentRoundInline]


@admin.register(TournamentPairing)
class TournamentPairingAdmin(admin.ModelAdmin):
    list_display = ["__str__", "tournament", "round", "slot", "status", "how", "winner", "match"]
    list_filter = ["status", "how"]
    search_fields = ["tournament__name", "first__name", "second__name"]
    readonly_fields = [f.name for f in TournamentPairing._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(TournamentResultFix)
class TournamentResultFixAdmin(admin.ModelAdmin):
    """The kept reasons: read only, an audit."""

    list_display = ["pairing", "fixed_by", "reason", "created_at"]
    readonly_fields = ["pairing", "fixed_by", "reason", "before", "after", "created_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ChatReport)
class ChatReportAdmin(admin.ModelAdmin):
    """Reported chat messages: the message, who wrote it, who reported it. An admin reads and marks
    them resolved; the message itself is read-only (it is what was said)."""

    list_display = ["created_at", "message_author", "message_text", "reporter", "match_link", "resolved"]
    list_filter = ["resolved"]
    list_editable = ["resolved"]
    readonly_fields = ["message", "reporter", "created_at", "message_author", "message_text", "match_link"]
    list_select_related = ["message", "reporter"]

    @admin.display(description=_("author"))
    def message_author(self, obj: ChatReport) -> str:
        return obj.message.author_name

    @admin.display(description=_("text"))
    def message_text(self, obj: ChatReport) -> str:
        return obj.message.text or f"[{obj.message.phrase}]"

    @admin.display(description=_("match"))
    def match_link(self, obj: ChatReport) -> str:
        return obj.message.match_id

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ["created_at", "match", "channel", "author_name", "text", "phrase"]
    list_filter = ["channel"]
    search_fields = ["author_name", "text", "match__id"]
    readonly_fields = ["match", "channel", "author", "author_name", "text", "phrase", "created_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
