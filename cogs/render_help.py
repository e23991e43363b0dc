"""`/toep help`: every `/toep` and `/toep-admin` command at a glance, in the
reader's language, grouped by what a player wants to do."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from .i18n import command_key, has, t
from .render_text import MAX_DESCRIPTION, MAX_FIELD_VALUE, MAX_TITLE, Rendered, clip
from .toep_group import ADMIN, TOEP

HELP_COLOUR = discord.Colour.dark_green()

# Sections in the order a newcomer needs them, each with its group; a
# command not listed here still shows, under its group's first section.
SECTIONS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("play", TOEP, ("new", "invite", "uninvite", "house-rules", "table", "hand", "leave")),
    ("learn", TOEP, ("rules", "learn", "help")),
    ("community", TOEP, ("daily", "tournament", "leaderboard", "stats", "history", "review")),
    ("admin", ADMIN, ("settings", "daily-settings", "new-tournament", "bans", "end")),
)


def command_name(name: str, lang: str, group: str = TOEP) -> str:
    """`/<group> <name>` as the reader's client shows it."""
    return f"/{_localized(group, group, lang)} {_localized(f'{group} {name}', name, lang)}"


def _localized(qualified: str, english: str, lang: str) -> str:
    key = command_key(qualified, "name")
    return t(lang, key) if has(key, lang) else english


def help_message(commands: Mapping[str, Sequence[str]], lang: str) -> Rendered:
    """`commands`: per group (TOEP, ADMIN), the names of its subcommands (in
    English, as registered)."""
    embed = discord.Embed(title=clip(t(lang, "help.title"), MAX_TITLE), colour=HELP_COLOUR)
    embed.description = clip(t(lang, "help.intro", group=_localized(TOEP, TOEP, lang),
                               admin=_localized(ADMIN, ADMIN, lang),
                               join=t(lang, "btn.join"), start=t(lang, "btn.start"),
                               hand=t(lang, "btn.hand")), MAX_DESCRIPTION)
    for section, group, names in SECTIONS:
        lines = [t(lang, "help.line", command=command_name(n, lang, group),
                   desc=t(lang, command_key(f"{group} {n}", "desc")))
                 for n in _shown(section, group, names, commands.get(group, ()))]
        if lines:
            embed.add_field(name=t(lang, f"help.section.{section}"),
                            value=clip("\n".join(lines), MAX_FIELD_VALUE), inline=False)
    embed.set_footer(text=t(lang, "help.footer", rules=command_name("rules", lang)))
    return Rendered(None, embed, None)


def _shown(section: str, group: str, names: Sequence[str], have: Sequence[str]) -> list[str]:
    """The section's commands the group has; its group's first section also
    takes the group's commands that no section names."""
    shown = [n for n in names if n in have]
    if section == next(s for s, g, _ in SECTIONS if g == group):
        placed = {n for _, g, listed in SECTIONS if g == group for n in listed}
        shown += sorted(n for n in have if n not in placed)
    return shown
