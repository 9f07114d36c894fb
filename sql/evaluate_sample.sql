-- `setanon evaluate` on a uniform sample of the transactions (issue 42): above the size where
-- exact counting exceeds its time, the probes are drawn and scored on a seeded Bernoulli sample
-- of the transactions and their released transactions, split into $groups random replicate
-- groups. Every count the figures need (a query's support in the original, its estimate from
-- the release, an attack's candidates) is a sum over transactions, so each group is scored by
-- the statements of sql/evaluate.sql on its own transactions and the groups' scores add up.
-- A figure's 95 % interval is the delete-a-group jackknife's: the figure recomputed with each
-- group left out, its variance (G - 1) / G * sum (theta_g - mean)^2, times Student's t.

-- name: eval_sample_tids
-- The sampled transactions: those whose hash (seeded) falls below $share of the range, each in
-- one of $groups replicate groups drawn from the rest of the same hash; and, in group $groups,
-- counted for certain rather than sampled, the transactions the random workload's itemsets
-- were drawn from (a rare itemset's estimate then counts its own transaction's share exactly).
-- $salt 3 draws the sample the probes are scored on; 4 an independent one the frequent
-- itemsets are mined from (none counted for certain), so that the itemsets chosen for a
-- support the sample happened to overstate are not scored on that same overstatement.
CREATE OR REPLACE TEMP TABLE eval_sample_tids AS
WITH certain AS (
    SELECT DISTINCT tid FROM eval_probes WHERE workload = 'random'
), hashed AS (
    SELECT t.*, hash(t.tid, $seed, $salt) AS h, c.tid IS NOT NULL AND $salt = 3 AS is_certain
    FROM tids AS t
    LEFT JOIN certain AS c ON c.tid = t.tid
)
SELECT * EXCLUDE (h, is_certain),
       CASE WHEN is_certain THEN $groups
            ELSE ((h // 1000000000) % $groups)::INTEGER END AS grp
FROM hashed
WHERE is_certain OR (h % 1000000000) < $share * 1e9;

-- name: eval_sample_tx
-- The original's item instances of the sampled transactions, with their group.
CREATE OR REPLACE TEMP TABLE eval_sample_tx AS
SELECT t.*, s.grp
FROM tx AS t
JOIN eval_sample_tids AS s ON s.tid = t.tid;

-- name: eval_sample_release
-- The released rows of the sampled transactions, with their group.
CREATE OR REPLACE TEMP TABLE eval_sample_release AS
SELECT r.*, s.grp
FROM release AS r
JOIN eval_sample_tids AS s ON s.tid = r.tid;

-- name: eval_shadow_tids
-- `tids` as the statements of sql/evaluate.sql read it: the sampled transactions of group $grp
-- (every group when $grp is NULL), a temporary table that hides the dataset's.
CREATE OR REPLACE TEMP TABLE tids AS
SELECT * EXCLUDE (grp) FROM eval_sample_tids WHERE $grp IS NULL OR grp = $grp;

-- name: eval_shadow_tx
-- `tx` of the sampled transactions of group $grp (every group when $grp is NULL).
CREATE OR REPLACE TEMP TABLE tx AS
SELECT * EXCLUDE (grp) FROM eval_sample_tx WHERE $grp IS NULL OR grp = $grp;

-- name: eval_shadow_release
-- `release` of the sampled transactions of group $grp (every group when $grp is NULL).
CREATE OR REPLACE TEMP TABLE release AS
SELECT * EXCLUDE (grp) FROM eval_sample_release WHERE $grp IS NULL OR grp = $grp;

-- name: eval_unshadow_tids
-- The dataset's `tids` is seen again.
DROP TABLE IF EXISTS temp.main.tids;

-- name: eval_unshadow_tx
-- The dataset's `tx` is seen again.
DROP TABLE IF EXISTS temp.main.tx;

-- name: eval_unshadow_release
-- The run's `release` is seen again.
DROP TABLE IF EXISTS temp.main.release;

-- name: eval_probes_copy
-- Every probe drawn so far, before `eval_probes` is narrowed to some workloads.
CREATE OR REPLACE TEMP TABLE eval_probes_all AS
SELECT * FROM eval_probes;

-- name: eval_shadow_probes
-- `eval_probes` as the scoring statements read it: the probes of the workloads in $workloads,
-- a temporary table that hides the run's.
CREATE OR REPLACE TEMP TABLE eval_probes AS
SELECT * FROM eval_probes_all WHERE list_contains($workloads::VARCHAR[], workload);

-- name: eval_unshadow_probes
-- The run's `eval_probes` is seen again.
DROP TABLE IF EXISTS temp.main.eval_probes;

-- name: eval_exact_attacks
-- The attacks' scores counted exactly on every transaction (a sample cannot tell 9 candidates
-- from 1, and the promise is about exactly those): eval_scores of the attack probes.
CREATE OR REPLACE TEMP TABLE eval_exact_attacks AS
SELECT workload, size, qid, actual, estimate, candidates FROM eval_scores;

-- name: eval_exact_actuals
-- The random itemsets' supports counted exactly on every transaction (most are held by a
-- handful: a sample would miss them), from eval_actual_supports.
CREATE OR REPLACE TEMP TABLE eval_exact_actuals AS
SELECT workload, size, qid, actual FROM eval_actual_supports;

-- name: eval_sample_forget_actuals
-- A frequent probe's support was counted on the whole sample while mining; each group counts
-- its own share of it instead (eval_actual_supports), so the groups add up.
UPDATE eval_probes SET actual = NULL WHERE workload = 'frequent';

-- name: eval_group_scores_create
-- Every probe's counts in every replicate group: support in the original, estimate from the
-- release, candidates among the released transactions.
CREATE OR REPLACE TEMP TABLE eval_group_scores (
    grp INTEGER, workload VARCHAR, size INTEGER, qid BIGINT, actual DOUBLE, estimate DOUBLE,
    candidates DOUBLE
);

-- name: eval_group_scores_add
-- The scores of group $grp (eval_scores, made by sql/evaluate.sql's statements on it; group
-- $groups holds the transactions counted for certain); a random itemset's support is counted
-- exactly apart (eval_exact_actuals), so its groups count none.
INSERT INTO eval_group_scores
SELECT $grp, workload, size, qid, CASE WHEN workload = 'random' THEN 0 ELSE actual END,
       estimate, candidates
FROM eval_scores;

-- name: eval_replicate_scores
-- Every probe's counts on the whole sample (`rep` -1) and with each group left out (`rep` g),
-- scaled to the whole data: the certain transactions' counts as they are, plus the sampled
-- groups' kept sums over the share they stand for (`share`: $share, or (G - 1) / G of it).
-- `error` is |support - estimate| without the sampling noise's share of it: the groups'
-- differences d_g being exchangeable, the square of the sampled part's sum D overstates its
-- own square by its variance V = (1 - share) * (m * sum d_g^2 - D^2) / (m - 1) over m groups
-- (the (1 - share) as a Bernoulli sample's variance has it); error = sqrt(max(0, E^2 - V')),
-- E and V' scaled. Without it |E| of a noisy sample is biased upwards (twice the exact ARE of
-- single items on 6,000 sampled transactions).
CREATE OR REPLACE TEMP TABLE eval_replicate_scores AS
WITH reps AS (
    SELECT unnest(range(-1, $groups)) AS rep
), sampled AS (
    SELECT workload, size, qid, sum(actual) AS actual, sum(estimate) AS estimate,
           sum(candidates) AS candidates, sum((actual - estimate) ^ 2) AS squares
    FROM eval_group_scores
    WHERE grp < $groups
    GROUP BY workload, size, qid
), kept AS (
    SELECT r.rep, t.workload, t.size, t.qid,
           t.actual - coalesce(g.actual, 0) AS actual,
           t.estimate - coalesce(g.estimate, 0) AS estimate,
           t.candidates - coalesce(g.candidates, 0) AS candidates,
           t.squares - coalesce((g.actual - g.estimate) ^ 2, 0) AS squares,
           CASE WHEN r.rep < 0 THEN $groups ELSE $groups - 1 END AS m,
           CASE WHEN r.rep < 0 THEN $share ELSE $share * ($groups - 1) / $groups END AS share
    FROM reps AS r
    CROSS JOIN sampled AS t
    LEFT JOIN eval_group_scores AS g
      ON g.grp = r.rep AND g.workload = t.workload AND g.size = t.size AND g.qid = t.qid
), scaled AS (
    SELECT k.rep, k.workload, k.size, k.qid,
           coalesce(x.actual, 0) + coalesce(c.actual, 0) + k.actual / k.share AS actual,
           coalesce(c.estimate, 0) + k.estimate / k.share AS estimate,
           coalesce(c.candidates, 0) + k.candidates / k.share AS candidates,
           (1 - k.share) * (k.m * k.squares - (k.actual - k.estimate) ^ 2) / (k.m - 1)
               / k.share ^ 2 AS variance
    FROM kept AS k
    LEFT JOIN eval_group_scores AS c
      ON c.grp = $groups AND c.workload = k.workload AND c.size = k.size AND c.qid = k.qid
    LEFT JOIN eval_exact_actuals AS x
      ON x.workload = k.workload AND x.size = k.size AND x.qid = k.qid
)
SELECT rep, workload, size, qid, actual, estimate, candidates,
       sqrt(greatest(0.0, (actual - estimate) ^ 2 - variance)) AS error
