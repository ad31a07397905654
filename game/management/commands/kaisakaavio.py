"""`python manage.py kaisakaavio replay FILE`: Kaiza's double-loss draw measured against a KaisaKaavio
event file (issue 28, a benchmark like `loadtest`).

Before each of the file's games Kaiza draws the next game from the file's games so far (every result
in), prints the round, the file's two players and `same` or `differs` (with what Kaiza drew), then
goes on from the file's game and its result. The last line is `draw agreement: A/B games`. Subcommands
`import` and `export` (a club's event in the database) come with the event models.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from game.tournaments.kaisakaavio import KaavioError, parse, replay
from game.tournaments.pairing.double_loss import DrawError


class Command(BaseCommand):
    help = "KaisaKaavio event files: replay FILE re-draws the event with Kaiza's draw and compares."

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True)
        replay_parser = actions.add_parser("replay", help="re-draw FILE's event and compare game by game")
        replay_parser.add_argument("file", type=Path)

    def handle(self, *args: object, **options: object) -> None:
        path = options["file"]
        assert isinstance(path, Path)
        try:
            kaavio = parse(path.read_bytes())
            lines = replay(kaavio)
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror}") from error
        except (KaavioError, DrawError) as error:
            raise CommandError(f"{path}: {error.reason}") from error
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
