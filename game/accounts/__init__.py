"""Accounts: django-allauth's adapter and the sign-up form."""
