-- The report page's own reads of an evaluation's tables (measure/report.py).

-- name: report_attack_candidates
-- For each number of items the adversary knows (`known`), the candidate counts of every attack,
-- in increasing order (`candidates`): what the page's box plot draws.
SELECT known, list(candidates ORDER BY candidates) AS candidates
FROM eval_attacks
GROUP BY known
ORDER BY known;
