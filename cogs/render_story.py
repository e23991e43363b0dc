"""What the table is at, told on a hand panel: the stake and the trick, the
cards on the table in this trick, a caught bluffer's open hand, and the last
things that happened. On a phone the table message is often scrolled away,
so a panel must tell the story by itself.

Built from the public view and the table's happenings only (both are the
table message's too): it can show nothing a seat may not see.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from engine.events import Happening
from engine.state import SUPER_TOEP
from engine.views import PublicView

from .i18n import t
from .render_text import card_label, cards_label, happening_line

log = logging.getLogger(__name__)

# The happenings a panel repeats: the last move and the one before it (a card
# and the toep after it, a trick won and who leads) without a long scroll.
PANEL_RECENT = 2


def stake_line(public: PublicView, lang: str) -> str:
    """'Stake **2** · trick 3 of 4'."""
    total = 8 if public.kind == SUPER_TOEP else 4
    trick = min(len(public.tricks) + 1, total)
    return (t(lang, "table.stake", stake=public.stake) + " · "
            + t(lang, "table.trick", number=trick, total=total))


def story_lines(public: PublicView, recent: Sequence[Happening], names: Sequence[str],
                lang: str, playing: bool) -> list[str]:
    """The panel's head: while the game is `playing`, the stake, the trick
    and the cards on the table; then the last happenings, as quotes."""
    lines: list[str] = []
    if playing and not public.over:
        lines.append(stake_line(public, lang))
        if public.table:
            cards = t(lang, "list.sep").join(
                t(lang, "hand.played", name=names[s], card=card_label(c, lang))
                for s, c in public.table)
            lines.append(t(lang, "hand.on_table", cards=cards))
        for seat, hand in public.open_hands:
            lines.append(t(lang, "table.open_hand", name=names[seat],
                           cards=cards_label(sorted(hand), lang)))
    lines += ["> " + happening_line(h, names, lang) for h in recent[-PANEL_RECENT:]]
    return lines
