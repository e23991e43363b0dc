"""engine/cards.py: card texts to cards, one or several at once."""

from __future__ import annotations

from typing import Any, cast

import pytest

from engine.cards import DECK, CardError, parse_card, parse_cards


def test_several_cards_at_once_are_the_cards_one_by_one() -> None:
    texts = [card.text for card in DECK]
    assert parse_cards(texts) == list(DECK) == [parse_card(t) for t in texts]
    assert parse_cards(["10h", " as ", "7C"]) == [parse_card("10H"), parse_card("AS"),
                                                  parse_card("7C")]
    assert parse_cards([]) == []


@pytest.mark.parametrize("texts", [["7C", "6C"], ["7C", 7], ["7C", ["AS"]], ["AS", None]])
def test_a_text_that_is_no_card_is_refused(texts: list[Any]) -> None:
    with pytest.raises(CardError):
        parse_cards(cast(list[str], texts))
