"""The server answers in the language a client's Accept-Language header weighs highest
(core.messages.supported_lang; `en;q=0.1, de;q=0.9` was answered in English)."""


def test_a_refusal_is_said_in_the_language_the_header_weighs_highest(client):
    for header, german in (("en;q=0.1, de;q=0.9", True), ("de;q=0.1, en;q=0.9", False)):
        r = client.post("/api/tables", json={"game": "chess"}, headers={"accept-language": header})
        body = r.json()
        assert r.status_code == 400 and body["reason_code"], body
        assert (body["message"] != body["reason"]) is german, body  # `reason` is English
