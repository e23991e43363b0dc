"""The chalk table in a browser and inside Discord (an Activity): its server
(web/server/, aiohttp in the bot process) and its client (web/client/, plain
HTML, CSS and JavaScript served as they are committed)."""