FROM scaled;

-- name: eval_sample_scores
-- `eval_scores` of sql/evaluate.sql: the queries' from the whole sample, the attacks' exact.
CREATE OR REPLACE TEMP TABLE eval_scores AS
SELECT workload, size, qid, actual, estimate, candidates
FROM eval_replicate_scores
WHERE rep = -1
UNION ALL
SELECT workload, size, qid, actual, estimate, candidates
FROM eval_exact_attacks;

-- name: eval_sample_intervals
-- The query figures' 95 % intervals, per workload and size. Each figure is computed on the
-- whole sample and with each group left out (a frequent itemset no kept transaction holds has
-- no relative error there and is left out of that replicate), the jackknife's half-width
-- $t * sqrt((1 - $share) * (G - 1) / G * sum (theta_g - mean)^2) (with a Bernoulli sample's
-- finite-population factor). The ARE and the share above 50 % are computed twice: from each
-- query's `error` (its noise taken out, the figure reported; a little low where the noise
-- outweighs the error) and from |support - estimate| as sampled (high: noise only adds to an
-- absolute value on average). The interval runs from the first's low end to the second's
-- high end. The share underestimated gets none: a sample cannot tell the sign of an error
-- smaller than its noise.
CREATE OR REPLACE TABLE eval_intervals AS
WITH query_figures AS (
    SELECT rep, workload, size,
           avg(error / actual) AS are,
           avg(abs(actual - estimate) / actual) AS are_high,
           avg(CASE WHEN error / actual > 0.5 + 1e-9 THEN 1.0 ELSE 0.0 END) AS over_50,
           avg(CASE WHEN abs(actual - estimate) / actual > 0.5 + 1e-9 THEN 1.0 ELSE 0.0 END)
               AS over_50_high
    FROM eval_replicate_scores
    WHERE workload <> 'attack' AND actual > 0
    GROUP BY rep, workload, size
), long AS (
    UNPIVOT query_figures ON are, are_high, over_50, over_50_high INTO NAME figure VALUE value
), spread AS (
    SELECT workload, size, figure,
           any_value(value) FILTER (WHERE rep = -1) AS value,
           $t * sqrt((1 - $share) * (count(*) FILTER (WHERE rep >= 0) - 1)
                     * var_pop(value) FILTER (WHERE rep >= 0)) AS half
    FROM long
    GROUP BY workload, size, figure
)
SELECT f.workload, f.size, f.figure, f.value,
       greatest(0.0, f.value - f.half) AS low,
       CASE WHEN f.figure = 'are' THEN h.value + h.half
            ELSE least(1.0, h.value + h.half) END AS high
