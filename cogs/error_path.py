"""The one way an unexpected error ends a slash command or a click.

Every slash command (`ToepTree.on_error`) and every component of ours
(routed by cogs/clicks.py, through `answered`) ends here when something
raises that is not a refusal: the error is logged with its traceback and
the table it concerns, and the person gets a short apology, ephemeral and
in their language, whether or not the interaction was deferred or answered
already (never "thinking..." forever).
The table itself was put back to its last saved state where it matters
(tables/journal.py), so it plays on.

Two kinds of failure are no bug of ours and get a WARNING, without a
traceback: a command from a DM (every command is guild-only; a client that
sends one anyway is told so, and the command does not run), and a payload
that Discord's own client never sends: a subcommand we do not have, options
that do not fit the command, a member option naming someone who is not one.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs.i18n import lang_for_locale, t
from cogs.stopping import refused_while_stopping
from tables.errors import TableFailure
from tables.log_safe import log_failure

if TYPE_CHECKING:
    from bot import ToepBot

log = logging.getLogger(__name__)

UNKNOWN_INTERACTION = 10062  # Discord: answered after its 3 seconds (or never known)
# A command's payload that Discord's client would not have sent.
MALFORMED = (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch,
             app_commands.TransformerError)
LOGGED_ID = 40  # characters of a clicked custom_id the log shows: it is the clicker's text


async def apologise(interaction: discord.Interaction[Any], error: BaseException,
                    table_id: int | None, key: str = "click.error") -> None:
    """Log `error` (with its traceback and table) and tell the person, once."""
    what = what_was_clicked(interaction)
    if _too_late(error):
        # After an outage or a stall Discord may hand over a click whose 3
        # seconds ran out: an operational event, not a bug. Without a first
        # answer nothing reaches the person through it (they click again);
        # with one (deferred), a follow-up still does.
        log.warning("table %s: %s came too late to be answered (Discord: unknown "
                    "interaction)", table_id, what)
        if not interaction.response.is_done():
            return
    elif isinstance(error, MALFORMED):
        log.warning("%s: a payload Discord does not send (%s); refused", what,
                    type(error).__name__)
        key = _malformed_key(error)
    elif isinstance(error, TableFailure):
        # The table logged why where it happened (with the traceback of a
        # bug of ours) and put itself back to its last saved event.
        log.warning("table %s: %s failed: %s", table_id, what, error)
        if error.storage and key == "click.error":
            key = "click.not_saved"  # worth trying again, and nothing changed
    else:
        # Its text may name a card (a bug's message): at DEBUG only.
        log_failure(log, logging.ERROR, "table %s: %s failed", table_id, what, error=error)
    await _tell(interaction, t(lang_for_locale(interaction.locale), key), table_id)


async def _tell(interaction: discord.Interaction[Any], text: str, table_id: int | None) -> None:
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except (discord.HTTPException, discord.RateLimited) as err:
        # The token expired or Discord is down: nothing more can reach them.
        log.warning("table %s: the answer to %s could not be sent: %s", table_id,
                    what_was_clicked(interaction), err)


def _malformed_key(error: BaseException) -> str:
    if isinstance(error, app_commands.TransformerError) and error.type in (
            discord.AppCommandOptionType.user, discord.AppCommandOptionType.mentionable):
        return "command.not_member"
    return "command.unreadable"


async def answered(interaction: discord.Interaction[Any], work: Awaitable[None],
                   table_id: int | None, key: str = "click.error") -> None:
    """Run a component's `work`; an error gets the apology instead of silence."""
    try:
        await work
    except Exception as err:
        await apologise(interaction, err, table_id, key)


class ToepTree(app_commands.CommandTree["ToepBot"]):
    """The command tree whose errors end in an apology (see the module)."""

    async def interaction_check(self, interaction: discord.Interaction[ToepBot], /) -> bool:
        """No command runs while the bot stops (cogs/stopping.py). Every command
        is guild-only (declared so, and Discord offers none in a DM); one that
        comes from a DM anyway is refused here, before it runs."""
        if await refused_while_stopping(self.client, interaction):
            return False
        if interaction.guild_id is not None:
            return True
        log.warning("%s came from a DM; refused", what_was_clicked(interaction))
        if interaction.type is discord.InteractionType.application_command:
            await _tell(interaction, t(lang_for_locale(interaction.locale), "click.guild_only"),
                        None)
        return False

    async def on_error(self, interaction: discord.Interaction[ToepBot],
                       error: app_commands.AppCommandError) -> None:
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        table_id = self.client.table_id_in(interaction.channel_id)
        await apologise(interaction, cause, table_id,
                        "community.error" if table_id is None else "click.error")


def _too_late(error: BaseException) -> bool:
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION


def what_was_clicked(interaction: discord.Interaction[Any]) -> str:
    """The command or button, for the log: never the card a button carries."""
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    data: Any = interaction.data if isinstance(interaction.data, dict) else {}
    if interaction.type is discord.InteractionType.application_command:
        return f"/{str(data.get('name', '?'))[:LOGGED_ID]!s}"
    # Prefix, table and verb: the rest may be the card of a hand.
    custom_id = ":".join(str(data.get("custom_id", "?")).split(":")[:3])
    return f"the click on {custom_id[:LOGGED_ID]!r}"
