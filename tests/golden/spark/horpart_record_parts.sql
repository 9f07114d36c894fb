-- horpart_record_parts (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
INSERT INTO horpart_part
SELECT DISTINCT
  part,
  path,
  size,
  final,
  $level
FROM horpart_next;
