-- synthetic_macro_pattern_item (sql/synthetic.sql) as Spark SQL; $name parameters left unbound
CREATE OR REPLACE TEMPORARY MACRO synthetic_pattern_item(
    seed,
    p,
    j,
    n,
    scatter,
    block
) AS
CASE
  WHEN SYNTHETIC_U(seed, 'local', p, 0) < 0.5
  THEN LEAST(
    SYNTHETIC_ITEM(SYNTHETIC_U(seed, 'anchor', p, 0), n, scatter) DIV block * block + CAST((
      HASH(seed, 'in_block', p, j) % block
    ) AS BIGINT),
    n - 1
  )
  ELSE SYNTHETIC_ITEM(SYNTHETIC_U(seed, 'pattern', p, j), n, scatter)
END;
