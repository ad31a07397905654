"""What every form view does with a service's refusal: a ValidationError said on the form's fields
(or on the whole form when the field is not one of its own), so the page shows the reason where the
person typed and nothing was stored."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError


def form_errors_add(form: forms.Form, error: ValidationError) -> None:
    """Puts each message of ``error`` on its field of ``form``, or on the form as a whole."""
    if hasattr(error, "error_dict"):
        for field, messages in error.message_dict.items():
            for message in messages:
                form.add_error(field if field in form.fields else None, message)
    else:
        for message in error.messages:
            form.add_error(None, message)
