"""A refused move through Discord, in each person's language: the engine's
refusal in their words, with the rule and the /toep rules topic that explains it."""

from __future__ import annotations

from pathlib import Path

from cogs.i18n import t
from engine.game import Phase
from tests.e2e.toep_world import open_private_table, open_world, reply, start


async def test_a_refusal_names_its_rule_and_topic_in_each_language(tmp_path: Path) -> None:
    async with open_world(tmp_path) as world:
        world.people["bram"].locale = "nl"
        table = await open_private_table(world, guests=("bram",))
        await start(world)
        game = table.game
        assert game is not None and game.phase is Phase.WINDOW
        for who, seat, lang in (("anna", 0, "en"), ("bram", 1, "nl")):
            card = game.hands[seat][0]
            # A card played in the vuile was window (a forged click): refused (R4).
            res = await world.forge_click(
                who, f"toep:{table.id}:play:{card.text}:{table.stamp}")
            reason = t(lang, "err.wrong_moment", do=t(lang, "do.play"),
                       moment=t(lang, "moment.window"))
            command = f"/{t(lang, 'cmd.toep.name')} {t(lang, 'cmd.toep.rules.name')}"
            assert reply(res) == t(lang, "err.with_rule_topic", text=reason, rule="R4",
                                   command=command, topic=t(lang, "choice.tricks"))
        assert game.events == []  # nothing changed
