"""Fixtures: tiny stores built from the papers' examples, and helpers to read releases back."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))

# Each example runs SQL on DuckDB: its time depends on the machine's load, not on the code, so
# no example has a deadline (a loaded CI machine made timing flakes of correct code).
settings.register_profile("setanon", deadline=None)
settings.load_profile("setanon")

from helpers.papers import AB_TREE, FIG2_TX, TABLE2_TX  # noqa: E402
from helpers.shared import SHARED, reason  # noqa: E402
from helpers.stores import make_store  # noqa: E402

from setanon_sql import Store  # noqa: E402


@pytest.fixture
def fig2() -> Store:
    s = make_store(FIG2_TX, AB_TREE)
    yield s
    s.close()


@pytest.fixture
def table2() -> Store:
    s = make_store(TABLE2_TX, AB_TREE)
    yield s
    s.close()


@pytest.fixture
def shared_data() -> Path:
    """The folder of the benchmark data beside the repository; the test skips without it
    (`helpers.shared`: every test that reads that data asks there)."""
    if not SHARED.is_dir():
        pytest.skip(reason())
    return SHARED


# -- markers: `pytest -m "not spark and not slow"` is the quick loop (README) -----------------------
# Spark's tests start JVMs; the slow ones (the 60 longest of the rest, 2.7-21 s each on a
# loaded 2-core machine, measured with --durations=60) are mostly hypothesis searches against
# brute forces and whole-process signal tests. CI and README's test command run everything.
# Issue 43 added the next longest (9-196 s each at load 24, then 8-27 s at load 17, from the
# quick loop's --durations=60: hypothesis against brute forces, plans on deep hierarchies,
# whole CLI runs replaced, evaluated, replayed, reported), so that the quick loop keeps under
# 3 minutes on 2 cores. The next twelve (hypothesis against brute forces and exact counts, whole
# CLI runs compared and swept: 8-65 s each at load 9, 1.5-5 % of the quick loop each, measured
# with --durations=0 on ffa194b) joined them in the second round (#43).
SPARK_MODULES = {"test_spark.py", "test_spark_cluster.py", "test_spark_lock.py"}
SLOW = {
    "tests/test_readme_fresh_clone.py::test_the_examples_that_read_data_run_from_a_clone_alone",
    # a hypothesis search against every reconstruction of a (k, k^m) table release (about 60 s)
    "tests/test_rt_estimate_bounds.py::test_bounds_are_the_least_and_most_support_over_the_reconstructions",
    # 30 + 30 runs of dpsets with OpenDP's noise, the lone item's release frequency
    "tests/test_dp_mechanism.py::test_the_lone_items_release_is_as_likely_as_epsilon_allows_with_a_catalogue",
    "tests/test_rt_dis.py::test_every_release_passes_and_the_verifier_agrees_with_brute_force",
    "tests/test_cli.py::test_a_stored_run_can_be_listed_replayed_and_measured",
    "tests/test_cli.py::test_verify_and_metrics_say_whether_the_release_is_a_multiset",
    "tests/test_cli_eval.py::test_report_and_compare",
    "tests/test_cli_eval.py::test_sweep_over_two_leaf_orders",
    "tests/test_clump.py::test_clump_dissolves_stuck_clusters_and_places_their_members[3]",
    "tests/test_clump.py::test_clump_dissolves_stuck_clusters_and_places_their_members[5]",
    "tests/test_clump.py::test_clump_is_deterministic",
    "tests/test_clump.py::test_clump_on_the_papers_transactions",
    "tests/test_clump.py::test_exchanges_lower_ggd_by_what_they_were_costed",
    "tests/test_clump.py::test_greedy_releases_verify_and_match_the_reference",
    "tests/test_clump.py::test_passes_skip_only_pairs_that_would_find_no_exchange",
    "tests/test_clump.py::test_runs_release_verifies_and_every_run_is_costed_as_its_ggd",
    "tests/test_clump.py::test_the_cut_alone_gives_runs_of_k_to_2k_minus_1",
    "tests/test_clump.py::test_the_order_follows_coarsened_top_counts_then_length",
    "tests/test_disassociation.py::test_cover_bound_is_exact_against_enumeration",
    "tests/test_disassociation.py::test_random_data_verifies_and_keeps_the_promise",
    "tests/test_disassociation.py::test_the_enumeration_up_to_record_order_finds_what_every_order_finds",
    "tests/test_disassociation_cli.py::test_compare_and_sweep_take_disassociation_beside_others",
    "tests/test_disassociation_cli.py::test_stored_run_verify_metrics_evaluate_report_reconstruct",
    "tests/test_disassociation_terms.py::test_the_algorithms_releases_pin_nothing",
    "tests/test_disassociation_terms.py::test_the_verifier_passes_exactly_when_no_itemset_is_pinned",
    "tests/test_estimate.py::test_disassociated_bounds_hold_the_data_and_a_reconstruction",
    "tests/test_estimate.py::test_generalized_bounds_hold_the_released_data",
    "tests/test_evaluate.py::test_frequent_workload_is_every_frequent_itemset",
    "tests/test_evaluate.py::test_long_probes_match_the_definitions",
    "tests/test_evaluate.py::test_mined_itemsets_are_the_frequent_ones_capped_per_size",
    "tests/test_evaluate.py::test_promised_attacks_never_have_fewer_than_k_candidates",
    "tests/test_evaluate.py::test_scores_match_the_definitions",
    "tests/test_evaluate.py::test_the_top_n_draw_and_the_window_draw_alike",
    "tests/test_evaluate_memory.py::test_evaluate_of_a_disassociation_stays_within_the_memory_limit",
    "tests/test_evaluate_sample.py::test_a_sample_is_seeded_recorded_and_leaves_the_data_as_it_was",
    "tests/test_evaluate_sample.py::test_an_exact_evaluation_drops_the_last_samples_record",
    "tests/test_evaluate_sample.py::test_attacks_and_random_supports_are_exact_in_a_sampled_evaluation",
    "tests/test_evaluate_sample.py::test_intervals_hold_the_exact_figures_at_the_rate_they_claim",
    "tests/test_evaluate_sample.py::test_sample_and_exact_through_the_command_line",
    "tests/test_evaluate_table.py::test_risk_figures_match_the_released_rows",
    "tests/test_evaluate_table.py::test_table_queries_match_the_definitions",
    "tests/test_hierarchy.py::test_sql_builder_builds_the_reference_tree",
    "tests/test_inputs.py::test_a_bom_in_a_table_or_taxonomy_is_dropped[taxonomy]",
    "tests/test_inputs.py::test_a_db_named_main_works",
    "tests/test_instance_loss.py::test_a_verified_clump_release_is_measured_as_metrics_does",
    "tests/test_instance_loss.py::test_random_releases_match_the_brute_force",
    "tests/test_km_anonymity.py::test_aa_and_da_are_km_anonymous_generalizations",
    "tests/test_km_anonymity.py::test_aa_counting_pairs_by_transaction_gives_the_same_release",
    "tests/test_km_anonymity.py::test_aa_settles_candidates_on_a_sample_and_says_which_supports_are_bounds",
    "tests/test_km_anonymity.py::test_aa_settling_on_a_sample_gives_the_same_release",
    "tests/test_km_anonymity.py::test_aa_walk_batch_sizes_give_the_same_release",
    "tests/test_km_anonymity.py::test_da_counting_what_its_walk_reads_finds_the_exhaustive_cut",
    "tests/test_km_anonymity.py::test_expanded_holds_each_transaction_node_once_in_node_order",
    "tests/test_km_anonymity.py::test_expanded_violations_match_python",
    "tests/test_km_anonymity.py::test_oa_equals_brute_force",
    "tests/test_km_anonymity.py::test_pairs_by_transaction_count_what_the_rarest_node_counts",
    "tests/test_km_anonymity.py::test_specializing_the_root_cut_reaches_a_minimal_km_anonymous_cut",
    "tests/test_km_anonymity.py::test_the_pass_counting_only_what_can_change_a_decision_decides_as_counting_all",
    "tests/test_km_anonymity.py::test_walk_order_compares_sorted_rank_lists",
    "tests/test_limits.py::test_an_output_that_does_not_fit_on_disk_is_exit_5_and_leaves_nothing[--sql-log=out.sql]",
    "tests/test_limits.py::test_an_output_that_does_not_fit_on_disk_is_exit_5_and_leaves_nothing[out.csv]",
    "tests/test_limits.py::test_an_output_that_does_not_fit_on_disk_is_exit_5_and_leaves_nothing[out.parquet]",
    "tests/test_options.py::test_every_base_line_succeeds",
    "tests/test_options.py::test_every_option_has_a_rule",
    "tests/test_options.py::test_odd_values_never_end_as_our_bug",
    "tests/test_partition.py::test_k_anonymous_input_comes_back_unchanged",
    "tests/test_partition.py::test_lgr_finds_every_partition_whose_cut_fits_a_waiting_transaction",
    "tests/test_partition.py::test_outputs_are_k_anonymous_generalizations",
    "tests/test_partition_scale.py::test_retired_partition_is_the_last_move",
    "tests/test_partition_tail.py::test_python_rounds_release_what_sql_rounds_release",
    "tests/test_partition_tail.py::test_python_rounds_tell_wide_buckets_apart",
    "tests/test_partition_tail.py::test_python_walk_finds_the_pairs_the_sql_walk_finds",
    "tests/test_pipe_inputs.py::test_process_substitution_anonymizes_and_names_the_path_given",
    "tests/test_plans.py::test_measuring_statements_do_not_explode[deep]",
    "tests/test_plans.py::test_measuring_statements_do_not_explode[fanout8-id]",
    "tests/test_plans.py::test_measuring_statements_do_not_explode[wide]",
    "tests/test_put_rows.py::test_put_rows_round_trip_and_replay",
    "tests/test_put_rows.py::test_replay_rows_written_as_literal_writes_each_value",
    "tests/test_registry_state.py::TestOneDatabase::runTest",
    "tests/test_replace.py::test_a_failing_replacement_keeps_the_run",
    "tests/test_replace.py::test_a_signal_during_the_replacement_keeps_the_run[15-143]",
    "tests/test_replace.py::test_a_signal_during_the_replacement_keeps_the_run[2-130]",
    "tests/test_report.py::test_compare_keeps_the_order_of_the_runs_given",
    "tests/test_report.py::test_report_and_compare_reuse_the_stored_evaluation_of_their_workload",
    "tests/test_report.py::test_report_page_is_self_contained",
    "tests/test_report.py::test_report_renders_in_chromium",
    "tests/test_report.py::test_sweep_compares_every_algorithm_and_k",
    "tests/test_rt.py::test_every_release_passes_and_the_verifier_agrees_with_brute_force",
    "tests/test_rt_cuts.py::test_every_release_holds_classes_of_the_size_asked",
    "tests/test_rt_topdown.py::test_a_node_beside_its_descendant_by_hand",
    "tests/test_rt_topdown.py::test_cli_item_search",
    "tests/test_rt_topdown.py::test_every_topdown_release_passes_the_brute_force",
    "tests/test_run_tables.py::test_a_failed_evaluation_leaves_nothing_that_blocks_replace",
    "tests/test_run_tables.py::test_a_reported_run_can_be_replaced",
    "tests/test_run_tables.py::test_an_evaluated_table_run_can_be_replaced",
    "tests/test_run_tables.py::test_evaluate_never_adopts_a_users_table_in_the_run",
    "tests/test_run_tables.py::test_evaluate_never_overwrites_a_users_eval_table",
    "tests/test_safety.py::test_11_quoted_and_qualified_table_names",
    "tests/test_safety.py::test_12_verify_reads_a_per_transaction_release",
    "tests/test_safety.py::test_2_two_inputs_live_side_by_side_and_runs_keep_their_dataset",
    "tests/test_safety.py::test_3_zero_padded_ids_stay_distinct_and_verify",
    "tests/test_safety.py::test_9_output_table_needs_db_and_never_replaces_a_user_table",
    "tests/test_safety.py::test_a_run_replays_on_a_fresh_duckdb[args0]",
    "tests/test_safety.py::test_a_run_replays_on_a_fresh_duckdb[args1]",
    "tests/test_safety.py::test_a_table_run_replays_on_a_fresh_duckdb",
    "tests/test_signals.py::test_a_signal_mid_run_leaves_nothing_partial[15-143]",
    "tests/test_signals.py::test_a_signal_mid_run_leaves_nothing_partial[2-130]",
    "tests/test_synthetic.py::test_baskets_anonymize_into_verified_releases[lgr]",
    "tests/test_table_anon.py::test_adult_example_taxonomies_cover_the_data",
    "tests/test_table_anon.py::test_cost_within_the_approximation_bound",
    "tests/test_table_anon.py::test_improved_release_is_verified_and_no_worse_than_the_cover",
    "tests/test_table_anon.py::test_improvement_never_raises_the_loss_nor_breaks_k",
    "tests/test_table_anon.py::test_l_diverse_releases",
    "tests/test_table_anon.py::test_l_diverse_splits_keep_every_class_l_diverse",
    "tests/test_table_anon.py::test_the_capped_cover_is_kept_only_when_no_dearer",
    "tests/test_user_files.py::test_a_real_sigkill_during_the_folder_write_is_repaired",
    "tests/test_user_files.py::test_a_swap_that_fails_after_the_files_are_in_puts_the_files_back",
    "tests/test_user_files.py::test_a_users_file_beside_a_release_is_never_deleted",
    "tests/test_user_files.py::test_no_command_writes_over_or_into_any_input",
    "tests/test_user_files.py::test_outputs_through_symbolic_links_land_on_their_targets",
    "tests/test_user_files.py::test_what_a_sigkill_left_beside_an_output_is_repaired_by_the_next_run",
    "tests/test_user_files.py::test_written_files_honour_the_umask_and_a_replaced_file_keeps_its_mode",
    "tests/test_verify.py::test_verifier_and_metrics_agree_with_reference",
    "tests/test_verify_repeats.py::test_random_releases_with_repeats_are_judged_as_before",
    "tests/test_rt_merge.py::test_every_merged_release_passes_the_brute_force",
    "tests/test_estimate_evaluate.py::test_estimate_on_the_file_answers_as_evaluate_on_the_run",
    "tests/test_evaluate_dis_parts.py::test_part_rows_match_a_count_over_the_rows",
    "tests/test_rt_pairs.py::test_random_item_rows_give_the_one_table_release_and_pass_brute_force",
    "tests/test_dp_mechanism.py::test_with_the_noisy_values_fixed_the_data_changes_nothing",
    "tests/test_dp_mechanism.py::test_neighbours_change_each_level_by_its_sensitivity_at_most",
    "tests/test_dp_cli.py::test_the_release_flows_through_every_judging_command",
    "tests/test_disassociation_speed.py::test_named_m2_statements_match_the_builders",
    "tests/test_rt_report.py::test_compare_puts_runs_side_by_side_with_their_trade_off",
    "tests/test_rt_report.py::test_compare_takes_a_transaction_run_beside_them",
    "tests/test_rt_report.py::test_a_tampered_release_reports_fail",
    "tests/test_rt_sweep.py::test_sweep_points_are_the_runs_anonymize_rt_makes",
    # the third round's hypothesis searches against brute forces (11-36 s each, quiet machine)
    "tests/test_verify_projection.py::test_projection_check_matches_brute_force",
    "tests/test_evaluate_sanity.py::test_the_bound_against_a_brute_force",
    "tests/test_cover_refined.py::test_refined_shapes_equal_the_full_statements",
    # and the longest left after them (1.2-3.8 s each on a quiet machine, --durations=15 on the
    # merged quick loop, 3 min 9 s before): searches and whole-run comparisons, not hand cases
    "tests/test_dp_mechanism.py::test_the_release_is_the_baskets_of_the_estimates",
    "tests/test_dp_mechanism.py::test_a_long_transaction_counts_no_more_than_the_limit",
    "tests/test_estimate_evaluate.py::test_estimate_matches_a_plain_python_uniform_estimator",
    "tests/test_estimate_evaluate.py::test_evaluate_and_estimate_run_the_same_statements",
    "tests/test_rt_pairs.py::test_the_same_release_as_one_table_with_a_list",
    "tests/test_evaluate_sanity.py::test_a_stored_evaluation_gets_the_bound_without_a_new_one",
    "tests/test_release_kinds.py::test_a_run_records_its_kind_and_an_older_run_is_judged_alike",
    "tests/test_dp_cli.py::test_a_sweep_over_epsilon_draws_the_utility_curve",
    # issue 44's promise check against a brute force: the longest of the quick loop (12 s at
    # load ~5, --durations=25 on the tidy branch); its worked examples stay in the quick loop
    "tests/test_promise_rejects.py::test_promise_holds_as_the_brute_force_decides",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name in SPARK_MODULES or "spark" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.spark)
        if item.nodeid in SLOW or item.nodeid.split("[")[0] in SLOW:
            item.add_marker(pytest.mark.slow)
