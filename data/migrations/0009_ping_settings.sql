-- Who wants turn pings (issue 26). A member's own choice, per server, from
-- /toep settings ping: (no row, or NULL: the server's default), and the
-- server's default from /toep-admin settings (NULL: "when idle").
CREATE TABLE member_settings (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    ping     TEXT CHECK (ping IN ('always', 'idle', 'never')),
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

ALTER TABLE guild_settings ADD COLUMN ping TEXT CHECK (ping IN ('always', 'idle', 'never'));
