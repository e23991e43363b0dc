-- Small facts the bot keeps about itself, such as the hash of the slash
-- commands it last synced (so it syncs only when they changed).
CREATE TABLE bot_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
