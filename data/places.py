"""The one rule for places, wherever a ranking is shown: a finished game's
standings, the places stored with its result, and the leaderboard. Equal
keys share a place, and the next one takes its own position (1, 1, 3): two
players tied for first are both first, and whoever follows them is third.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence


def shared_places(keys: Sequence[Hashable], *, before: int = 0,
                  first_place: int | None = None) -> list[int]:
    """The places of `keys`, already in order, best first. `before`: how many
    come ahead of `keys[0]` (a leaderboard page's offset); `first_place`:
    the place of `keys[0]` when it ties with some of those (else `before + 1`)."""
    places: list[int] = []
    for i, key in enumerate(keys):
        if i and key == keys[i - 1]:
            places.append(places[-1])
        elif i == 0 and first_place is not None:
            places.append(first_place)
        else:
            places.append(before + i + 1)
    return places
