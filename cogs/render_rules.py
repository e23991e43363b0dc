"""`/toep rules`: an index of every topic, or one topic, each with a select
menu to move to any other. The menu is `toeprules:pick` and carries no
guild or user: it sits on the reader's own ephemeral reply, which nobody
else can see or click, and choosing edits that reply in place."""

from __future__ import annotations

import discord

from .i18n import t
from .render_text import MAX_CONTENT, Rendered, clip
from .render_topics import TOPICS, rules_topic

RULES_PICK = "toeprules:pick"
INDEX = "index"  # the select's value for the index itself
MAX_OPTION = 100  # Discord: a select option's label and description


def rules_index(lang: str) -> Rendered:
    """Every topic with what it covers, and the menu to open one."""
    lines = [t(lang, "rules.index.head", count=len(TOPICS))]
    lines += [t(lang, "rules.index.line", topic=t(lang, f"choice.{topic}"),
                about=t(lang, f"rules.about.{topic}")) for topic in TOPICS]
    lines.append(t(lang, "rules.index.foot"))
    return Rendered(clip("\n".join(lines), MAX_CONTENT), None, _menu(INDEX, lang))


def rules_page(topic: str, lang: str) -> Rendered:
    """One topic (the index for an unknown one), with the menu."""
    if topic not in TOPICS:
        return rules_index(lang)
    return Rendered(rules_topic(topic, lang), None, _menu(topic, lang))


def _menu(shown: str, lang: str) -> discord.ui.View:
    options = [discord.SelectOption(label=clip(t(lang, "rules.index.title"), MAX_OPTION),
                                    value=INDEX, emoji="📖", default=shown == INDEX)]
    options += [discord.SelectOption(label=clip(t(lang, f"choice.{topic}"), MAX_OPTION),
                                     value=topic,
                                     description=clip(t(lang, f"rules.about.{topic}"),
                                                      MAX_OPTION),
                                     default=shown == topic)
                for topic in TOPICS]
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Select(custom_id=RULES_PICK, options=options,
                                    placeholder=t(lang, "rules.index.pick")))
    return view
