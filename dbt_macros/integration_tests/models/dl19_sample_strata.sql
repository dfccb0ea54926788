-- The strata of that sample: per arm, its queries (population) and those drawn (sampled)
{{ ndcg_sql.ndcg_sample_strata(ref('dl19_runs'), 0.5, seed=3, segment_cols=['arm'], judgments=ref('dl19_qrels')) }}
