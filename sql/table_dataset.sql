-- Tables as datasets (store/tables.py): the table as read is the temp table `rel_raw`.

-- name: table_fingerprint
-- The table's rows and two digests of its rows in file order (each row hashed with its
-- position, so the same rows in another order are another table): what finds it loaded again.
SELECT count(*) AS rows,
       sum(hash(t.rowid, t)::HUGEINT) AS hash_sum,
       bit_xor(hash(t.rowid, t)) AS hash_xor
FROM rel_raw AS t;
