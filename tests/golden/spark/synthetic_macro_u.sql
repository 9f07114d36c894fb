-- synthetic_macro_u (sql/synthetic.sql) as Spark SQL; $name parameters left unbound
CREATE OR REPLACE TEMPORARY MACRO synthetic_u(
    seed,
    what,
    a,
    b
) AS
CAST((
  SHIFTRIGHT(HASH(seed, what, a, b), 11)
) AS DOUBLE) / 9007199254740992.0;
