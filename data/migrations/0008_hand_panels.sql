-- The open hand panels: what a restarted bot needs to go on editing each one
-- (the interaction's application id and token, its owner, its game and its
-- language) until Discord's 15 minutes for the token run out. A token is a
-- secret: never logged; a row goes when its panel lapses or its game ends.
CREATE TABLE hand_panels (
    game_id        INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id        INTEGER NOT NULL,
    interaction_id INTEGER NOT NULL,
    application_id INTEGER NOT NULL,
    token          TEXT NOT NULL,
    lang           TEXT NOT NULL CHECK (lang IN ('en', 'nl')),
    opened_at      TEXT NOT NULL,
    expires_at     TEXT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

CREATE INDEX hand_panels_expiry ON hand_panels (expires_at);

CREATE TRIGGER hand_panels_gone AFTER UPDATE OF status ON games
WHEN NEW.status NOT IN ('lobby', 'playing')
BEGIN
    DELETE FROM hand_panels WHERE game_id = NEW.id;
END;