FROM spread AS f
JOIN spread AS h
  ON h.workload = f.workload AND h.size = f.size AND h.figure = f.figure || '_high'
WHERE f.value IS NOT NULL
ORDER BY f.workload, f.size, f.figure;

-- name: eval_intervals_read
-- The figures' intervals of the run's last (sampled) evaluation.
SELECT workload, size, figure, value, low, high FROM eval_intervals ORDER BY workload, size, figure;

-- name: eval_sample_write
-- The record of the sample the run's eval_* tables were scored on: share, seed, groups, and
-- how many transactions it drew of how many.
CREATE OR REPLACE TABLE eval_sample AS
SELECT $share::DOUBLE AS share, $seed::BIGINT AS seed, $groups::INTEGER AS groups,
       (SELECT count(*) FROM eval_sample_tids) AS transactions, $of::BIGINT AS of_transactions;

-- name: eval_sample_read
-- The sample of the run's last evaluation.
SELECT share, seed, groups, transactions, of_transactions FROM eval_sample;

-- name: eval_sample_drop
-- A new evaluation is under way: the last one's sample record goes.
DROP TABLE IF EXISTS eval_sample;

-- name: eval_intervals_drop
-- A new evaluation is under way: the last one's intervals go.
DROP TABLE IF EXISTS eval_intervals;
