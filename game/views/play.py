"""Accounts, lobby and match pages."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
