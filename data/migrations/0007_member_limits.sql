-- Fair limits per member, set by a server's admins in /toep-admin settings
-- (NULL: the bot's default): open lobbies a member may host, lobbies a member
-- may sit in at once, and live tables (lobbies and games) in the server.
ALTER TABLE guild_settings ADD COLUMN max_hosted INTEGER CHECK (max_hosted >= 1);
ALTER TABLE guild_settings ADD COLUMN max_seated INTEGER CHECK (max_seated >= 1);
ALTER TABLE guild_settings ADD COLUMN max_tables INTEGER CHECK (max_tables >= 1);

-- The invitations /toep invite posted in a lobby's channel: deleted when the
-- lobby starts or closes, so none stays behind as a live invite. Kept here so
-- a restart in between still finds them.
CREATE TABLE invitation_messages (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, message_id)
);
