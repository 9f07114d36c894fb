-- The registry: what setanon-sql created in a database, in schema `setanon`. The tool drops
-- only what these tables say it created. Identifiers of new schemas are chosen by the driver.

-- name: registry_create
-- The registry's tables: its marker, the datasets, their hierarchies, the runs, and every schema
-- or table the tool made.
CREATE SCHEMA setanon;
CREATE TABLE setanon.meta (key VARCHAR, value VARCHAR);
INSERT INTO setanon.meta VALUES ('created_by', 'setanon-sql'), ('format', '1');
CREATE TABLE setanon.datasets (
    dataset_id INTEGER,
    schema_name VARCHAR,
    kind VARCHAR,          -- transactions | table
    source VARCHAR,        -- the file (absolute path) or 'python'
    format VARCHAR,        -- spmf, lines, csv, parquet, duckdb, python
    reader VARCHAR,        -- how it was read (table, columns...), as JSON
    fingerprint VARCHAR,   -- of the content as loaded
    file_size BIGINT,
    file_mtime_ns BIGINT,
    rows BIGINT,           -- transactions, or table rows
    items BIGINT,          -- distinct items, or columns
    created TIMESTAMP
);
CREATE TABLE setanon.hierarchies (
    hierarchy_id INTEGER,
    dataset_id INTEGER,
    schema_name VARCHAR,
    source VARCHAR,        -- file, or how it was built (fanout 5, code-prefix, edges)
    fingerprint VARCHAR,   -- of its (child, parent) edges
    nodes INTEGER,
    leaves INTEGER,
    height INTEGER,
    created TIMESTAMP
);
CREATE TABLE setanon.runs (
    run_id INTEGER,
    name VARCHAR,          -- the run's schema
    kind VARCHAR,          -- transactions | table
    dataset_id INTEGER,
    hierarchy_id INTEGER,
    algorithm VARCHAR,
    params VARCHAR,        -- JSON
    status VARCHAR,        -- running | complete | failed | replaced
    started TIMESTAMP,
    finished TIMESTAMP,
    seconds DOUBLE,
    results VARCHAR,       -- JSON: verification and loss
    message VARCHAR
);
CREATE TABLE setanon.objects (
    schema_name VARCHAR,
    table_name VARCHAR,    -- NULL for the schema itself
    owner VARCHAR,         -- registry | dataset | hierarchy | run | output
    owner_id INTEGER,
    created TIMESTAMP
);
INSERT INTO setanon.objects VALUES ('setanon', NULL, 'registry', 0, current_timestamp);

-- name: registry_schema_exists
-- Whether the database holds a schema named $schema (`found` 0 or 1).
SELECT count(*) AS found
FROM information_schema.schemata
WHERE catalog_name = $catalog AND schema_name = $schema;

-- name: registry_marker_table_exists
-- Whether schema $schema holds the registry's marker table `meta` (`found` 0 or 1).
SELECT count(*) AS found
FROM information_schema.tables
WHERE table_catalog = $catalog AND table_schema = $schema AND table_name = 'meta';

-- name: registry_marker
-- The registry's marker row: present only in a `setanon` schema this tool created.
SELECT value FROM setanon.meta WHERE key = 'created_by';

-- name: registry_record_object
-- Record one schema (table_name NULL) or table as made by the tool.
INSERT INTO setanon.objects VALUES ($schema, $table, $owner, $owner_id, current_timestamp);

-- name: registry_record_tables
-- Record every table and view of an owned schema that is not recorded yet.
INSERT INTO setanon.objects
SELECT t.table_schema, t.table_name, $owner, $owner_id, current_timestamp
FROM information_schema.tables AS t
WHERE t.table_catalog = $catalog AND t.table_schema = $schema
  AND NOT EXISTS (
      SELECT 1 FROM setanon.objects AS o
      WHERE o.schema_name = t.table_schema AND o.table_name = t.table_name
  );

