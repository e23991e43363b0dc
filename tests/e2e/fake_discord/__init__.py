"""A fake Discord (REST + gateway over TLS) that the unmodified discord.py connects to.

See tests/e2e/README.md for how to use it.
"""

from .driver import FakeDiscord
from .interactions import InteractionRecord
from .models import Attachment, Channel, Edit, Guild, Member, Message, Role, User
from .options import CommandError
from .ratelimit import Limit, RateLimitConfig
from .resolver import remote_connector
from .results import InteractionResult
from .store import RateLimitHit, Rejection

__all__ = [
    "Attachment",
    "Channel",
    "CommandError",
    "Edit",
    "FakeDiscord",
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
