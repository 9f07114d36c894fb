-- synthetic_baskets (sql/synthetic.sql) as Spark SQL; $name parameters left unbound
SELECT
  tid,
  EXPLODE(basket) AS item
FROM (
  SELECT
    tid,
    ARRAY_SORT(
      ARRAY_COMPACT(
        ARRAY_DISTINCT(
          ARRAY(
            SYNTHETIC_ITEM(SYNTHETIC_U($seed, 'item', tid, j), $items, $scatter) FOR j IN IF(
              (
                LEAST(
                  CAST(FLOOR($min_length * POWER(1 - SYNTHETIC_U($seed, 'length', tid, 0), -1 / $tail)) AS BIGINT),
                  $max_length
                ) - 1
              ) < 0,
              ARRAY(),
              SEQUENCE(
                0,
                (
                  LEAST(
                    CAST(FLOOR($min_length * POWER(1 - SYNTHETIC_U($seed, 'length', tid, 0), -1 / $tail)) AS BIGINT),
                    $max_length
                  ) - 1
                )
              )
            )
          ) || CASE
            WHEN SYNTHETIC_U($seed, 'has_pattern', tid, 0) < $pattern_share
            THEN ARRAY(
              SYNTHETIC_PATTERN_ITEM(
                $seed,
                SYNTHETIC_RANK(SYNTHETIC_U($seed, 'which', tid, 0), $patterns),
                j,
                $items,
                $scatter,
                $block
              ) FOR j IN IF(
                (
                  2 + CAST((
                    HASH(
                      $seed,
                      'pattern_length',
                      SYNTHETIC_RANK(SYNTHETIC_U($seed, 'which', tid, 0), $patterns),
                      0
                    ) % 4
                  ) AS BIGINT) - 1
                ) < 0,
                ARRAY(),
                SEQUENCE(
                  0,
                  (
                    2 + CAST((
                      HASH(
                        $seed,
                        'pattern_length',
                        SYNTHETIC_RANK(SYNTHETIC_U($seed, 'which', tid, 0), $patterns),
                        0
                      ) % 4
                    ) AS BIGINT) - 1
                  )
                )
              )
            )
            ELSE ARRAY()
          END
        )
      )
    ) AS basket
  FROM EXPLODE(
    IF((
      $transactions - 1
    ) < 0, ARRAY(), SEQUENCE(0, (
      $transactions - 1
    ))),
    _u(t)
  )
);
