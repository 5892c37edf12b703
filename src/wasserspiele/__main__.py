"""`python -m wasserspiele …` is the `wasserspiele` command (for a venv whose scripts
folder is not on PATH, or to pick the interpreter)."""

from .cli.entry import main  # as the installed command: a Ctrl-C while it loads is said, not a traceback

if __name__ == "__main__":  # not when a spawned worker (the server's bots) imports this module
    main(prog_name="wasserspiele")
