"""The Kaisa engine: table, balls, physics and rules in pure Python.

Nothing here may import Django, Channels or asyncio (tests/engine/test_purity.py enforces it), so the
engine runs the same in a web process, a worker, a benchmark or a notebook.
"""
