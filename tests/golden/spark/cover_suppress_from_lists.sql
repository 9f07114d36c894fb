-- cover_suppress_from_lists (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
INSERT INTO dis_suppressed
SELECT
  EXPLODE(CAST($tid AS ARRAY<BIGINT>)) AS tid,
  EXPLODE(CAST($item AS ARRAY<INT>)) AS item;
