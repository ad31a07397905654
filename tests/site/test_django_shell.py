"""The page tests' Django snippets (tests.support.django_shell): one process per server environment
that behaves, snippet after snippet, as a fresh `python -c` on that database did."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support import django_shell
from tests.support.daphne import server_env


@pytest.fixture
def shell_env(_sqlite_template: Path, tmp_path: Path) -> dict[str, str]:
    path = tmp_path / "db.sqlite3"
    shutil.copyfile(_sqlite_template, path)
    return server_env(SQLITE_PATH=str(path))


def test_snippets_share_the_database_not_their_names(shell_env: dict[str, str]) -> None:
    try:
        made = django_shell.django_run(
            shell_env,
            "from django.contrib.auth.models import User\nleftover = 1\n"
            "result = User.objects.create_user('snippet-user').pk",
        )
        assert django_shell.django_run(
            shell_env, "from django.contrib.auth.models import User\nresult = [u.pk for u in User.objects.all()]"
        ) == [made]
        assert django_shell.django_run(shell_env, "result = 'leftover' in globals()") is False
        processes = {shell.process.pid for shell in django_shell._shells.values()}
        assert len(processes) == 1, "one process for the environment"
        # The factories are imported on request only.
        assert django_shell.django_run(shell_env, "result = 'seed_demo' in globals()") is False
        assert django_shell.django_run(shell_env, "result = 'seed_demo' in globals()", factories=True) is True
    finally:
        django_shell.close_all()


def test_a_failing_snippet_says_why_and_the_shell_goes_on(shell_env: dict[str, str]) -> None:
    try:
        with pytest.raises(AssertionError, match="ZeroDivisionError"):
            django_shell.django_run(shell_env, "result = 1 / 0")
        with pytest.raises(AssertionError, match="KeyError: 'result'"):
            django_shell.django_run(shell_env, "print('no result set')")
        assert django_shell.django_run(shell_env, "result = 6 * 7") == 42
        (shell,) = django_shell._shells.values()
    finally:
        django_shell.close_all()
    assert shell.process.poll() is not None, "close_all ends the process"
    assert django_shell._shells == {}
