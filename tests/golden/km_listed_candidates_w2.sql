SELECT
  LIST_SORT(LIST_DISTINCT(["c"."item_1", "c"."item_2"])) AS "itemset"
FROM "candidates" AS "c"
JOIN "violations_l2" AS "v"
  ON "v"."item_1" = "c"."item_1" AND "v"."item_2" = "c"."item_2"
