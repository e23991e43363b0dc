-- Who may act on a part of this database (data/lease.py). One row per
-- resource: 'database' (the whole of it, one bot process) now; 'shard:N' once
-- processes share a database by shards. A lease is held while its owner keeps
-- renewing it; one whose expires_at passed may be taken over by another owner.
CREATE TABLE leases (
    resource     TEXT PRIMARY KEY,
    owner        TEXT NOT NULL,  -- host:pid:random, new for every process start
    acquired_at  TEXT NOT NULL,  -- data/times.py format, UTC
    heartbeat_at TEXT NOT NULL,
    expires_at   TEXT NOT NULL
);
