"""The language a client asks for: `?lang=`, else its Accept-Language header, by its weights."""

import pytest

from wasserspiele.core.messages import normalise_lang, supported_lang


@pytest.mark.parametrize("header, lang", [
    ("de", "de"), ("de-AT", "de"), ("en-GB", "en"),
    ("en;q=0.1, de;q=0.9", "de"),          # the weights decide, not the order (was: en)
    ("fr, de;q=0.3, en;q=0.2", "de"),       # the best supported one
    ("de;q=0.5, en", "en"),                 # no weight is 1
    ("de, en", "de"), ("en, de", "en"),     # equal weights: the header's order
    ("en-US,en;q=0.9,de;q=0.8", "en"),      # a browser's usual header
    ("de;q=0, en;q=0.1", "en"),             # q=0: not wanted
    ("de;q=0", None), ("fr", None), ("", None), (None, None),
    ("de;q=oops", "de"), ("de;q=nan, en;q=0.2", "en"),  # a weight that is no number
])
def test_the_language_an_accept_language_header_prefers(header, lang):
    assert supported_lang(header) == lang
    assert normalise_lang(header) == (lang or "en")

