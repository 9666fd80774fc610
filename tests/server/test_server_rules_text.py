"""``GET /api/rules`` and ``GET /api/rules/{preset}``: the terminal's rules in words, in the
page's language, with a room's changed options replacing the preset's sentences (issue 40)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from liarsdice.families import FAMILIES, family_of
from liarsdice.i18n import using
from server_util import client, create


def rules_of(c: Any, preset: str, lang: str, options: dict[str, Any] | str) -> Any:
    text = options if isinstance(options, str) else json.dumps(options)
    return c.get(f"/api/rules/{preset}", params={"lang": lang, "options": text})


def test_every_preset_in_each_language(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        for lang in ("en", "es"):
            body = c.get("/api/rules", params={"lang": lang}).json()
            assert body["lang"] == lang
            assert list(body["presets"]) == [n for f in FAMILIES for n in f.presets]
            for name, said in body["presets"].items():
                family = family_of(name)
                with using(lang):
                    assert said == family.rules_text(family.presets[name])
                assert said["changed"] == {} and said["rules"] and said["description"]
        english = c.get("/api/rules").json()["presets"]["classic"]  # English by default
        assert english["rules"][0].startswith("Every player starts with 5 dice")
        spanish = c.get("/api/rules?lang=es").json()["presets"]["classic"]
        assert spanish["rules"][0].startswith("Cada jugador empieza con 5 dados")


def test_a_rooms_options_replace_the_presets_sentences(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        room = create(c, "ann", "classic", options={"dice": "3", "wild": "none"})
        options = c.get(f"/api/rooms/{room['room']}").json()["data"]["room"]["options"]
        for lang, says, unsaid in [
            ("en", ["starts with 3 dice", "No face is wild."], ["5 dice", "are wild"]),
            ("es", ["empieza con 3 dados", "Ninguna cara es comodín."], ["5 dados", "comodines:"]),
        ]:
            r = rules_of(c, "classic", lang, options)
            assert r.status_code == 200, r.text
            body = r.json()
            assert body["changed"] == {"dice": 3, "wild": None}
            said = "\n".join(body["rules"])
            assert all(s in said for s in says) and not any(u in said for u in unsaid), said
            assert "dice=3" in body["description"] and "wild=none" in body["description"]
        poker = rules_of(c, "poker-dice", "es", {"lives": 2}).json()
        assert "Todos tienen 2 vidas; gana el último jugador" in "\n".join(poker["rules"])


def test_refusals_say_what_is_wrong(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        for url, params, status, code, said in [
            ("/api/rules", {"lang": "fr"}, 400, "bad_language", "unknown language 'fr'"),
            ("/api/rules/chess", {"lang": "es"}, 404, "unknown_preset", "reglas desconocidas"),
            ("/api/rules/chess", {}, 404, "unknown_preset", "unknown rules 'chess'"),
            ("/api/rules/classic", {"options": "{"}, 400, "bad_options", "not JSON"),
            ("/api/rules/classic", {"options": "[1]"}, 400, "bad_options", "JSON object"),
            ("/api/rules/classic", {"options": "x" * 3000}, 400, "bad_options", "too long"),
            (
                "/api/rules/classic",
                {"lang": "es", "options": '{"dice": "x"}'},
                400,
                "bad_options",
                "la opción dice admite un número entero",
            ),
            (
                "/api/rules/poker-dice",
                {"lang": "es", "options": '{"lives": 0}'},
                400,
                "bad_options",
                "lives tiene que ser de 1 a 99, no 0",
            ),
        ]:
            r = c.get(url, params=params)
            assert r.status_code == status, (url, params, r.text)
            error = r.json()["data"]
            assert error["code"] == code and said in error["message"], error