-- name: registry_foreign_tables
-- Tables and views of a schema that the tool did not record: whatever else is in it.
SELECT t.table_name
FROM information_schema.tables AS t
WHERE t.table_catalog = $catalog AND t.table_schema = $schema
  AND NOT EXISTS (
      SELECT 1 FROM setanon.objects AS o
      WHERE o.schema_name = t.table_schema AND o.table_name = t.table_name
  )
ORDER BY 1;

-- name: registry_tables_of
-- The tables of one of the tool's schemas, in name order.
SELECT t.table_name
FROM information_schema.tables AS t
WHERE t.table_catalog = $catalog AND t.table_schema = $schema
ORDER BY 1;

-- name: registry_owner_of
-- Who made a schema (table NULL) or a table, if the tool made it.
SELECT owner, owner_id FROM setanon.objects
WHERE schema_name = $schema AND table_name IS NOT DISTINCT FROM $table;

-- name: registry_forget_schema
-- Forget a dropped schema and its tables.
DELETE FROM setanon.objects WHERE schema_name = $schema;

-- name: registry_forget_table
-- Forget a dropped table.
DELETE FROM setanon.objects WHERE schema_name = $schema AND table_name = $table;

-- name: registry_name_taken
-- Whether a name is taken by any schema, or by any table of any schema, of this database.
SELECT EXISTS (
    SELECT 1 FROM information_schema.schemata
    WHERE catalog_name = $catalog AND lower(schema_name) = lower($name)
) OR EXISTS (
    SELECT 1 FROM information_schema.tables
    WHERE table_catalog = $catalog AND lower(table_name) = lower($name)
) AS taken;

-- name: registry_dataset_by_file
-- A transactions or table dataset read from this very file with these reading options, if the
-- file's size and modification time are still what they were.
SELECT * FROM setanon.datasets
WHERE kind = $kind AND source = $source AND reader = $reader
  AND file_size = $size AND file_mtime_ns = $mtime
ORDER BY dataset_id DESC
LIMIT 1;

-- name: registry_dataset_by_fingerprint
-- A dataset with this content.
SELECT * FROM setanon.datasets
WHERE kind = $kind AND fingerprint = $fingerprint
ORDER BY dataset_id DESC
LIMIT 1;

-- name: registry_dataset
-- One dataset by id.
SELECT * FROM setanon.datasets WHERE dataset_id = $id;

-- name: registry_datasets
-- Every dataset with its hierarchies and runs counted.
SELECT d.dataset_id, d.kind, d.schema_name, d.source, d.format, d.rows, d.items, d.fingerprint,
       d.created,
       (SELECT count(*) FROM setanon.hierarchies AS h WHERE h.dataset_id = d.dataset_id)
           AS hierarchies,
       (SELECT count(*) FROM setanon.runs AS r
        WHERE r.dataset_id = d.dataset_id AND r.status = 'complete') AS runs
FROM setanon.datasets AS d
ORDER BY d.dataset_id;

-- name: registry_sources
-- The files the datasets and hierarchies were read from (or how they were made), which no
-- output of the tool may replace.
SELECT source FROM setanon.datasets
UNION
SELECT source FROM setanon.hierarchies;

-- name: registry_files_exists
-- Whether the registry has its table of files read (`found` 0 or 1; a database made before
-- it has not).
SELECT count(*) AS found
FROM information_schema.tables
WHERE table_catalog = $catalog AND table_schema = 'setanon' AND table_name = 'files';

-- name: registry_create_files
-- The files read that `datasets` and `hierarchies` do not name: every file a dataset found by
-- its content was loaded from, a hierarchy's found by its edges, a table run's taxonomies and
-- hierarchy; owner is dataset | hierarchy | run.
CREATE TABLE IF NOT EXISTS setanon.files (
    path VARCHAR,
    owner VARCHAR,
    owner_id INTEGER,
    created TIMESTAMP
);

