-- registry_record_object (sql/registry.sql) as Spark SQL; $name parameters left unbound
INSERT INTO setanon.objects
VALUES
  ($schema, $table, $owner, $owner_id, CURRENT_TIMESTAMP());
