"""What a modified client can send and Discord passes on: a click with a
custom_id (or select values) of its own making on a real message, a slash
command's data as it likes, and commands from a DM.

`click` and `slash` (driver.py) send only what Discord's own client lets a
person send; these are for the tests of the bot's defences.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .core import Settings
from .interactions import (
    APPLICATION_COMMAND,
    MESSAGE_COMPONENT,
    InteractionRecord,
    new_dm_record,
    new_record,
)
from .models import Channel, Guild, Json, Message, User
from .options import CommandError, command_data, find_command
from .results import InteractionResult
from .store import Store

BOT_DM = 1  # an interaction context: the user's DM with the bot


class Forgery:
    store: Store
    settings: Settings
    application_id: int
    bot_user: User
    dm_channels: dict[int, int]  # user id -> the id of their DM with the bot

    def _where(self, user: User | int, channel: Channel | int) -> tuple[Channel, Guild, User]:
        raise NotImplementedError  # driver.py

    async def _send(self, record: InteractionRecord) -> InteractionResult:
        raise NotImplementedError  # driver.py

    async def forge_click(
        self,
        user: User | int,
        message: Message,
        custom_id: str,
        *,
        values: list[Any] | None = None,
        component_type: Any = None,
        locale: str | None = None,
    ) -> InteractionResult:
        """A click that sends `custom_id` (and `values`, anything) from `message`,
        which Discord puts in the payload as it is: the id need not be on it.
        `component_type`: the clicked component's, else 2 (a button)."""
        chan, guild, who = self._where(user, message.channel_id)
        if message.deleted or (message.visible_to is not None and message.visible_to != who.id):
            raise CommandError(f"{who.name} cannot see message {message.id}")
        data: Json = {"custom_id": custom_id,
                      "component_type": 2 if component_type is None else component_type}
        if values is not None:
            data["values"] = values
        return await self._send(self._record(MESSAGE_COMPONENT, who, chan, guild, data,
                                             locale, message))

    async def forge_slash(
        self, user: User | int, channel: Channel | int, data: Json, *, locale: str | None = None
    ) -> InteractionResult:
        """A slash command whose `data` (name, options, resolved) is sent as given."""
        chan, guild, who = self._where(user, channel)
        return await self._send(self._record(APPLICATION_COMMAND, who, chan, guild, data, locale))

    async def dm_slash(
        self,
        user: User | int,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        forge: bool = False,
        locale: str | None = None,
    ) -> InteractionResult:
        """"/command [sub]" typed in the user's DM with the bot. Discord offers
        there only a global command whose contexts include DMs: CommandError
        for any other, unless `forge` (a client that sends it anyway)."""
        who = self.store.users[user if isinstance(user, int) else user.id]
        name, *path = command.split()
        synced = find_command([], self.store.global_commands, name)
        if not forge and not _offered_in_dms(synced):
            raise CommandError(f"/{name} is not offered in DMs (contexts "
                               f"{synced.get('contexts')}, dm_permission "
                               f"{synced.get('dm_permission')})")
        nobody = Guild(id=0, name="", owner_id=0)
        data = command_data(synced, path, options or {}, nobody)
        channel_id = self._dm_channel(who)
        return await self._send(new_dm_record(
            interaction_id=self.store.ids.next(), kind=APPLICATION_COMMAND, user=who,
            channel_id=channel_id, data=data, app_id=self.application_id,
            locale=locale or who.locale,
            attachment_size_limit=self.settings.attachment_size_limit))

    def _dm_channel(self, user: User) -> int:
        if user.id not in self.dm_channels:
            self.dm_channels[user.id] = self.store.ids.next()
        return self.dm_channels[user.id]

    def _record(self, kind: int, who: User, chan: Channel, guild: Guild, data: Json,
                locale: str | None, message: Message | None = None) -> InteractionRecord:
        return new_record(
            interaction_id=self.store.ids.next(), kind=kind, user=who, channel=chan,
            guild=guild, data=data, app_id=self.application_id,
            app_permissions=guild.permissions_in(self.bot_user.id, chan),
            locale=locale or who.locale,
            attachment_size_limit=self.settings.attachment_size_limit, message=message)


def _offered_in_dms(command: Json) -> bool:
    contexts = command.get("contexts")
    if contexts is not None:
        return BOT_DM in contexts
    return command.get("dm_permission") is not False
