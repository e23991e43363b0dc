-- 0001: the first schema. Timestamps are ISO-8601 UTC text with microseconds
-- (data/times.py), so text order is time order. JSON columns hold objects.
-- Never edit this file once landed: add 0002_... instead.

CREATE TABLE guild_settings (
    guild_id     INTEGER PRIMARY KEY,
    language     TEXT CHECK (language IN ('en', 'nl')),
    public_rules TEXT NOT NULL DEFAULT '{}'
                 CHECK (json_valid(public_rules) AND json_type(public_rules) = 'object')
);

CREATE TABLE games (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    message_id   INTEGER,
    host_id      INTEGER NOT NULL,
    public       INTEGER NOT NULL CHECK (public IN (0, 1)),
    rules        TEXT NOT NULL CHECK (json_valid(rules) AND json_type(rules) = 'object'),
    seed         INTEGER NOT NULL,
    status       TEXT NOT NULL DEFAULT 'lobby'
                 CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled', 'ended')),
    rated        INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1)),
    first_leader INTEGER CHECK (first_leader >= 0),
    created_at   TEXT NOT NULL,
    started_at   TEXT,
    finished_at  TEXT
);

-- restart recovery reads only the open games
CREATE INDEX games_open ON games (status) WHERE status IN ('lobby', 'playing');

CREATE TABLE seats (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL CHECK (seat >= 0),
    user_id       INTEGER,
    computer      TEXT,
    name          TEXT NOT NULL,
    marks         INTEGER CHECK (marks >= 0),
    place         INTEGER CHECK (place >= 1),
    forfeited     INTEGER NOT NULL DEFAULT 0 CHECK (forfeited IN (0, 1)),
    forfeit_order INTEGER CHECK (forfeit_order >= 1),
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id),
    -- a seat is a person or a computer player, never both or neither
    CHECK ((user_id IS NULL) <> (computer IS NULL))
) WITHOUT ROWID;

-- history of one user: their seats, newest game first
CREATE INDEX seats_by_user ON seats (user_id, game_id) WHERE user_id IS NOT NULL;

CREATE TABLE invites (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;

-- the event log: append-only, numbered from 0 per game (write-ahead)
CREATE TABLE game_events (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    n       INTEGER NOT NULL CHECK (n >= 0),
    body    TEXT NOT NULL CHECK (json_valid(body) AND json_type(body) = 'object'),
    PRIMARY KEY (game_id, n)
) WITHOUT ROWID;

-- the chance log: one row per deal, numbered from 0 per game
CREATE TABLE game_deals (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    n       INTEGER NOT NULL CHECK (n >= 0),
    body    TEXT NOT NULL CHECK (json_valid(body) AND json_type(body) = 'object'),
    PRIMARY KEY (game_id, n)
) WITHOUT ROWID;

-- nobody rewrites history: the logs only grow
CREATE TRIGGER game_events_no_update BEFORE UPDATE ON game_events
BEGIN
    SELECT RAISE(ABORT, 'the event log is append-only');
END;

CREATE TRIGGER game_deals_no_update BEFORE UPDATE ON game_deals
BEGIN
    SELECT RAISE(ABORT, 'the deal log is append-only');
END;

CREATE TABLE forfeits (
    id       INTEGER PRIMARY KEY,
    game_id  INTEGER NOT NULL REFERENCES games (id),
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    kind     TEXT NOT NULL CHECK (kind IN ('timeout', 'walkout')),
    at       TEXT NOT NULL,
    UNIQUE (game_id, user_id)
);

CREATE INDEX forfeits_by_user ON forfeits (guild_id, user_id, at);

CREATE TABLE bans (
    id        INTEGER PRIMARY KEY,
    guild_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    since     TEXT NOT NULL,
    until     TEXT NOT NULL,
    lifted_by INTEGER,
    lifted_at TEXT,
    CHECK (until > since),
    CHECK ((lifted_by IS NULL) = (lifted_at IS NULL))
);

CREATE INDEX bans_by_user ON bans (guild_id, user_id, since);
CREATE INDEX bans_by_guild ON bans (guild_id, until);

-- per guild and user: counters of finished games and the openskill rating
CREATE TABLE player_stats (
    guild_id          INTEGER NOT NULL,
    user_id           INTEGER NOT NULL,
    games             INTEGER NOT NULL DEFAULT 0,
    wins              INTEGER NOT NULL DEFAULT 0,
    rounds            INTEGER NOT NULL DEFAULT 0,
    rounds_won        INTEGER NOT NULL DEFAULT 0,
    marks             INTEGER NOT NULL DEFAULT 0,
    toeps             INTEGER NOT NULL DEFAULT 0,
    toeps_won         INTEGER NOT NULL DEFAULT 0,
    folds             INTEGER NOT NULL DEFAULT 0,
    vuile_was         INTEGER NOT NULL DEFAULT 0,
    vuile_was_caught  INTEGER NOT NULL DEFAULT 0,
    checks            INTEGER NOT NULL DEFAULT 0,
    checks_right      INTEGER NOT NULL DEFAULT 0,
    dead_man_rounds   INTEGER NOT NULL DEFAULT 0,
    dead_man_survived INTEGER NOT NULL DEFAULT 0,
    rated_games       INTEGER NOT NULL DEFAULT 0,
    mu                REAL NOT NULL,
    sigma             REAL NOT NULL CHECK (sigma > 0),
    ordinal           REAL GENERATED ALWAYS AS (mu - 3 * sigma) VIRTUAL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

-- the leaderboard walks this index in order
CREATE INDEX player_stats_board ON player_stats (guild_id, ordinal DESC, user_id);
