-- synthetic_macro_rank (sql/synthetic.sql) as Spark SQL; $name parameters left unbound
CREATE OR REPLACE TEMPORARY MACRO synthetic_rank(
    u,
    n
) AS
LEAST(CAST(FLOOR(EXP(u * LN(n))) AS BIGINT) - 1, n - 1);
