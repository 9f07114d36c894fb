-- Reading line-oriented transaction files (SPMF sequences or space-separated items).

-- name: read_lines
-- Each line of the UTF-8 file at $path with its 0-based number, white space (tab, form feed,
-- CR) turned into spaces, so splitting needs no regular expression; a byte order mark is
-- dropped (tested once on the whole text, no cost measured on BMS-WebView-2). Three replace()
-- calls on each line: translate() over the whole 3.6 MB BMS-WebView-2 took 26 ms, and
-- replace() over the whole file made three copies of it (5 MB more peak memory).
CREATE OR REPLACE TEMP TABLE source_lines AS
WITH f AS (
    SELECT string_split(
        CASE WHEN starts_with(content, chr(65279)) THEN content[2:] ELSE content END, chr(10)
    ) AS lines
    FROM read_text($path)
)
SELECT lineno, replace(replace(replace(line, chr(9), ' '), chr(12), ' '), chr(13), ' ') AS line
FROM (SELECT generate_subscripts(lines, 1) - 1 AS lineno, unnest(lines) AS line FROM f);

-- name: split_lines
-- `read_lines` for a text decoded in Python ($content: a gzip'd file, or one in another
-- encoding than UTF-8; its byte order mark already dropped). Not one statement with
-- `read_lines`: reading the file into a table first cost BMS-WebView-2 ~10 ms more.
CREATE OR REPLACE TEMP TABLE source_lines AS
WITH f AS (SELECT string_split($content, chr(10)) AS lines)
SELECT lineno, replace(replace(replace(line, chr(9), ' '), chr(12), ' '), chr(13), ' ') AS line
FROM (SELECT generate_subscripts(lines, 1) - 1 AS lineno, unnest(lines) AS line FROM f);

-- name: line_tokens
-- The source pairs of a line file: (line number, item) for every token between spaces; in SPMF
-- ($spmf) the -1 / -2 separators are dropped, in plain lines every token is an item.
CREATE OR REPLACE TEMP TABLE source_pairs AS
SELECT lineno AS tid_label, token AS label
FROM (SELECT lineno, unnest(string_split(line, ' ')) AS token FROM source_lines)
WHERE token <> '' AND NOT ($spmf AND token IN ('-1', '-2'));

-- name: line_coverage
-- How many lines the file has, how many hold an item, and whether the last one is blank (the
-- file's trailing newline): every line but a blank last one must hold an item. Counting is
-- cheaper than `empty_lines`, which then runs only to name the lines.
SELECT (SELECT count(*) FROM source_lines) AS lines,
       (SELECT count(DISTINCT tid_label) FROM source_pairs) AS lines_with_items,
       (SELECT trim(line) = '' FROM source_lines ORDER BY lineno DESC LIMIT 1) AS last_blank;

-- name: empty_lines
-- Lines (1-based) with no item, but for a final empty line (the file's trailing newline).
SELECT l.lineno + 1 AS line
FROM source_lines AS l
ANTI JOIN source_pairs AS t ON t.tid_label = l.lineno
WHERE NOT (l.lineno = (SELECT max(lineno) FROM source_lines) AND trim(l.line) = '')
ORDER BY l.lineno
LIMIT 5;

-- name: source_empty_transactions
-- Up to five transaction ids of a table input (view `source_input(tid_label, item)`) whose
-- list of items is empty or NULL: such a transaction cannot be released.
SELECT tid_label FROM source_input WHERE len(coalesce(item, [])) = 0 LIMIT 5;

-- name: source_empty_transactions :spark
-- The same on Spark: array_length, which sqlglot writes as Spark's size() (DuckDB's len of a
-- list would become Spark's length(), of strings only).
SELECT tid_label FROM source_input WHERE array_length(coalesce(item, [])) = 0 LIMIT 5;

-- name: source_pairs_from_lists
-- `source_pairs(tid_label, label)` from a table input whose item column holds a list of items
-- per row (view `source_input`): a row per listed item, as text.
CREATE OR REPLACE TEMP TABLE source_pairs AS
SELECT tid_label, CAST(unnest(item) AS VARCHAR) AS label FROM source_input;

-- name: source_pairs_from_lists :spark
-- The same on Spark as a view (`source_distinct` reads it once: its rows are never kept), the
-- list cast rather than each item (Spark casts no generator).
CREATE OR REPLACE TEMP VIEW source_pairs AS
SELECT tid_label, unnest(CAST(item AS VARCHAR[])) AS label FROM source_input;

-- name: source_pairs_from_items
-- `source_pairs(tid_label, label)` from a table input of one item a row (view `source_input`),
-- the item as text.
CREATE OR REPLACE TEMP TABLE source_pairs AS
SELECT tid_label, CAST(item AS VARCHAR) AS label FROM source_input;

-- name: source_pairs_from_items :spark
-- The same on Spark as a view (`source_distinct` reads it once: its rows are never kept).
CREATE OR REPLACE TEMP VIEW source_pairs AS
SELECT tid_label, CAST(item AS VARCHAR) AS label FROM source_input;
