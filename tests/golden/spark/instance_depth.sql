-- instance_depth (sql/instance_loss.sql) as Spark SQL; $name parameters left unbound
SELECT
  COALESCE(MAX(depth), 0) AS depth
FROM instance_node;
