-- A run's own bookkeeping tables, read back the same way for every kind of run.

-- name: run_info_read
-- A run's `run_info`: what it ran with (algorithm, k, m, options) and what its search found.
SELECT key, value FROM run_info ORDER BY rowid;
