-- A ban's start and its lifting are told to the player privately, once, at
-- their next interaction with the bot in that server (cogs/ban_notices.py).
-- When each was told; NULL: not yet. Kept with the ban, so a restart loses
-- no notice and a notice exists exactly when its ban or lifting does.
ALTER TABLE bans ADD COLUMN start_told_at TEXT;
ALTER TABLE bans ADD COLUMN lift_told_at TEXT;

-- Bans from before this migration are old news: nobody is told of them now.
UPDATE bans SET start_told_at = since;
UPDATE bans SET lift_told_at = lifted_at WHERE lifted_at IS NOT NULL;
