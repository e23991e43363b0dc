-- The base of the round in play of each game (engine/round_base.py): what a
-- restart needs to replay only that round's events. A shortcut, never the
-- truth: the event log is. Written in the transaction that saves the event
-- beginning the round; replaced each round; gone when the game is.
CREATE TABLE game_round_bases (
    game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    body    TEXT NOT NULL CHECK (json_valid(body) AND json_type(body) = 'object')
);

CREATE TRIGGER game_round_bases_gone AFTER UPDATE OF status ON games
WHEN NEW.status NOT IN ('lobby', 'playing')
BEGIN
    DELETE FROM game_round_bases WHERE game_id = NEW.id;
END;
