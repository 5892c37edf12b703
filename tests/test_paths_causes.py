"""core/paths.py: why a write failed, in the reader's language."""

import pytest

from wasserspiele.core.messages import render
from wasserspiele.core.paths import WriteFailed, write_file


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_file_where_the_save_s_folder_was_is_said_so_not_as_the_system_s_words(tmp_path, lang):
    """A game saving to `sd/x.json` after `sd` was removed and a file made in its place:
    mkdir(exist_ok=True) raises FileExistsError, which was shown as "(File exists)"."""
    folder = tmp_path / "sd"
    folder.write_text("notes")
    with pytest.raises(WriteFailed) as caught:
        write_file(folder / "x.json", "{}")
    said = caught.value.render(lang)
    assert render("cli.path.cause.not_a_folder", {}, lang) in said
    assert "File exists" not in said and str(folder) in said
    assert folder.read_text() == "notes"  # the file is left as it was
