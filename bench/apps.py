"""The benchmarks as a Django app: its only part is management/commands (no models, no wiring)."""

from __future__ import annotations

from django.apps import AppConfig


class BenchConfig(AppConfig):
    name = "bench"
    verbose_name = "Kaiza benchmarks"
