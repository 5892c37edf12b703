"""`python -m wasserspiele …` is the `wasserspiele` command (for a venv whose scripts
folder is not on PATH, or to pick the interpreter)."""

from .cli.main import main

main(prog_name="wasserspiele")
