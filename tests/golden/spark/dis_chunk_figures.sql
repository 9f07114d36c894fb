-- dis_chunk_figures (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
SELECT
  (
    SELECT
      MAX(cluster)
    FROM cluster_members
  ) AS clusters,
  COUNT(DISTINCT (cluster, chunk)) AS chunks,
  COUNT(*) AS chunk_terms
FROM dis_chunk;
