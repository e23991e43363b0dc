-- The message that pings whoever is on turn, kept like the table message:
-- a restarted bot deletes the ping it posted before instead of leaving it
-- in the channel for good.
ALTER TABLE games ADD COLUMN ping_id INTEGER;
