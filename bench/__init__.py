"""Kaiza's benchmarks and diagnostics: the load client, the benchmark and bot commands, the scripts
that run them, and the server diagnostics. A checkout's tools, outside the product: the wheel leaves
this package out and the production server imports nothing of it (tests/bench/test_packaging.py).

`python manage.py <command>` finds the commands because manage.py runs with `bench.settings` (the
product's settings and this app); docs/benchmarks.md says how to run each and what it prints.
"""
