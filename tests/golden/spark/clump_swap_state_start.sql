-- clump_swap_state_start (sql/clump.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS clump_dirty;

CREATE TABLE clump_dirty
USING PARQUET AS
SELECT DISTINCT
  cluster
FROM cluster_of;

DROP TABLE IF EXISTS clump_swap_member;

CREATE TABLE clump_swap_member (
  tid BIGINT,
  cluster INT,
  len BIGINT
)
USING PARQUET;

DROP TABLE IF EXISTS clump_swap_node;

CREATE TABLE clump_swap_node (
  cluster INT,
  node INT,
  w BIGINT,
  present BIGINT,
  counts ARRAY<INT>
)
USING PARQUET;

DROP TABLE IF EXISTS clump_swap_cost;

CREATE TABLE clump_swap_cost (
  cluster INT,
  size BIGINT,
  items BIGINT,
  cost BIGINT
)
USING PARQUET;

DROP TABLE IF EXISTS clump_swap_loo;

CREATE TABLE clump_swap_loo (
  cluster INT,
  out BIGINT,
  node INT,
  w BIGINT,
  c INT
)
USING PARQUET;

DROP TABLE IF EXISTS clump_swap_misfit;

CREATE TABLE clump_swap_misfit (
  cluster INT,
  tid BIGINT,
  len BIGINT
)
USING PARQUET;
