"""The gate's checks one by one, on interactions as discord.py hands them
over (their message's components parsed), v2 layouts and selects included."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
from discord.components import _component_factory

from cogs.community_ids import BoardId, SettingsId
from cogs.gate import FORGED, GUILD_ONLY, OTHER_SERVER, STALE, Refused, admit
from cogs.ids import ButtonId

GUILD, OTHER, TABLE, ANNA, BRAM = 11, 22, 7, 100, 200
LIVE = {TABLE: GUILD}.get


def button(custom_id: str, disabled: bool = False) -> dict[str, Any]:
    return {"type": 2, "style": 2, "label": "x", "custom_id": custom_id, "disabled": disabled}


def select(custom_id: str, *values: str, most: int = 1) -> dict[str, Any]:
    return {"type": 3, "custom_id": custom_id, "max_values": most,
            "options": [{"label": v, "value": v} for v in values]}


def row(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(children)}


def click(custom_id: str, components: list[dict[str, Any]], *, values: Any = None,
          kind: int = 2, ephemeral: bool = False, owner: int | None = ANNA,
          guild: int | None = GUILD, user: int = ANNA) -> Any:
    parsed = [c for c in (_component_factory(d) for d in components)  # type: ignore[arg-type]
              if c is not None]
    meta = None if owner is None else SimpleNamespace(user=SimpleNamespace(id=owner))
    message = SimpleNamespace(components=parsed, interaction_metadata=meta,
                              flags=discord.MessageFlags(ephemeral=ephemeral))
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
    if values is not None:
        data["values"] = values
    return SimpleNamespace(guild_id=guild, data=data, message=message,
                           user=SimpleNamespace(id=user))


def refused(interaction: Any) -> str:
    verdict = admit(interaction, LIVE)
    assert isinstance(verdict, Refused), verdict
    return verdict.key


TABLE_ROW = row(button(f"toep:{TABLE}:join"), button(f"toep:{TABLE}:hand"))


def test_a_button_on_its_message_passes_parsed() -> None:
    assert admit(click(f"toep:{TABLE}:join", [TABLE_ROW]), LIVE) == ButtonId(TABLE, "join")


def test_a_button_in_a_v2_layout_is_found() -> None:
    layout = {"type": 17, "components": [
        {"type": 9, "components": [{"type": 10, "content": "hi"}],
         "accessory": button(f"toepboard:{GUILD}:10")},
        row(button(f"toep:{TABLE}:hand"))]}
    found = admit(click(f"toepboard:{GUILD}:10", [layout], ephemeral=True), LIVE)
    assert found == BoardId(GUILD, 10)
    assert admit(click(f"toep:{TABLE}:hand", [layout]), LIVE) == ButtonId(TABLE, "hand")


def test_an_id_not_on_the_message_is_forged() -> None:
    assert refused(click(f"toep:{TABLE}:start", [TABLE_ROW])) == FORGED
    assert refused(click("toepboard:11:0", [TABLE_ROW])) == FORGED
    assert refused(click("anything", [])) == FORGED


def test_a_button_the_message_shows_newer_is_a_moment_passed() -> None:
    panel = [row(button(f"toep:{TABLE}:pass:5"), button(f"toep:{TABLE}:play:10H:5"))]
    assert refused(click(f"toep:{TABLE}:pass:4", panel, ephemeral=True)) == STALE
    assert refused(click(f"toep:{TABLE}:fold:4", panel, ephemeral=True)) == STALE
    assert refused(click(f"toep:{TABLE + 1}:pass:4", panel, ephemeral=True)) == FORGED


def test_disabled_or_of_another_type_is_forged() -> None:
    greyed = [row(button(f"toep:{TABLE}:join", disabled=True))]
    assert refused(click(f"toep:{TABLE}:join", greyed)) == FORGED
    assert refused(click(f"toep:{TABLE}:join", [TABLE_ROW], kind=3)) == FORGED
    assert refused(click(f"toep:{TABLE}:join", [TABLE_ROW], values=["a"])) == FORGED


def test_a_select_takes_only_its_own_options() -> None:
    lang = f"toepset:{GUILD}:lang"
    message = [row(select(lang, "auto", "en", "nl"))]
    ok = admit(click(lang, message, values=["nl"], kind=3, ephemeral=True), LIVE)
    assert ok == SettingsId(GUILD, "lang")
    for values in (["de"], ["x" * 4000], [], ["en", "nl"], "nl", [1], None):
        assert refused(click(lang, message, values=values, kind=3, ephemeral=True)) == FORGED


def test_only_from_a_server_and_only_that_servers() -> None:
    assert refused(click(f"toep:{TABLE}:join", [TABLE_ROW], guild=None)) == GUILD_ONLY
    assert refused(click(f"toep:{TABLE}:join", [TABLE_ROW], guild=OTHER)) == OTHER_SERVER
    board = [row(button(f"toepboard:{GUILD}:0"))]
    assert refused(click(f"toepboard:{GUILD}:0", board, ephemeral=True,
                         guild=OTHER)) == OTHER_SERVER
    # A table that is no longer live: its handlers change nothing anywhere.
    gone = [row(button("toep:99:again"))]
    assert admit(click("toep:99:again", gone, guild=OTHER), LIVE) == ButtonId(99, "again")


def test_what_rewrites_its_message_runs_only_on_the_clickers_own() -> None:
    stay = f"toep:{TABLE}:stay"
    question = [row(button(stay), button(f"toep:{TABLE}:walkout"))]
    assert admit(click(stay, question, ephemeral=True), LIVE) == ButtonId(TABLE, "stay")
    assert refused(click(stay, question)) == FORGED  # a public message
    assert refused(click(stay, question, ephemeral=True, owner=BRAM)) == FORGED
    board = [row(button(f"toepboard:{GUILD}:0"))]
    assert refused(click(f"toepboard:{GUILD}:0", board)) == FORGED
    # Table buttons work on the public table message: they only acknowledge it.
    assert admit(click(f"toep:{TABLE}:hand", [TABLE_ROW]), LIVE) == ButtonId(TABLE, "hand")


def test_a_payload_without_an_id_or_a_message_is_forged() -> None:
    interaction = click(f"toep:{TABLE}:join", [TABLE_ROW])
    interaction.data = {"custom_id": 5}
    assert refused(interaction) == FORGED
    interaction = click(f"toep:{TABLE}:join", [TABLE_ROW])
    interaction.message = None
    assert refused(interaction) == FORGED
