"""`python -m wasserspiele …` is the `wasserspiele` command (for a venv whose scripts
folder is not on PATH, or to pick the interpreter)."""

from .cli.main import main

if __name__ == "__main__":  # not when a spawned worker (the server's bots) imports this module
    main(prog_name="wasserspiele")
