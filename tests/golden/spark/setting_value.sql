-- setting_value (sql/engine.sql) as Spark SQL; $name parameters left unbound
SELECT
  CURRENT_SETTING($name) AS value;
