"""A refusal that names another refusal reaches the browser as codes, not as English.

The server words a nested Reason in the reader's language (messages._Formatter); the page
renders refusals itself from `{reason_code, params}` (web/static/messages.js), so the
inner refusal must travel as `{code, params}` too, or a German page would show German
words around an English sentence.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from wasserspiele.bots.specs import check_spec, parse_bot_spec
from wasserspiele.core.errors import BadOption, BadRecord
from wasserspiele.core.messages import LANGS, Reason, catalogue
from wasserspiele.core.records import parse_record
from wasserspiele.core.registry import load
from wasserspiele.web.hub import Refused

SRC = Path(__file__).resolve().parent.parent / "src" / "wasserspiele"


def _record_refusal() -> Reason:
    """A record whose options do not load: `record.field` around the option's own refusal."""
    with pytest.raises(BadRecord) as caught:
        parse_record({"game": "wasserloch", "options": {"rounds": "abc"}, "players": 3, "actions": []})
    reason = caught.value.reason
    assert reason.code == "record.field" and isinstance(reason.params["problem"], Reason)
    return reason


def _bot_spec_refusal() -> Reason:
    """An unknown bot: `bot.spec` around `bot.unknown_or_level`."""
    with pytest.raises(BadOption) as caught:
        check_spec(parse_bot_spec("nosuchbot"), load("wasserloch"))
    reason = caught.value.reason
    assert reason.code == "bot.spec" and isinstance(reason.params["problem"], Reason)
    return reason


def _nested_refusals() -> list[Reason]:
    record, spec = _record_refusal(), _bot_spec_refusal()
    return [record, spec, Reason("record.field", field="bots", problem=spec)]  # two levels deep


def test_reason_json_nests_an_inner_refusal_as_code_and_params():
    record = _record_refusal()
    inner = record.params["problem"]
    assert record.to_json() == {"code": "record.field",
                                "params": {"field": "options",
                                           "problem": {"code": inner.code, "params": dict(inner.params)}}}
    deep = Reason("record.field", field="bots", problem=_bot_spec_refusal())
    assert deep.to_json()["params"]["problem"]["params"]["problem"]["code"] == "bot.unknown_or_level"
    # a flat reason keeps its params as they are
    flat = Reason("wasserloch.holds_only", seat=0, value="A", n=2)
    assert flat.to_json() == {"code": "wasserloch.holds_only", "params": {"seat": 0, "value": "A", "n": 2}}


def test_refusal_payload_sends_the_nested_reason_as_codes():
    """hub.Refused.to_json is what every HTTP and WebSocket refusal sends (app.py)."""
    record = _record_refusal()
    payload = Refused("bad_record", record).to_json("de")
    assert payload["reason_code"] == "record.field"
    assert payload["params"] == record.to_json()["params"]
    assert payload["params"]["problem"]["code"] == record.params["problem"].code
    assert payload["reason"] == str(record) and payload["message"] == record.render("de")
    json.dumps(payload)  # what the socket and the HTTP body write


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run web/static/messages.js")
def test_nested_refusal_renders_in_the_browser_as_on_the_server(tmp_path):
    """messages.js, given a refusal payload as the server sends it, says the outer and the
    inner refusal in the page's language: the words of the server's `message`."""
    module = tmp_path / "messages.mjs"  # as an ES module whatever node's default
    module.write_text((SRC / "web" / "static" / "messages.js").read_text(encoding="utf-8"), encoding="utf-8")
    reasons = _nested_refusals()
    payloads = {lang: [Refused("bad_request", r).to_json(lang) for r in reasons] for lang in LANGS}
    script = ("const { Catalogue } = await import(process.argv[1]);"
              "const input = JSON.parse((await import('node:fs')).default.readFileSync(0, 'utf8'));"
              "const out = {};"
              "for (const [lang, cat] of Object.entries(input.cats)) {"
              "  const c = new Catalogue(cat);"
              "  out[lang] = input.payloads[lang].map((p) => c.render(p.reason_code, p.params));"
              "}"
              "console.log(JSON.stringify(out));")
    stdin = json.dumps({"cats": {lang: catalogue(lang).to_json() for lang in LANGS}, "payloads": payloads})
    done = subprocess.run(["node", "--input-type=module", "-e", script, module.as_uri()], input=stdin,
                          capture_output=True, text=True, timeout=60, check=True)
    got = json.loads(done.stdout)
    for lang in LANGS:
        assert got[lang] == [r.render(lang) for r in reasons]
        assert got[lang] == [p["message"] for p in payloads[lang]]
    # the German page says the inner refusal in German, not in the English a Reason is as a str
    assert all(str(r.params["problem"]) not in text for r, text in zip(reasons, got["de"]))
