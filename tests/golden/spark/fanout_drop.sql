-- fanout_drop (sql/hierarchy_build.sql, its :spark variant) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS fanout_tree;
