"""Django admin so a club organiser can fix things without a shell."""
