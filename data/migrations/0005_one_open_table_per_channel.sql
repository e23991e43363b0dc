-- One open table (lobby or game in play) per channel, kept by the database
-- itself: two `/toep new` racing in one channel can no longer both pass the
-- check in memory and both be saved.
--
-- A database from before this rule may already hold two open tables in one
-- channel. The newest game in play stays; an older game in play in the same
-- channel is ended (unrated, as an admin's /toep end would), and a lobby
-- next to another open table is cancelled. Nothing is deleted.
UPDATE games SET status = 'cancelled', finished_at = created_at
WHERE status = 'lobby'
  AND EXISTS (SELECT 1 FROM games other
              WHERE other.channel_id = games.channel_id AND other.id <> games.id
                AND (other.status = 'playing'
                     OR (other.status = 'lobby' AND other.id > games.id)));

UPDATE games SET status = 'ended', finished_at = COALESCE(started_at, created_at)
WHERE status = 'playing'
  AND EXISTS (SELECT 1 FROM games other
              WHERE other.channel_id = games.channel_id AND other.status = 'playing'
                AND other.id > games.id);

CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id)
WHERE status IN ('lobby', 'playing');
