-- synthetic_macro_item (sql/synthetic.sql) as Spark SQL; $name parameters left unbound
CREATE OR REPLACE TEMPORARY MACRO synthetic_item(
    u,
    n,
    scatter
) AS
(
  SYNTHETIC_RANK(u, n) * scatter + 7
) % n;
