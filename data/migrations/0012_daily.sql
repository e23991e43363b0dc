-- Toep van de dag (the daily duplicate, docs/rules.md "Duplicate boards").
-- A server's daily settings, set by its admins: the time zone its day runs
-- in (an IANA name) and the channel a closing day's results go to (none: no
-- message).
CREATE TABLE daily_settings (
    guild_id   INTEGER PRIMARY KEY,
    time_zone  TEXT NOT NULL DEFAULT 'UTC',
    channel_id INTEGER
);

-- One day of a server, or one tournament an admin opened on the same kind
-- of boards: its key (the day's date, or "tournament-" and when it opened),
-- its kind, its secret seed (shown only once closed), the seed's SHA-256
-- (shown from the start), how many boards, when it closes (UTC, ISO 8601),
-- the par of each board (JSON: a list of score lists, or NULL until worked
-- out), whether it was closed, and for a tournament the channel its results
-- go to.
CREATE TABLE daily_days (
    guild_id   INTEGER NOT NULL,
    day        TEXT NOT NULL,
    kind       TEXT NOT NULL DEFAULT 'day' CHECK (kind IN ('day', 'tournament')),
    channel_id INTEGER,
    seed       TEXT NOT NULL,
    commitment TEXT NOT NULL,
    boards     INTEGER NOT NULL CHECK (boards >= 1),
    closes_at  TEXT NOT NULL,
    par        TEXT,
    closed     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, day)
);

-- A member's boards of a day: the events of each board so far (JSON, the
-- record's events), saved with every choice, and its score once its round
-- has ended.
CREATE TABLE daily_boards (
    guild_id INTEGER NOT NULL,
    day      TEXT NOT NULL,
    user_id  INTEGER NOT NULL,
    board    INTEGER NOT NULL CHECK (board >= 0),
    name     TEXT NOT NULL,
    events   TEXT NOT NULL,
    score    INTEGER,
    PRIMARY KEY (guild_id, day, user_id, board),
    FOREIGN KEY (guild_id, day) REFERENCES daily_days (guild_id, day) ON DELETE CASCADE
);

-- A member's daily figures in a server, apart from the table rating: the
-- duplicate rating, days finished, the streak of days in a row and the day
-- it last grew.
CREATE TABLE daily_players (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    rating      REAL NOT NULL DEFAULT 1500,
    days        INTEGER NOT NULL DEFAULT 0,
    streak      INTEGER NOT NULL DEFAULT 0,
    best_streak INTEGER NOT NULL DEFAULT 0,
    last_day    TEXT,
    PRIMARY KEY (guild_id, user_id)
);
