-- A run's own bookkeeping tables, read back the same way for every kind of run.

-- name: run_info_read
-- A run's `run_info`: what it ran with (algorithm, k, m, options) and what its search found.
SELECT key, value FROM run_info ORDER BY rowid;

-- name: sql_log_read
-- The statements a schema's `sql_log` (the table named by $log) recorded, in the order they
-- ran; only those of step $step unless it is NULL.
SELECT step, sql, params, seconds
FROM query_table($log)
WHERE $step IS NULL OR step = $step
ORDER BY seq;
