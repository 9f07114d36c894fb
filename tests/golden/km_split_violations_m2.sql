SELECT DISTINCT
  *
FROM (
  SELECT
    "r1"."split_of" AS "split_1",
    CAST(NULL AS INT) AS "split_2",
    CASE WHEN "r1"."whole" THEN "r1"."node" END AS "kept_1",
    CAST(NULL AS INT) AS "kept_2"
  FROM (
    SELECT
      "i1"."node" AS "item_1",
      COUNT(*) AS "support"
    FROM "split_expanded" AS "i1"
    WHERE
      "i1"."is_child"
    GROUP BY
      "i1"."node"
    HAVING
      COUNT(*) < $k
  ) AS s1
  JOIN "split_node" AS "r1"
    ON "r1"."node" = "s1"."item_1"
  UNION ALL
  SELECT
    "r1"."split_of" AS "split_1",
    "r2"."split_of" AS "split_2",
    CASE WHEN "r1"."whole" THEN "r1"."node" END AS "kept_1",
    CASE WHEN "r2"."whole" THEN "r2"."node" END AS "kept_2"
  FROM (
    SELECT
      "i1"."node" AS "item_1",
      "i2"."node" AS "item_2",
      COUNT(*) AS "support"
    FROM "split_expanded" AS "i1"
    JOIN "split_expanded" AS "i2"
      ON (
        "i2"."tid" = "i1"."tid" AND "i2"."node" > "i1"."node"
      )
      AND "i2"."node" > "i1"."last"
    WHERE
      (
        "i1"."is_child" OR "i2"."is_child"
      ) AND "i1"."open" AND "i2"."open"
    GROUP BY
      "i1"."node",
      "i2"."node"
    HAVING
      COUNT(*) < $k
  ) AS s2
  JOIN "split_node" AS "r1"
    ON "r1"."node" = "s2"."item_1"
  JOIN "split_node" AS "r2"
    ON "r2"."node" = "s2"."item_2"
) AS needs
