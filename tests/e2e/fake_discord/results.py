"""What a test gets back from fake.slash / fake.click / fake.submit_modal."""

from __future__ import annotations

from collections.abc import Callable

from .interactions import InteractionRecord
from .models import Json, Message
from .store import Store

ACK_NAMES = {
    4: "CHANNEL_MESSAGE_WITH_SOURCE",
    5: "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE",
    6: "DEFERRED_UPDATE_MESSAGE",
    7: "UPDATE_MESSAGE",
    8: "AUTOCOMPLETE_RESULT",
    9: "MODAL",
    12: "LAUNCH_ACTIVITY",
}


class InteractionResult:
    """A live view of one interaction: properties always reflect the latest state."""

    def __init__(self, record: InteractionRecord, store: Store) -> None:
        self._record = record
        self._store = store

    def __repr__(self) -> str:
        return (
            f"<InteractionResult id={self.id} ack={self.ack_name} "
            f"delay={self.ack_delay} followups={len(self._record.followup_ids)}>"
        )

    @property
    def id(self) -> int:
        return self._record.id

    @property
    def record(self) -> InteractionRecord:
        return self._record

    @property
    def activity_instance(self) -> str | None:
        """The Activity a LAUNCH_ACTIVITY answer started, if it was one."""
        return self._record.activity_instance

    @property
    def ack_type(self) -> int | None:
        """The callback type (4, 5, 6, 7, 8, 9) or None if not acknowledged in time."""
        return self._record.ack_type

    @property
    def ack_name(self) -> str | None:
        return None if self.ack_type is None else ACK_NAMES.get(self.ack_type)

    @property
    def acknowledged(self) -> bool:
        return self._record.ack_type is not None

    @property
    def ack_delay(self) -> float | None:
        """Seconds from dispatch to the accepted acknowledgement."""
        return self._record.ack_delay

    @property
    def message(self) -> Message | None:
        """The @original message: the response (4/5) or the clicked message (6/7)."""
        return self._store.messages.get(self._record.original_id or 0)

    @property
    def ephemeral(self) -> bool:
        return self.message is not None and self.message.ephemeral

    @property
    def followups(self) -> list[Message]:
        return [self._store.messages[i] for i in self._record.followup_ids]

    @property
    def messages(self) -> list[Message]:
        """The original response (if any) followed by followups, without duplicates."""
        found = [] if self.message is None else [self.message]
        ids = {m.id for m in found}
        return found + [m for m in self.followups if m.id not in ids]

    @property
    def modal(self) -> Json | None:
        return self._record.modal

    @property
    def choices(self) -> list[Json] | None:
        return self._record.choices

    async def wait_message(
        self, predicate: Callable[[Message], bool] = lambda m: True, timeout: float = 5.0
    ) -> Message:
        """Wait until @original exists, is no longer loading and satisfies `predicate`."""

        def ready() -> Message | None:
            m = self.message
            return m if m is not None and not m.loading and predicate(m) else None

        return await self._store.wait_for(ready, timeout, f"original response of {self.id}")

    async def wait_followups(self, count: int = 1, timeout: float = 5.0) -> list[Message]:
        def enough() -> list[Message] | None:
            found = self.followups
            return found if len(found) >= count else None

        return await self._store.wait_for(enough, timeout, f"{count} followups of {self.id}")
