-- The DuckDB connection's own statements: transactions and settings read back. Settings are
-- written by `engine/ddl.py` (`setting`), whose names and values the tool chooses.

-- name: transaction_begin
-- Opens a transaction: what follows is committed whole or not at all.
BEGIN TRANSACTION;

-- name: transaction_commit
-- Commits the open transaction.
COMMIT;

-- name: transaction_rollback
-- Rolls the open transaction back, so the state before it survives whole.
ROLLBACK;

-- name: setting_value
-- A DuckDB setting's current value, as text (`value`).
SELECT current_setting($name) AS value;

-- name: current_schema
-- The schema unqualified new tables go to (`schema`).
SELECT current_schema() AS schema;
