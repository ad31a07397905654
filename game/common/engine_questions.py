"""A person's question to the engine over HTTP: "Ask the engine" on the practice table and a replay's
engine shot, the two pages whose answer a person waits for (`Urgency.QUESTION`).

Both go through one admission, :func:`game.common.engine_pool.ask_engine` (one question in flight per
person and per address, a bounded queue), and a refusal is said here once, in the reader's language,
with its HTTP status: 409 while the same person or address waits for an answer, 503 with how many are
ahead when the queue is full.

Such a refusal is the admission doing its work, not news for the operator: under a flood of questions
Django logged every one (a warning per 409, an error per 503: ``django.request``), one line a request.
:func:`refusal_response` logs it at debug level instead, through Django's own ``log_response``, which
marks the response so the handler does not log it again. What is not normal operation keeps its line:
an answer that did not come in time, a worker that died (the views log a warning), a bad question (400).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.http import HttpRequest, HttpResponse
from django.utils.log import log_response
from django.utils.translation import gettext, ngettext

from game.common.engine_pool import EngineBusy, QuestionPending, ask_engine
from game.common.ratelimit import ADDRESS_KEY

T = TypeVar("T")
R = TypeVar("R", bound=HttpResponse)


@dataclass
class QuestionRefused(Exception):
    """A question refused at once: its `code` (``question_pending``, ``engine_busy``), HTTP `status`
    and `message` in the active language; `extra` what the page may show besides (``ahead``)."""

    code: str
    status: int
    message: str
    extra: dict[str, Any] = field(default_factory=dict)


def busy_words() -> str:
    """An engine that could not answer in time, in the reader's language."""
    return gettext("The engine is busy: ask again in a moment.")


async def engine_question(
    function: Callable[..., T], *args: Any, askers: Iterable[str], timeout: float, **kwargs: Any
) -> T:
    """``function(*args, **kwargs)`` asked by ``askers`` (game.common.ratelimit.asker_keys: the person,
    the address), admitted by ``ask_engine``; :class:`QuestionRefused` when it is refused at once.
    ``TimeoutError`` and ``BrokenProcessPool`` pass through: they are failures, the caller's to log."""
    try:
        return await ask_engine(function, *args, askers=askers, timeout=timeout, **kwargs)
    except QuestionPending as pending:
        if pending.asker.startswith(ADDRESS_KEY):
            said = gettext("Someone on the same internet connection is asking the engine: ask again in a moment.")
        else:
            said = gettext("Your last question is still being answered: one at a time, please.")
        raise QuestionRefused("question_pending", 409, said) from None
    except EngineBusy as busy:
        said = ngettext(
            "The engine is busy: %(ahead)d question is ahead of yours. Ask again in a moment.",
            "The engine is busy: %(ahead)d questions are ahead of yours. Ask again in a moment.",
            busy.ahead,
        ) % {"ahead": busy.ahead}
        raise QuestionRefused("engine_busy", 503, said, {"ahead": busy.ahead}) from None


def refusal_response(request: HttpRequest, response: R) -> R:
    """``response``, a refusal that is normal operation (a question refused at once, a limit per minute
    reached), logged at debug level rather than as Django's warning or error (see the module docstring)."""
    log_response(
        "%s: %s (refused as asked)",
        response.reason_phrase,
        request.path,
        response=response,
        request=request,
        level="debug",
    )
    return response
