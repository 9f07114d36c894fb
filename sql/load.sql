-- Reading line-oriented transaction files (SPMF sequences or space-separated items).

-- name: read_lines
-- Each line of the file at $path with its 0-based number; CR of CRLF endings dropped.
CREATE OR REPLACE TEMP TABLE source_lines AS
WITH f AS (SELECT string_split(content, chr(10)) AS lines FROM read_text($path))
SELECT i - 1 AS lineno, rtrim(lines[i], chr(13)) AS line
FROM f, unnest(generate_series(1, len(lines))) AS g(i);

-- name: line_tokens
-- Items of every line: white-space separated tokens; in SPMF ($spmf) the -1 / -2 separators
-- are dropped, in plain lines every token is an item.
CREATE OR REPLACE TEMP TABLE source_tokens AS
SELECT lineno, token AS label
FROM (
    SELECT lineno, unnest(string_split(regexp_replace(trim(line), '\s+', ' ', 'g'), ' ')) AS token
    FROM source_lines
)
WHERE token <> '' AND NOT ($spmf AND token IN ('-1', '-2'));

-- name: empty_lines
-- Lines (1-based) with no item, but for a final empty line (the file's trailing newline).
SELECT l.lineno + 1 AS line
FROM source_lines AS l
ANTI JOIN source_tokens AS t ON t.lineno = l.lineno
WHERE NOT (l.lineno = (SELECT max(lineno) FROM source_lines) AND trim(l.line) = '')
ORDER BY l.lineno
LIMIT 5;
