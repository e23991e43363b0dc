-- Migration 0007 belongs to another branch; this file only fills the gap so
-- that 0008 applies here. The lead drops it when the branches are merged.
SELECT 1;
