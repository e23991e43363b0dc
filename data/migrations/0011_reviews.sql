-- A finished game's review, for one seat (issue 27: /toep review and the
-- Review button). Worked out once, in a worker process, and kept: a second
-- ask reads it here. `version` names the review's format and settings, so a
-- better analysis later reviews the game anew instead of showing an old one.
-- `body`: the JSON the review cog renders (cogs/review_work.py).
CREATE TABLE reviews (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL CHECK (seat >= 0),
    version    TEXT NOT NULL,
    body       TEXT NOT NULL CHECK (json_valid(body) AND json_type(body) = 'object'),
    created_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seat, version)
) WITHOUT ROWID;
