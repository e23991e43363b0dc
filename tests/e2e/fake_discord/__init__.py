"""A fake Discord (REST + gateway over TLS) that the unmodified discord.py connects to.

See tests/e2e/README.md for how to use it.
"""

from .driver import FakeDiscord
from .faults import FaultHit
from .interactions import InteractionRecord
from .models import Attachment, Channel, Edit, Guild, Member, Message, Role, User
from .options import CommandError
from .ratelimit import Limit, RateLimitConfig
from .resolver import remote_connector
from .rest_messages import ATTACH_FILES, EMBED_LINKS, SEND_MESSAGES, VIEW_CHANNEL
from .results import InteractionResult
from .store import RateLimitHit, Rejection

__all__ = [
    "ATTACH_FILES",
    "EMBED_LINKS",
    "SEND_MESSAGES",
    "VIEW_CHANNEL",
    "Attachment",
    "Channel",
    "CommandError",
    "Edit",
    "FakeDiscord",
    "FaultHit",
    "Guild",
    "InteractionRecord",
    "InteractionResult",
    "Limit",
    "Member",
    "Message",
    "RateLimitConfig",
    "RateLimitHit",
    "Rejection",
    "Role",
    "User",
    "remote_connector",
]
