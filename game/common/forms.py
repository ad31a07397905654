"""What every form view shares: a service's refusal said on the form's fields (a ValidationError on
the field, or on the whole form when the field is not one of its own), so the page shows the reason
where the person typed and nothing was stored; and the field of a whole number a person types."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from game.common.numbers import NotAWholeNumber, shown, whole_number


def form_errors_add(form: forms.Form, error: ValidationError) -> None:
    """Puts each message of ``error`` on its field of ``form``, or on the form as a whole."""
    if hasattr(error, "error_dict"):
        for field, messages in error.message_dict.items():
            for message in messages:
                form.add_error(field if field in form.fields else None, message)
    else:
        for message in error.messages:
            form.add_error(None, message)


class WholeNumberField(forms.IntegerField):
    """A form's whole number, read as every number a person types is (game.common.numbers): the digits
    0 to 9 only, where Django's `IntegerField` reads '٣' as 3 through `int()`. The range stays the
    field's (`min_value`, `max_value`) or the form's to check; a refusal quotes what was typed and says
    the rule in the reader's language."""

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        try:
            return whole_number(str(value))
        except NotAWholeNumber as refused:
            words = gettext("%(value)s is refused: %(rule)s")
            raise ValidationError(
                words % {"value": shown(refused.text), "rule": refused.rule_words()}, code="invalid"
            ) from None
