-- dis_shared_of_joints (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DELETE FROM dis_shared
WHERE
  NOT joint IN (
    SELECT
      joint
    FROM dis_joint
  );
