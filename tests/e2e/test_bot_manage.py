"""Finding and managing a table end to end, in English and in Dutch:
`/toep table`, the turn ping's link, invites mentioned once and listed,
withdrawn invites, house rules changed before the start, "leave the game?"
before a forfeit, and "play again" after a game."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from cogs.i18n import t
from cogs.render_bans import nth
from cogs.replies import refusal_text
from data import bans, games
from engine.game import Phase
from tables.errors import Refusal
from tables.snapshot import Status
from tests.e2e.fake_discord.models import Message
from tests.e2e.toep_world import (
    World,
    careful,
    open_private_table,
    open_world,
    ping_always,
    reply,
    start,
)

LANGS = pytest.mark.parametrize(("locale", "lang"), [("en-US", "en"), ("nl", "nl")])


def _said(world: World) -> list[Message]:
    """The short messages in the channel (pings, invitations)."""
    return [m for m in world.fake.channel_messages(world.channel)
            if m.content and not m.buttons() and not m.deleted]


def _pings(world: World) -> list[Message]:
    return [m for m in _said(world) if "/channels/" in m.content]


def _host_only(lang: str) -> str:
    return refusal_text(Refusal("host_only"), lang)


@LANGS
async def test_the_table_comes_back_to_the_bottom(tmp_path: Path, locale: str,
                                                  lang: str) -> None:
    async with open_world(tmp_path, ("anna", "bram"), locale=locale,
                          guild_locale=locale) as world:
        await open_private_table(world, guests=("bram",))
        await ping_always(world)
        await start(world)
        await world.drive(careful, lambda tb: tb.game is not None and tb.game.phase is Phase.PLAY)
        first = world.table_message()
        ping = await world.fake.wait_for(lambda: next(iter(_pings(world)), None))
        assert ping.content.endswith(f"/{world.channel.id}/{first.id}")  # the ping links it

        # asked for at once after it was posted: it is at the bottom, nothing new
        res = await world.slash("anna", "toep table", locale=locale)
        assert reply(res) == t(lang, "manage.just_posted")
        assert world.table_message().id == first.id

        await world.fake_clock.advance(11)  # others talked meanwhile; the clock has 20 s
        res = await world.slash("bram", "toep table", locale=locale)
        current = world.table_message()
        assert current.id != first.id
        assert reply(res).startswith(t(lang, "manage.back", link=""))
        assert reply(res).endswith(f"/{world.guild.id}/{world.channel.id}/{current.id}")
        old = world.fake.message(first.id)
        assert old.text and all(b.get("disabled") for b in old.buttons())
        assert not any(b.get("disabled") for b in current.buttons())
        # the table message is the newest but for the ping, which points to it
        newest = [m for m in world.fake.channel_messages(world.channel) if not m.deleted][-2:]
        assert current in newest
        await world.fake.wait_for(lambda: next(
            (m for m in _pings(world) if m.content.endswith(f"/{current.id}")), None))

        # asked again at once: nothing new is posted
        res = await world.slash("anna", "toep table", locale=locale)
        assert reply(res) == t(lang, "manage.just_posted")
        assert world.table_message().id == current.id


@LANGS
async def test_invites_are_mentioned_once_listed_and_withdrawn(tmp_path: Path, locale: str,
                                                               lang: str) -> None:
    async with open_world(tmp_path, ("anna", "bram", "cora"), locale=locale,
                          guild_locale=locale) as world:
        bram, cora = world.people["bram"], world.people["cora"]
        await world.slash("anna", "toep new", {"private": True}, locale=locale)
        await world.wait_table_message("anna")
        res = await world.slash("anna", "toep invite", {"member": bram}, locale=locale)
        assert reply(res) == t(lang, "reply.invited", member=bram.mention)
        told = await world.fake.wait_for(lambda: next(iter(_said(world)), None))
        assert told.notified == {str(bram.id)}  # bram is told, the host is not pinged
        assert told.content.startswith(bram.mention)
        lobby = await world.wait_table_message(t(lang, "lobby.invited", members=bram.mention))
        await world.slash("anna", "toep invite", {"member": bram}, locale=locale)
        await world.slash("anna", "toep invite", {"member": cora}, locale=locale)
        await world.fake.wait_for(lambda: len(_said(world)) == 2)
        assert [m.notified for m in _said(world)] == [{str(bram.id)}, {str(cora.id)}]

        # only the host withdraws; a member never invited is refused
        res = await world.slash("bram", "toep uninvite", {"member": cora}, locale=locale)
        assert reply(res) == _host_only(lang)
        res = await world.slash("anna", "toep uninvite", {"member": cora}, locale=locale)
        assert reply(res) == t(lang, "manage.uninvited", member=cora.mention)
        res = await world.slash("anna", "toep uninvite", {"member": cora}, locale=locale)
        assert reply(res) == t(lang, "click.not_invited")
        await world.fake.wait_for(lambda: cora.mention not in world.table_message().text)
        joined = await world.click_table("cora", "join")
        assert t(lang, "click.invited_only") in (await joined.wait_followups(1))[0].text
        # a seated guest whose invite is withdrawn leaves the seat
        await world.click_table("bram", "join")
        table = world.table()
        await world.fake.wait_for(lambda: table.seat_of(bram.id) is not None)
        await world.slash("anna", "toep uninvite", {"member": bram}, locale=locale)
        assert table.seat_of(bram.id) is None and bram.id not in table.invited
        assert lobby.id == world.table_message().id
        # invited again after a withdrawal: listed again, but not pinged again
        await world.slash("anna", "toep invite", {"member": bram}, locale=locale)
        await world.wait_table_message(t(lang, "lobby.invited", members=bram.mention))
        assert len(_said(world)) == 2


@LANGS
async def test_the_host_changes_house_rules_before_the_start(tmp_path: Path, locale: str,
                                                             lang: str) -> None:
    async with open_world(tmp_path, ("anna", "bram"), locale=locale,
                          guild_locale=locale) as world:
        table = await open_private_table(world, guests=("bram",), bots=("easy",), limit=20)
        res = await world.slash("anna", "toep house-rules", {"limit": 10, "dead_man": False},
                                locale=locale)
        assert reply(res) == t(lang, "manage.rules_changed")
        assert table.rules.limit == 10 and not table.rules.dead_man
        await world.wait_table_message(t(lang, "rule.limit", value=10))
        assert t(lang, "rule.dead_man.off") in world.table_message().text

        res = await world.slash("anna", "toep house-rules", {"max_players": 2}, locale=locale)
        assert reply(res) == t(lang, "click.table_full", max=2)  # three are seated
        res = await world.slash("anna", "toep house-rules", locale=locale)
        assert reply(res) == t(lang, "manage.no_options")
        res = await world.slash("bram", "toep house-rules", {"limit": 30}, locale=locale)
        assert reply(res) == _host_only(lang)
        assert table.rules.limit == 10
        await start(world)
        res = await world.slash("anna", "toep house-rules", {"limit": 30}, locale=locale)
        assert reply(res) == t(lang, "click.already_started")
        assert table.game is not None and table.game.rules.limit == 10

        # the options read as those of /toep new, in both languages
        toep = next(c for c in world.fake.commands() if c["name"] == "toep")
        subs = {o["name"]: o for o in toep["options"]}
        new = {o["name"]: o for o in subs["new"]["options"]}
        # (declared twice in the code: this keeps the two the same)
        options = subs["house-rules"]["options"]
        assert [o["name"] for o in options] == [n for n in new if n != "private"]
        # V3's Dutch name says what it does: a folded player's card still counts
        assert new["folded_card_wins"]["name_localizations"]["nl"] == "gevouwen_kaart_telt"
        for option in options:
            assert option == new[option["name"]]


async def test_house_rules_of_a_public_table_are_the_servers(tmp_path: Path) -> None:
    async with open_world(tmp_path, ("anna", "bram")) as world:
        await world.slash("anna", "toep new")
        await world.wait_table_message("anna")
        res = await world.slash("anna", "toep house-rules", {"limit": 10})
        assert reply(res) == t("en", "click.rules_public")
        res = await world.slash("anna", "toep uninvite", {"member": world.people["bram"]})
        assert reply(res) == t("en", "click.invite_public")


@LANGS
async def test_leaving_a_game_asks_first(tmp_path: Path, locale: str, lang: str) -> None:
    async with open_world(tmp_path, ("anna", "bram", "cora"), locale=locale,
                          guild_locale=locale) as world:
        await world.slash("anna", "toep new", locale=locale)
        await world.wait_table_message("anna")
        await world.click_table("bram", "join")
        await world.click_table("cora", "join")
        table = await start(world)
        bram = world.seat("bram")

        res = await world.slash("bram", "toep leave", locale=locale)
        question = (await res.wait_followups(1))[0]
        # ... and which forfeit it would be: bram has none this week (R19)
        assert question.ephemeral and question.text == t(lang, "leave.confirm.counts") + "\n" + \
            t(lang, "ban.warn.count", nth=nth(1, lang), days=7)
        assert table.game is not None and not table.game.forfeited[bram]
        stay = question.button(label=t(lang, "btn.stay"))
        await world.click("bram", question, stay["custom_id"])
        await world.fake.wait_for(lambda: question.text == t(lang, "leave.stayed"))
        assert question.buttons() == [] and not table.game.forfeited[bram]

        res = await world.slash("bram", "toep leave", locale=locale)
        question = (await res.wait_followups(1))[0]
        leave = question.button(label=t(lang, "btn.walkout"))
        # pressed twice at once: one forfeit
        await asyncio.gather(world.click("bram", question, leave["custom_id"]),
                             world.click("bram", question, leave["custom_id"]))
        texts = {t(lang, "reply.walked_out"), t(lang, "click.already_out")}
        await world.fake.wait_for(lambda: question.text in texts)
        assert table.game.forfeited[bram] and question.buttons() == []
        assert world.bot is not None
        counted = await bans.forfeits_in_window(world.bot.db, world.guild.id,
                                                world.people["bram"].id, world.bot.clock.now())
        assert len(counted) == 1  # a public table, three people: it counts (R19)
        # out of the game, nothing is left to ask
        res = await world.slash("bram", "toep leave", locale=locale)
        assert reply(res) == t(lang, "click.already_out")
        assert table.status is Status.PLAYING


@pytest.mark.parametrize(("private", "key"), [(True, "leave.confirm.private"),
                                              (False, "leave.confirm.alone")])
async def test_the_question_says_when_a_forfeit_does_not_count(tmp_path: Path, private: bool,
                                                                key: str) -> None:
    async with open_world(tmp_path, ("anna",)) as world:
        await world.slash("anna", "toep new", {"private": True} if private else {})
        await world.wait_table_message("anna")
        await world.click_table("anna", "addbot", "easy")
        await start(world)
        res = await world.slash("anna", "toep leave")
        assert (await res.wait_followups(1))[0].text == t("en", key)


def _again(message: Message, lang: str) -> str:
    return str(message.button(label=t(lang, "btn.again"))["custom_id"])


async def _finished(world: World, lang: str) -> Message:
    """The table message once it shows the game over, with "play again"."""
    label = t(lang, "btn.again")
    return await world.fake.wait_for(lambda: next(
        (m for m in world.fake.channel_messages(world.channel)
         if any(b.get("label") == label for b in m.buttons())), None), 10.0)


@LANGS
async def test_play_again_opens_a_lobby_with_the_same_people_and_rules(
        tmp_path: Path, locale: str, lang: str) -> None:
    async with open_world(tmp_path, ("anna", "bram", "cora"), locale=locale,
                          guild_locale=locale) as world:
        anna, bram = world.people["anna"], world.people["bram"]
        old = await open_private_table(world, guests=("bram",), bots=("easy",), limit=5,
                                       two_left="normal")
        await start(world)
        await world.play_to_the_end()
        assert old.status is Status.FINISHED
        finished = await _finished(world, lang)
        again = _again(finished, lang)

        # cora did not play here: refused
        res = await world.click("cora", finished, again)
        assert reply(res) == refusal_text(Refusal("not_a_player"), lang)
        # anna and bram press at once: one new lobby, the other hears the channel is busy
        said = len(_said(world))
        results = await asyncio.gather(world.click("bram", finished, again),
                                       world.click("anna", finished, again))
        answers = sorted(reply(r) for r in results)
        assert answers[0] == refusal_text(Refusal("channel_busy"), lang) or \
            answers[1] == refusal_text(Refusal("channel_busy"), lang)
        table = world.table()
        assert table.id != old.id and table.status is Status.LOBBY
        assert world.bot is not None
        host = table.row.host_id
        other = anna if host == bram.id else bram
        assert [s.user_id for s in table.seats] == [host, None]
        assert table.seats[1].level == "easy" and table.invited == {other.id}
        assert table.rules == old.rules and not table.row.public
        # the other is told once, by name, and may join
        told = await world.fake.wait_for(lambda: _said(world)[said:] or None)
        assert len(told) == 1 and told[0].notified == {str(other.id)}
        lobby = await world.wait_table_message(t(lang, "lobby.invited", members=other.mention))
        name = "anna" if other is anna else "bram"
        await world.click_table(name, "join")
        await world.fake.wait_for(lambda: table.seat_of(other.id) is not None)
        assert lobby.id == world.table_message().id


async def test_play_again_at_a_public_table_keeps_a_banned_player_out(tmp_path: Path) -> None:
    async with open_world(tmp_path, ("anna", "bram")) as world:
        await world.slash("anna", "toep new")
        await world.wait_table_message("anna")
        await world.click_table("bram", "join")
        old = await start(world)
        await world.play_to_the_end()
        assert old.status is Status.FINISHED and world.bot is not None
        finished = await _finished(world, "en")
        db, now = world.bot.db, world.bot.clock.now()
        for i in range(3):  # bram forfeited three times elsewhere this week
            row = await games.create_game(db, guild_id=world.guild.id, channel_id=i + 1, host_id=1,
                                          public=True, rules={}, seed=i, now=now)
            await bans.record_forfeit(db, game_id=row.id, guild_id=world.guild.id,
                                      user_id=world.people["bram"].id, kind="walkout", at=now)
        res = await world.click("bram", finished, _again(finished, "en"))
        assert t("en", "click.banned", until="")[:20] in reply(res)
        assert world.table().id == old.id  # no new table
        res = await world.click("anna", finished, _again(finished, "en"))
        table = world.table()
        assert table.id != old.id and table.row.public and table.invited == set()
        told = await world.fake.wait_for(lambda: _said(world) or None)
        assert told[-1].notified == {str(world.people["bram"].id)}  # asked to join again
