-- Whether a closed day's results have reached its channel. A day is closed
-- and its ratings moved in one transaction; the post to Discord comes after
-- and may fail for a while (a 503, a restart in between): 0 until it has
-- been posted or there is nothing to post, tried again at every tick till
-- then. Days closed before this column existed count as posted.
ALTER TABLE daily_days ADD COLUMN posted INTEGER NOT NULL DEFAULT 1;
