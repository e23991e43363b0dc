"""The fair limits per member of a benchmark's world: one server holds every
table, one host may open them all (soak), so nothing a real server's admins
would set stands in the way of the load being measured."""

from __future__ import annotations

from data.guilds import Limits

LOAD_LIMITS = Limits(hosted=1_000_000, seated=1_000_000, tables=1_000_000)
