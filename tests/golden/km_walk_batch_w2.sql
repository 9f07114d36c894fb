SELECT
  "v"."pos",
  LIST_SORT(LIST_DISTINCT(["v"."item_1", "v"."item_2"])) AS "itemset",
  LIST_SORT(
    LIST_DISTINCT([COALESCE("c1"."cover", "v"."item_1"), COALESCE("c2"."cover", "v"."item_2")])
  ) AS "image",
  NOT "c1"."cover" IS NULL OR NOT "c2"."cover" IS NULL AS "moved"
FROM "violations_l2" AS "v"
LEFT JOIN "cover" AS "c1"
  ON "c1"."node" = "v"."item_1"
LEFT JOIN "cover" AS "c2"
  ON "c2"."node" = "v"."item_2"
WHERE
  "v"."pos" BETWEEN $lo AND $hi
