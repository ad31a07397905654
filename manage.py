#!/usr/bin/env python
"""Django's command-line entry point for Kaiza."""

import os
import sys


def main() -> None:
    # A checkout's settings: the product's plus the benchmarks' commands (bench/settings.py).
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
