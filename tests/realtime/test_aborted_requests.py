"""A client that leaves before its answer (a page navigating on while its scripts load) leaves no
traceback in the server's log (kaiza_site.server.daphne_server.quiet_aborted_requests): the clean server log of every
browser test depends on it, and a production log would fill with them. The report is asyncio's, made
where nobody reads the listener task's end; this test sends it through the loop's handler as asyncio
does. (Two hundred requests whose clients reset the connection at once did not make daphne cancel one
mid-request here, so no server test reproduces the race; a browser test's log showed it once.)"""

from __future__ import annotations

import asyncio
import logging

import pytest
from django.core.exceptions import RequestAborted

from kaiza_site.server.daphne_server import quiet_aborted_requests


def test_a_request_its_client_left_is_no_error_but_other_reports_are(caplog: pytest.LogCaptureFixture) -> None:
    loop = asyncio.new_event_loop()
    try:
        quiet_aborted_requests(loop)
        with caplog.at_level(logging.DEBUG):
            never_read = "Task exception was never retrieved"
            loop.call_exception_handler({"message": never_read, "exception": RequestAborted()})
            assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
            loop.call_exception_handler({"message": never_read, "exception": ValueError("x")})
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(errors) == 1 and "never retrieved" in errors[0].getMessage(), errors
    finally:
        loop.close()