-- name: registry_record_file
-- Record that `owner` read the file $path, once.
INSERT INTO setanon.files
SELECT $path, $owner, $owner_id, current_timestamp
WHERE NOT EXISTS (
    SELECT 1 FROM setanon.files WHERE path = $path AND owner = $owner AND owner_id = $owner_id
);

-- name: registry_file_sources
-- The files `files` records: a dataset's and a hierarchy's, and a run's while it is the
-- complete run of its name.
SELECT f.path AS source
FROM setanon.files AS f
WHERE f.owner <> 'run'
   OR EXISTS (
       SELECT 1 FROM setanon.runs AS r WHERE r.run_id = f.owner_id AND r.status = 'complete'
   );

-- name: registry_add_dataset
-- Record a new dataset.
INSERT INTO setanon.datasets VALUES (
    $id, $schema, $kind, $source, $format, $reader, $fingerprint, $size, $mtime, $rows, $items,
    current_timestamp
);

-- name: registry_next_ids
-- The next free dataset, hierarchy and run ids.
SELECT (SELECT coalesce(max(dataset_id), 0) + 1 FROM setanon.datasets) AS dataset,
       (SELECT coalesce(max(hierarchy_id), 0) + 1 FROM setanon.hierarchies) AS hierarchy,
       (SELECT coalesce(max(run_id), 0) + 1 FROM setanon.runs) AS run;

-- name: registry_hierarchy_by_fingerprint
-- A hierarchy of this dataset with these edges.
SELECT * FROM setanon.hierarchies
WHERE dataset_id = $dataset AND fingerprint = $fingerprint
ORDER BY hierarchy_id DESC
LIMIT 1;

-- name: registry_hierarchies_of
-- The hierarchies of a dataset.
SELECT * FROM setanon.hierarchies WHERE dataset_id = $dataset ORDER BY hierarchy_id;

-- name: registry_hierarchy
-- One hierarchy by id.
SELECT * FROM setanon.hierarchies WHERE hierarchy_id = $id;

-- name: registry_add_hierarchy
-- Record a new hierarchy of a dataset.
INSERT INTO setanon.hierarchies VALUES (
    $id, $dataset, $schema, $source, $fingerprint, $nodes, $leaves, $height, current_timestamp
);

-- name: registry_start_run
-- Record a run as running.
INSERT INTO setanon.runs VALUES (
    $id, $name, $kind, $dataset, $hierarchy, $algorithm, $params, 'running', current_timestamp,
    NULL, NULL, NULL, NULL
);

-- name: registry_end_run
-- Record how a run ended.
UPDATE setanon.runs
SET status = $status, finished = current_timestamp, seconds = $seconds, results = $results,
    message = $message
WHERE run_id = $id;

-- name: registry_retire_run
-- Mark a run whose schema was dropped (replaced by a new run of its name).
UPDATE setanon.runs SET status = $status WHERE run_id = $id;

-- name: registry_rename_run
-- A replacement run, built under a schema of its own, takes the name of the run it replaced.
UPDATE setanon.runs SET name = $name WHERE run_id = $id;

-- name: registry_run_by_name
-- The live (running or complete) run of a name.
SELECT * FROM setanon.runs
WHERE name = $name AND status IN ('running', 'complete')
ORDER BY run_id DESC
LIMIT 1;

-- name: registry_stale_runs
-- Runs still marked running: their process ended without saying how (killed).
SELECT run_id, name FROM setanon.runs WHERE status = 'running' ORDER BY run_id;

-- name: registry_runs
-- Every run with its dataset and hierarchy.
SELECT r.run_id, r.name, r.kind, r.status, r.algorithm, r.params, r.dataset_id, d.source,
       r.hierarchy_id, h.source AS hierarchy, r.started, r.seconds, r.results, r.message
FROM setanon.runs AS r
LEFT JOIN setanon.datasets AS d USING (dataset_id)
LEFT JOIN setanon.hierarchies AS h USING (hierarchy_id)
ORDER BY r.run_id;
