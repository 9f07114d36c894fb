-- The two-table layout of a table with a set-valued column (issue 41): `rt_record_key(rid, key)`
-- every record's key, `rt_read_key(key)` every key read (before --drop-missing),
-- `rt_item_row(key, item, row)` the item rows in file order, keys as trimmed text on all sides.

-- name: rt_pair_problems
-- What the join of records and item rows cannot take, counted in one scan each, with a few
-- examples: records without a key, keys naming two records, item rows without a key or an
-- item, (key, item) rows given twice, keys of item rows without a record read, records
-- without item rows. (Rows of a record dropped for a missing value are no orphans.)
WITH records AS (
    SELECT key, count(*) AS n FROM rt_record_key WHERE key IS NOT NULL AND key <> '' GROUP BY key
), repeated AS (
    SELECT key, item, count(*) AS n
    FROM rt_item_row
    WHERE key IS NOT NULL AND key <> '' AND item IS NOT NULL AND item <> ''
    GROUP BY key, item
    HAVING count(*) > 1
), orphans AS (
    SELECT DISTINCT i.key
    FROM rt_item_row AS i
    WHERE i.key IS NOT NULL AND i.key <> ''
      AND NOT EXISTS (SELECT 1 FROM rt_read_key AS r WHERE r.key = i.key)
), bare AS (
    SELECT r.key
    FROM records AS r
    WHERE NOT EXISTS (
        SELECT 1 FROM rt_item_row AS i WHERE i.key = r.key AND i.item IS NOT NULL AND i.item <> ''
    )
)
SELECT (SELECT count(*) FROM rt_record_key WHERE key IS NULL OR key = '') AS null_keys,
       (SELECT count(*) FROM records WHERE n > 1) AS repeated_keys,
       (SELECT list(key ORDER BY key) FROM records WHERE n > 1)[1:3] AS repeated_examples,
       (SELECT count(*) FROM rt_item_row
        WHERE key IS NULL OR key = '' OR item IS NULL OR item = '') AS blank_rows,
       (SELECT coalesce(sum(n - 1), 0) FROM repeated) AS duplicate_rows,
       (SELECT list(key || ', ' || item ORDER BY key, item) FROM repeated)[1:3]
           AS duplicate_examples,
       (SELECT count(*) FROM orphans) AS orphan_keys,
       (SELECT list(key ORDER BY key) FROM orphans)[1:3] AS orphan_examples,
       (SELECT count(*) FROM bare) AS bare_records,
       (SELECT list(key ORDER BY key) FROM bare)[1:3] AS bare_examples;

-- name: rt_set_from_rows
-- Every record's items from the item rows, as a list in file order: the set column the
-- one-table search reads (`rt_set`).
CREATE OR REPLACE TABLE rt_set AS
SELECT r.rid, list(i.item ORDER BY i.row) AS items
FROM rt_record_key AS r
JOIN rt_item_row AS i ON i.key = r.key
GROUP BY r.rid
ORDER BY r.rid;
