-- The DuckDB connection's own statements: transactions, settings read back, and what DuckDB's
-- catalog holds. Settings are written by `engine/ddl.py` (`setting`), whose names and values
-- the tool chooses.

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

-- name: table_exists
-- Whether schema $schema of catalog $catalog holds a table named exactly $table (`found`).
SELECT count(*) AS found
FROM information_schema.tables
WHERE table_catalog = $catalog AND table_schema = $schema AND table_name = $table;

-- name: table_exists_any_case
-- Whether schema $schema of catalog $catalog holds a table $table, names compared without
-- case as DuckDB resolves them (`found`).
SELECT count(*) AS found
FROM information_schema.tables
WHERE table_catalog = $catalog AND lower(table_schema) = lower($schema)
  AND lower(table_name) = lower($table);

-- name: schema_exists_any_case
-- Whether catalog $catalog holds a schema $schema, names compared without case (`found`).
SELECT count(*) AS found
FROM information_schema.schemata
WHERE catalog_name = $catalog AND lower(schema_name) = lower($schema);
