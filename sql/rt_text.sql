-- A text set column whose items may be quoted (issue 41): `rt_set(rid, items)` as read.

-- name: rt_labels_from_quoted_text
-- The items of a text set column split at the separator $sep, quoting respected as in CSV:
-- the separator is first made the one character $mark (itself when it is one character), then
-- a set holding a double quote is read item by item with $pattern (a quoted item may hold the
-- separator, "" inside it is one quote); one that does not rejoin to itself that way (a quote
-- left open, text after a closing quote), one that held $mark already, or an empty item is a
-- NULL label, which the blank-item check refuses. Each item once per record.
CREATE OR REPLACE TABLE rt_labels AS
WITH marked AS (
    SELECT rid, replace(items, $sep, $mark) AS text,
           $mark <> $sep AND contains(items, $mark) AS clash
    FROM rt_set
), parsed AS (
    SELECT rid, text, clash, contains(text, '"') AS quoted,
           CASE WHEN contains(text, '"') THEN regexp_extract_all(text, $pattern)
                ELSE string_split(text, $mark) END AS parts
    FROM marked
), labels AS (
    SELECT rid,
           CASE WHEN clash OR (quoted AND array_to_string(parts, $mark) <> text) THEN NULL
                WHEN quoted AND len(part) >= 2 AND starts_with(part, '"') AND ends_with(part, '"')
                    THEN replace(replace(part[2:-2], '""', '"'), $mark, $sep)
                ELSE part END AS label
    FROM (SELECT rid, text, clash, quoted, parts, unnest(parts) AS part FROM parsed)
)
SELECT DISTINCT rid, label FROM labels ORDER BY rid, label;

-- name: rt_release_sets_quoted
-- Every record's released set as text too (`text`): its labels in order joined by $sep, a
-- label holding a character of $sep or a double quote quoted as in CSV (with a separator of
-- several characters, `a:` before `::b` would read back as `a`, `:b`), so the release reads
-- back as it was meant.
CREATE OR REPLACE TABLE rt_release_sets AS
SELECT s.*, q.text
FROM rt_release_sets AS s
JOIN (
    SELECT rid,
           string_agg(CASE WHEN length(translate(label, $sep, '')) < length(label)
                             OR contains(label, '"')
                           THEN '"' || replace(label, '"', '""') || '"'
                           ELSE label END, $sep ORDER BY pos) AS text
    FROM (SELECT rid, unnest(labels) AS label, generate_subscripts(labels, 1) AS pos
          FROM rt_release_sets)
    GROUP BY rid
) AS q ON q.rid = s.rid
ORDER BY s.rid;

-- name: rt_release_set_quoted_text
-- The released set column of `rt_release_column(rid, items)`, text joined by $sep, read back
-- item by item with quoting respected (as `rt_labels_from_quoted_text`, $mark the separator as
-- one character): what the verifier checks. A set that does not read back is a NULL label,
-- which no node matches.
CREATE OR REPLACE TABLE rt_released_labels AS
WITH marked AS (
    SELECT rid, replace(items, $sep, $mark) AS text,
           $mark <> $sep AND contains(items, $mark) AS clash
    FROM rt_release_column
), parsed AS (
    SELECT rid, text, clash, contains(text, '"') AS quoted,
           CASE WHEN contains(text, '"') THEN regexp_extract_all(text, $pattern)
                ELSE string_split(text, $mark) END AS parts
    FROM marked
)
SELECT DISTINCT rid,
       CASE WHEN clash OR (quoted AND array_to_string(parts, $mark) <> text) THEN NULL
            WHEN quoted AND len(part) >= 2 AND starts_with(part, '"') AND ends_with(part, '"')
                THEN replace(replace(part[2:-2], '""', '"'), $mark, $sep)
            ELSE part END AS label
FROM (SELECT rid, text, clash, quoted, parts, unnest(parts) AS part FROM parsed)
ORDER BY rid, label;
