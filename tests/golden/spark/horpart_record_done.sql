-- horpart_record_done (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
INSERT INTO horpart_done
SELECT
  tid,
  part
FROM horpart_next
WHERE
  final;
