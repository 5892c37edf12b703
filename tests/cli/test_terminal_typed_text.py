"""Text the terminal quotes back — what the player typed, the path of a save — is shown as
it was written.  Rich read it as markup: `[/red]` or `[/]` typed as a move ended the game
with a traceback (MarkupError), `[red]hello` was quoted as 'hello', and a save at
`[red]game.json` was announced as `game.json`, with a resume command for a file that
does not exist."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("game, seats, typed", [
    ("seven_waters", "human,random", "[/red]"),
    ("watten", "human,random,random,random", "trump [/]"),
    ("wasserloch", "human,random", "[/b]"),
    ("wildwasser", "human,random,random", "pick [/bold]"),
])
def test_a_closing_tag_typed_as_a_move_is_refused_quoting_it_not_a_traceback(run, game, seats, typed):
    result = run("play", game, "--seats", seats, "--seed", "1", input=f"{typed}\nquit\n")  # raises a traceback
    assert result.exit_code == 0, result.output
    assert f"'{typed}'" in " ".join(result.output.split())


@pytest.mark.parametrize("lang, said", [("en", "not understood: '[red]hello':"),
                                        ("de", "nicht verstanden: „[red]hello“:")])
def test_typed_markup_is_quoted_as_typed(run, lang, said):
    result = run("play", "seven_waters", "--seats", "human,random", "--seed", "1", "--lang", lang,
                 input="[red]hello\n:x: hello\nquit\n")
    text = " ".join(result.output.split())
    assert said in text, text[-600:]
    assert ":x: hello" in text  # not an emoji


def test_a_save_s_path_with_brackets_is_announced_as_it_is(run, tmp_path):
    save = tmp_path / "[red]game.json"
    result = run("play", "wasserloch", "--seats", "human,random", "--seed", "1", "--save", str(save),
                 input="quit\n")
    assert result.exit_code == 0, result.output
    assert save.exists()
    text = "".join(result.output.split())  # the terminal wraps the long line anywhere
    assert f"gamesavedto{save}".replace(" ", "") in text, result.output
    odd = tmp_path / "[/x]"
    odd.mkdir(parents=True)  # the folder `[` and in it `x]`
    other = run("play", "wasserloch", "--seats", "human,random", "--seed", "1", "--save", str(odd / "g.json"),
                input="quit\n")
    assert other.exit_code == 0 and str(odd / "g.json") in "".join(other.output.split())
