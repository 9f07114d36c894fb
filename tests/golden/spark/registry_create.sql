-- registry_create (sql/registry.sql) as Spark SQL; $name parameters left unbound
CREATE SCHEMA setanon;

DROP TABLE IF EXISTS meta;

CREATE TABLE setanon.meta (
  key STRING,
  value STRING
)
USING PARQUET;

INSERT INTO setanon.meta
VALUES
  ('created_by', 'setanon-sql'),
  ('format', '1');

DROP TABLE IF EXISTS datasets;

CREATE TABLE setanon.datasets (
  dataset_id INT,
  schema_name STRING,
  kind STRING, /* transactions | table */
  source STRING, /* the file (absolute path) or 'python' */
  format STRING, /* spmf, lines, csv, parquet, duckdb, python */
  reader STRING, /* how it was read (table, columns...), as JSON */
  fingerprint STRING, /* of the content as loaded */
  file_size BIGINT,
  file_mtime_ns BIGINT,
  rows BIGINT, /* transactions, or table rows */
  items BIGINT, /* distinct items, or columns */
  created TIMESTAMP_NTZ
)
USING PARQUET;

DROP TABLE IF EXISTS hierarchies;

CREATE TABLE setanon.hierarchies (
  hierarchy_id INT,
  dataset_id INT,
  schema_name STRING,
  source STRING, /* file, or how it was built (fanout 5, code-prefix, edges) */
  fingerprint STRING, /* of its (child, parent) edges */
  nodes INT,
  leaves INT,
  height INT,
  created TIMESTAMP_NTZ
)
USING PARQUET;

DROP TABLE IF EXISTS runs;

CREATE TABLE setanon.runs (
  run_id INT,
  name STRING, /* the run's schema */
  kind STRING, /* transactions | table */
  dataset_id INT,
  hierarchy_id INT,
  algorithm STRING,
  params STRING, /* JSON */
  status STRING, /* running | complete | failed | replaced */
  started TIMESTAMP_NTZ,
  finished TIMESTAMP_NTZ,
  seconds DOUBLE,
  results STRING, /* JSON: verification and loss */
  message STRING
)
USING PARQUET;

DROP TABLE IF EXISTS objects;

CREATE TABLE setanon.objects (
  schema_name STRING,
  table_name STRING, /* NULL for the schema itself */
  owner STRING, /* registry | dataset | hierarchy | run | output */
  owner_id INT,
  created TIMESTAMP_NTZ
)
USING PARQUET;

INSERT INTO setanon.objects
VALUES
  ('setanon', NULL, 'registry', 0, CURRENT_TIMESTAMP());
