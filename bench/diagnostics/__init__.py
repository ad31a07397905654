"""Diagnostics for a benchmark's server, started by `python -m bench.serve`, never by the product's."""
