"""`python manage.py kaisakaavio replay FILE`: Kaiza's double-loss draw measured against a KaisaKaavio
event file (issue 28, a benchmark like `loadtest`).

Before each of the file's games Kaiza draws the next game from the file's games so far (every result
in), prints the round, the file's two players and `same` or `differs` (with what Kaiza drew), then
goes on from the file's game and its result. The last line is `draw agreement: A/B games`.

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
from game.tournaments.kaisakaavio import parse, replay
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
            lines = replay(kaavio)
        except OSError as error:
            raise refused(f"cannot read {path}: {error.strerror}") from error
        except TournamentError as error:
            raise refused(f"{path}: {error.words(gettext)}") from error
        except DrawError as error:
            raise refused(f"{path}: {error.reason}") from error
        names = {p.id: p.name or str(p.id) for p in kaavio.participants}
        for line in lines:
            first, second = (names[i] for i in line.file_pair)
            verdict = "same"
            if not line.same:
                drawn = "nothing" if line.drawn is None else " v ".join(names[i] for i in line.drawn)
                verdict = f"differs (Kaiza drew {drawn}, round {line.drawn_round})"
            self.stdout.write(f"{line.number:>4}  round {line.round:>2}  {first} v {second}  {verdict}")
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
