"""`python manage.py kaisakaavio replay FILE`: Kaiza's double-loss draw measured against a KaisaKaavio
event file (a benchmark like `loadtest`).

Kaiza draws the file's event with the file's results, taken one at a time as the program's own
replay takes them (game/tournaments/kaisakaavio.py, `replay`), and lists its games in the program's
order. Each place of the file's list is printed with its round and two players and `same` or
`differs` (with Kaiza's game at that place); the last line is `draw agreement: A/B games`, B being
the longer of the two lists, so full agreement is the same games in the same order.

`import FILE --club SLUG [--tables N]` makes the file's event an event of the club played at the club
(participants as walk-ins, every game and result, the settings Kaiza has a home for;
game/tournaments/services/kaavio.py), prints the file's fields it did not keep and the event's
page; `export EVENT_ID FILE` writes a drawn event in the same format. A refused file stores nothing:
the command prints the reason (the same words as the upload page, in the site's language) and exits
with status 2, as for a bad argument.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation
from django.utils.translation import gettext

from game.models import Club
from game.models.tournaments import Tournament, TournamentEntry, TournamentPairing
from game.tournaments.draw_words import draw_refusal
from game.tournaments.kaisakaavio import REPLAY_ORDERS, parse, replay
from game.tournaments.pairing.double_loss import DrawError
from game.tournaments.services.base import TournamentError
from game.tournaments.services.kaavio import DEFAULT_TABLES, MOST_BYTES, kaavio_export, kaavio_import
from game.tournaments.values import number_of

#: The exit status of a refusal (a file, an argument): argparse's for a bad argument.
REFUSED = 2


def refused(message: str) -> CommandError:
    return CommandError(message, returncode=REFUSED)


class Command(BaseCommand):
    help = "KaisaKaavio event files: replay FILE compares the draw; import FILE --club SLUG; export EVENT_ID FILE."

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True)
        replay_parser = actions.add_parser("replay", help="re-draw FILE's event and compare game by game")
        replay_parser.add_argument("file", type=Path)
        replay_parser.add_argument(
            "--order",
            choices=REPLAY_ORDERS,
            default="times",
            help="the results by each game's end time, Paattyi (the default), or in the file's order",
        )
        import_parser = actions.add_parser("import", help="create a club's event from FILE")
        import_parser.add_argument("file", type=Path)
        import_parser.add_argument("--club", required=True, help="the club's slug")
        import_parser.add_argument("--tables", default=str(DEFAULT_TABLES), help="tables at the club")
        export_parser = actions.add_parser("export", help="write the event EVENT_ID to FILE")
        export_parser.add_argument("event_id", type=int)
        export_parser.add_argument("file", type=Path)

    def handle(self, *args: object, **options: object) -> None:
        with translation.override(settings.LANGUAGE_CODE):  # the site's language, whatever ran before
            self._handle(options)

    def _handle(self, options: dict[str, object]) -> None:
        path = options["file"]
        assert isinstance(path, Path)
        if options["action"] == "import":
            try:
                tables = number_of(str(options["tables"]), field="--tables") or 0
            except TournamentError as error:
                raise refused(error.words(gettext)) from error
            self._import(path, str(options["club"]), tables)
            return
        if options["action"] == "export":
            self._export(int(str(options["event_id"])), path)
            return
        try:
            kaavio = parse(path.read_bytes())
            names = {p.id: p.name or str(p.id) for p in kaavio.participants}
            lines = replay(kaavio, str(options.get("order") or "times"))
        except OSError as error:
            raise refused(f"cannot read {path}: {error.strerror}") from error
        except TournamentError as error:
            raise refused(f"{path}: {error.words(gettext)}") from error
        except DrawError as error:
            raise refused(f"{path}: {draw_refusal(error, names=names).words(gettext)}") from error

        def words(game: tuple[int, int, int]) -> str:
            return f"round {game[0]:>2}  {names.get(game[1], '?')} v {names.get(game[2], '?')}"

        for line in lines:
            if line.file_game is None:
                assert line.drawn is not None
                self.stdout.write(f"{line.number:>4}  (not in the file)  Kaiza drew {words(line.drawn)}")
                continue
            verdict = "same"
            if not line.same:
                verdict = "differs (Kaiza: " + ("nothing" if line.drawn is None else words(line.drawn)) + ")"
            self.stdout.write(f"{line.number:>4}  {words(line.file_game)}  {verdict}")
        agreed = sum(1 for line in lines if line.same)
        self.stdout.write(f"draw agreement: {agreed}/{len(lines)} games")

    def _import(self, path: Path, slug: str, tables: int) -> None:
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            raise refused(f"there is no club {slug!r}")
        try:
            with path.open("rb") as file:
                data = file.read(MOST_BYTES + 1)  # a larger file is refused unread, as an upload is
            imported = kaavio_import(user=None, club=club, data=data, tables=tables)
        except OSError as error:
            raise refused(f"cannot read {path}: {error.strerror}") from error
        except TournamentError as error:
            there = error.parts[0][1].get("url") if error.code == "already_imported" else None
            raise refused(f"{path}: {error.words(gettext)}" + (f" ({there})" if there else "")) from error
        tournament = imported.tournament
        entries = TournamentEntry.objects.filter(tournament=tournament).count()
        games = TournamentPairing.objects.filter(tournament=tournament).count()
        self.stdout.write(f"imported {tournament.name!r}: {entries} participants, {games} games")
        if imported.ignored:
            self.stdout.write(f"not kept (Kaiza has no place for them): {', '.join(imported.ignored)}")
        else:
            self.stdout.write("every field of the file is kept")
        self.stdout.write(f"/tournaments/{tournament.pk}/")

    def _export(self, event_id: int, path: Path) -> None:
        tournament = Tournament.objects.filter(pk=event_id).first()
        if tournament is None:
            raise CommandError(f"there is no event {event_id}")
        try:
            text = kaavio_export(tournament=tournament)
            path.write_text(text, encoding="utf-8")
        except TournamentError as error:
            raise CommandError(error.message) from error
        except OSError as error:
            raise CommandError(f"cannot write {path}: {error.strerror}") from error
        self.stdout.write(f"wrote {path}")
