"""Login, gateway discovery, application info, command sync, and a few lookups."""

from __future__ import annotations

from aiohttp import web

from .commands import command_problems, register
from .core import Core, json_response
from .models import Json
from .router import Call, Route


async def me(core: Core, call: Call) -> web.StreamResponse:
    return json_response(
        {
            **core.bot.payload(),
            "verified": True,
            "mfa_enabled": False,
            "flags": 0,
            "email": None,
            "locale": "en-US",
        }
    )


async def gateway(core: Core, call: Call) -> web.StreamResponse:
    body: Json = {"url": "wss://gateway.discord.gg"}
    if call.request.path.endswith("/bot"):
        body |= {
            "shards": core.settings.recommended_shards,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 14_400_000,
                "max_concurrency": core.settings.max_concurrency,
            },
        }
    return json_response(body)


async def application(core: Core, call: Call) -> web.StreamResponse:
    return json_response(
        {
            "id": str(core.application_id),
            "name": core.bot.name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "flags": 0,
            "owner": {
                "id": "1",
                "username": "owner",
                "discriminator": "0",
                "avatar": None,
                "global_name": "owner",
                "public_flags": 0,
            },
            "team": None,
            "bot": core.bot.payload(),
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "approximate_guild_count": len(core.store.guilds),
        }
    )


def _command_list(core: Core, call: Call) -> tuple[list[Json], int | None] | web.Response:
    if call.param("application_id") != core.application_id:
        return core.reject(call.request, 403, 50001, "Missing Access")
    if "guild_id" not in call.params:
        return core.store.global_commands, None
    guild_id = call.param("guild_id")
    if guild_id not in core.store.guilds:
        return core.reject(call.request, 403, 50001, "Missing Access")
    return core.store.guild_commands.setdefault(guild_id, []), guild_id


async def commands(core: Core, call: Call) -> web.StreamResponse:
    found = _command_list(core, call)
    if isinstance(found, web.Response):
        return found
    current, guild_id = found
    if call.request.method == "GET":
        return json_response(current)
    incoming = call.body if call.request.method == "PUT" else [call.body]
    problems = command_problems(incoming)
    if problems:
        return core.invalid(call.request, problems)
    stored = register(incoming, current, core.store.ids, core.application_id, guild_id)
    if call.request.method == "PUT":
        current[:] = stored
    else:  # POST upserts one command by name
        current[:] = [c for c in current if c["name"] != stored[0]["name"]] + stored
    core.store.touch()
    return json_response(stored if call.request.method == "PUT" else stored[0])


async def user(core: Core, call: Call) -> web.StreamResponse:
    found = core.store.users.get(call.param("user_id"))
    if found is None:
        return core.reject(call.request, 404, 10013, "Unknown User")
    return json_response(found.payload())


async def guild(core: Core, call: Call) -> web.StreamResponse:
    found = core.store.guilds.get(call.param("guild_id"))
    if found is None:
        return core.reject(call.request, 404, 10004, "Unknown Guild")
    if call.request.path.endswith("/channels"):
        return json_response([c.payload() for c in found.channels.values()])
    body = found.payload([])
    return json_response({k: v for k, v in body.items() if k not in ("members", "channels")})


async def member(core: Core, call: Call) -> web.StreamResponse:
    found = core.store.guilds.get(call.param("guild_id"))
    if found is None or call.param("user_id") not in found.members:
        return core.reject(call.request, 404, 10007, "Unknown Member")
    return json_response(found.members[call.param("user_id")].payload())


_COMMANDS = "/applications/{application_id}"
ROUTES = [
    Route("GET", "/users/@me", me, bearer=True),
    Route("GET", "/users/{user_id}", user),
    Route("GET", "/gateway", gateway, auth=False),
    Route("GET", "/gateway/bot", gateway),
    Route("GET", "/oauth2/applications/@me", application),
    Route("GET", "/applications/@me", application),
    *[Route(m, _COMMANDS + "/commands", commands) for m in ("GET", "PUT", "POST")],
    *[
        Route(m, _COMMANDS + "/guilds/{guild_id}/commands", commands, major="guild_id")
        for m in ("GET", "PUT", "POST")
    ],
    Route("GET", "/guilds/{guild_id}", guild, major="guild_id"),
    Route("GET", "/guilds/{guild_id}/channels", guild, major="guild_id"),
    Route("GET", "/guilds/{guild_id}/members/{user_id}", member, major="guild_id"),
]
