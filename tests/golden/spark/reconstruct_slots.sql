-- reconstruct_slots (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS reconstruct_slot;

CREATE TABLE reconstruct_slot
USING PARQUET AS
SELECT
  cluster,
  EXPLODE(IF((
    size + 1 - 1
  ) < 1, ARRAY(), SEQUENCE(1, (
    size + 1 - 1
  )))) AS slot
FROM clusters;
