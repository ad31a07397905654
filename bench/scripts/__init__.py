"""The benchmark scripts, each run as a file (`.venv/bin/python bench/scripts/<name>.py`, its docstring
says how); a package so that one may import another's helpers."""
