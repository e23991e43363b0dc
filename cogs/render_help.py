"""`/toep help`: every `/toep` command at a glance, in the reader's language,
grouped by what a player wants to do."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from .i18n import command_key, has, t
from .render_text import MAX_DESCRIPTION, MAX_FIELD_VALUE, MAX_TITLE, Rendered, clip

HELP_COLOUR = discord.Colour.dark_green()

# Sections in the order a newcomer needs them; a command not listed here
# still shows, under the first section.
SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("play", ("new", "invite", "uninvite", "house-rules", "table", "hand", "leave")),
    ("learn", ("rules", "learn", "help")),
    ("community", ("leaderboard", "stats", "history")),
    ("admin", ("settings", "bans", "end")),
)


def command_name(name: str, lang: str) -> str:
    """`/toep <name>` as the reader's client shows it."""
    return f"/{_localized('toep', 'toep', lang)} {_localized(f'toep {name}', name, lang)}"


def _localized(qualified: str, english: str, lang: str) -> str:
    key = command_key(qualified, "name")
    return t(lang, key) if has(key, lang) else english


def help_message(commands: Sequence[str], lang: str) -> Rendered:
    """`commands`: the names (in English, as registered) of the /toep subcommands."""
    placed = {name for _, names in SECTIONS for name in names}
    embed = discord.Embed(title=clip(t(lang, "help.title"), MAX_TITLE), colour=HELP_COLOUR)
    embed.description = clip(t(lang, "help.intro", group=_localized("toep", "toep", lang),
                               join=t(lang, "btn.join"), start=t(lang, "btn.start"),
                               hand=t(lang, "btn.hand")), MAX_DESCRIPTION)
    for index, (section, names) in enumerate(SECTIONS):
        shown = [n for n in names if n in commands]
        if index == 0:
            shown += sorted(n for n in commands if n not in placed)
        lines = [t(lang, "help.line", command=command_name(n, lang),
                   desc=t(lang, command_key(f"toep {n}", "desc"))) for n in shown]
        if lines:
            embed.add_field(name=t(lang, f"help.section.{section}"),
                            value=clip("\n".join(lines), MAX_FIELD_VALUE), inline=False)
    embed.set_footer(text=t(lang, "help.footer", rules=command_name("rules", lang)))
    return Rendered(None, embed, None)
