"""Text for the terminal game: the table as one seat sees it, and a line for
each happening. Everything here reads views and happenings only, so it can
show nothing a seat may not see."""

from __future__ import annotations

from collections.abc import Sequence

from engine import events as ev
from engine.cards import Card, format_cards
from engine.events import Happening
from engine.state import DEAD_MAN, SUPER_TOEP
from engine.views import PublicView, SeatView

KIND_NAMES = {DEAD_MAN: "dead man's round", SUPER_TOEP: "super toep"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
OUT_REASONS = {"limit": "reached the limit", "forfeit": "walked out",
               "super_toep": "lost the super toep"}
MARK_REASONS = {"fold": "folded", "check": "checked a genuine vuile was",
                "bluff": "caught bluffing", "sit_out": "sat out",
                "round": "lost the round", "jack_finish": "jack finish"}


def cards_text(cards: Sequence[Card]) -> str:
    return format_cards(sorted(cards)) or "(none)"


def slate_note(public: PublicView, seat: int) -> str:
    """Out, on the edge, and what the seat did this round."""
    notes: list[str] = []
    if public.forfeited[seat]:
        notes.append("walked out")
    elif public.out[seat]:
        notes.append("out")
    elif public.marks[seat] == public.rules.edge:
        notes.append("on the edge")
    if public.winner == seat:
        notes.append("WINNER")
    if not public.out[seat]:
        if public.folded[seat]:
            notes.append("folded")
        elif public.sat_out[seat]:
            notes.append("sat out")
        elif seat in public.dead_men:
            notes.append("dead man")
    return ", ".join(notes)


def render_slates(public: PublicView, names: Sequence[str]) -> list[str]:
    rules = public.rules
    lines = [f"Slates (out at {rules.limit}, on the edge at {rules.edge}):"]
    width = max(len(n) for n in names)
    for seat, name in enumerate(names):
        note = slate_note(public, seat)
        lines.append(f"  {name:<{width}}  {public.marks[seat]:>2}  {note}".rstrip())
    return lines


def round_title(public: PublicView) -> str:
    kind = KIND_NAMES.get(public.kind, "")
    extra = f" ({kind})" if kind else ""
    return f"=== Round {public.round}{extra}, stake {public.stake} ==="


def render_table(public: PublicView, names: Sequence[str]) -> list[str]:
    trick = len(public.tricks) + 1
    if public.table:
        played = ", ".join(f"{names[s]} {c.text}" for s, c in public.table)
        lines = [f"Trick {trick}: {played}"]
    else:
        lines = [f"Trick {trick}: no cards yet"]
    for seat, cards in public.open_hands:
        lines.append(f"Open hand of {names[seat]} (caught bluffing): {cards_text(cards)}")
    return lines


def render_status(view: SeatView, names: Sequence[str]) -> list[str]:
    """The table as `view`'s seat sees it: round, slates, trick, own hand."""
    public = view.public
    lines = ["", round_title(public), *render_slates(public, names)]
    lines += render_table(public, names)
    for laid in view.laid_down:
        lines.append(f"{names[laid.caller]} laid down (you checked): {cards_text(laid.cards)}")
    lines.append(f"Your hand: {cards_text(view.hand)}")
    return lines


def question(view: SeatView, names: Sequence[str]) -> str:
    """What the seat is asked now."""
    public = view.public
    phase = public.phase.value
    if phase == "play":
        led = public.led_suit()
        follow = f"; {SUIT_NAMES[led]} were led, follow suit if you can" if led else ""
        may_toep = any(e.do == ev.TOEP for e in view.legal)
        toep = " (toep first if you like)" if may_toep else ""
        return f"Your turn: play a card{toep}{follow}."
    if phase == "toep_answer":
        toeper = "" if public.last_toeper is None else f"{names[public.last_toeper]} toeped: "
        return (f"{toeper}the stake is now {public.stake}. Call (play on for "
                f"{public.stake}) or fold (take {public.stake - 1} now)?")
    if phase == "window":
        return ("Vuile was? Call it to lay down your cards for new ones, "
                "or press enter to pass.")
    if phase == "check":
        caller = "Someone" if public.caller is None else names[public.caller]
        return (f"{caller} calls vuile was. Check (a genuine one costs you 1 mark) "
                "or believe? Enter believes.")
    if phase == "dead_man_choice":
        dead = " and ".join(names[s] for s in public.dead_men)
        return (f"Dead man's round for {dead}: play in (losing costs 2) "
                "or sit out (1 mark now)?")
    if phase == "super_question":
        return ("Two players are left. Play a super toep: 8 cards, the 8th trick "
                "wins the game? Enter says no.")
    return "Your move."


def event_label(event: ev.Event, public: PublicView) -> str:
    do = event.do
    if do == ev.PLAY and event.card is not None:
        return f"play {event.card.text}"
    labels = {
        ev.TOEP: f"toep (stake to {public.stake + 1})",
        ev.CALL: "call",
        ev.FOLD: f"fold (take {public.stake - 1})",
        ev.VUILE_WAS: "vuile was",
        ev.CHECK: "check",
        ev.BELIEVE: "believe",
        ev.PLAY_IN: "play in",
        ev.SIT_OUT: "sit out (1 mark)",
        ev.SUPER_YES: "yes, super toep",
        ev.SUPER_NO: "no",
    }
    return labels.get(do, do.replace("_", " "))


def silence_label(public: PublicView) -> str:
    """What pressing enter means in a window (R17: silence is an answer)."""
    return {"check": "believe", "super_question": "no"}.get(public.phase.value, "pass")


def describe(h: Happening, names: Sequence[str]) -> str | None:
    """One line for a happening, or None for one not worth a line."""
    text = _describe_round(h, names)
    if text is None:
        text = _describe_vuile_was(h, names)
    if text is None:
        text = _describe_play(h, names)
    return text


def _describe_round(h: Happening, names: Sequence[str]) -> str | None:
    match h:
        case ev.RoundStarted(number, kind, leader, stake):
            extra = f" ({KIND_NAMES[kind]})" if kind in KIND_NAMES else ""
            return f"--- Round {number}{extra}: stake {stake}, {names[leader]} leads ---"
        case ev.DeadMansRound(dead, leader):
            who = " and ".join(names[s] for s in dead)
            return (f"Dead man's round for {who}: stake 2, nobody may toep, only a genuine "
                    f"vuile was; {names[leader]} leads.")
        case ev.PlayedIn(seat, forced):
            return f"{names[seat]} plays in" + (" (no choice)." if forced else ".")
        case ev.SatOut(seat):
            return f"{names[seat]} sits out."
        case ev.SuperToepAsked(seats):
            return f"Two left: {' and '.join(names[s] for s in seats)} are asked: super toep?"
        case ev.SuperToepAnswered(seat, yes):
            return f"{names[seat]} says {'yes' if yes else 'no'} to a super toep."
        case ev.SuperToepDecided(super_toep):
            return ("SUPER TOEP: 8 cards each; the 8th trick wins the game." if super_toep
                    else "No super toep: play goes on as usual.")
        case ev.RoundWon(number, seat, stake, jack):
            who = "nobody" if seat is None else names[seat]
            finish = ": JACK FINISH, the others pay double" if jack else ""
            return f"Round {number} is won by {who} (stake {stake}){finish}."
        case ev.PlayerOut(seat, reason):
            return f"{names[seat]} is out ({OUT_REASONS.get(reason, reason)})."
        case ev.Forfeited(seat):
            return f"{names[seat]} walks out of the game (forfeit)."
        case ev.GameWon(seat):
            return f"*** {names[seat]} wins the game! ***"
    return None


def _describe_vuile_was(h: Happening, names: Sequence[str]) -> str | None:
    match h:
        case ev.VuileWasCalled(seat):
            return f"{names[seat]} calls VUILE WAS!"
        case ev.Checked(seat):
            return f"{names[seat]} checks."
        case ev.Believed(seat):
            return f"{names[seat]} believes it."
        case ev.VuileWasOutcome(caller, outcome, genuine, checkers):
            return _outcome_text(names[caller], outcome, genuine, checkers, names)
        case ev.Redealt(row):
            return f"{row} calls in a row: the whole round is dealt again."
        case ev.Reshuffled(cards):
            return f"The discard pile ({cards} cards) is shuffled under the stock."
        case ev.WindowClosed():
            return "No more vuile was: play starts."
    return None


def _outcome_text(caller: str, outcome: str, genuine: bool | None,
                  checkers: tuple[int, ...], names: Sequence[str]) -> str:
    if outcome == "caught":
        return f"Caught bluffing! {caller} keeps the cards and plays them open."
    if outcome == "lapsed":
        return f"{caller}'s vuile was lapses."
    if outcome == "redeal":
        return f"{caller}'s call completes the row."
    if genuine is None:
        return f"Nobody checked: {caller} takes new cards."
    who = " and ".join(names[s] for s in checkers)
    return f"It was genuine{' (checked by ' + who + ')' if who else ''}: {caller} takes new cards."


def _describe_play(h: Happening, names: Sequence[str]) -> str | None:
    match h:
        case ev.CardPlayed(seat, card):
            return f"{names[seat]} plays {card.text}."
        case ev.Toeped(seat, stake):
            return f"{names[seat]} TOEPS! The stake is now {stake}."
        case ev.Called(seat, forced):
            return f"{names[seat]} calls" + (" (must: folded too often, R10)." if forced else ".")
        case ev.Folded(seat):
            return f"{names[seat]} folds."
        case ev.MarksTaken(seat, marks, total, reason):
            plural = "mark" if marks == 1 else "marks"
            why = MARK_REASONS.get(reason, reason)
            return f"{names[seat]} takes {marks} {plural} ({why}): now {total}."
        case ev.TrickWon(number, seat, card, leads_next):
            lead = ""
            if leads_next is not None and leads_next != seat:
                lead = f"; {names[leads_next]} leads next"
            return f"Trick {number} goes to {names[seat]} with {card.text}{lead}."
    return None
