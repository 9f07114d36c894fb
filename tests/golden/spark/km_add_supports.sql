-- km_add_supports (sql/km_anonymity.sql) as Spark SQL; $name parameters left unbound
INSERT INTO itemset_supports
SELECT
  itemset,
  support,
  exact
FROM counted_supports;
