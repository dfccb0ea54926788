-- What to judge next: the unjudged passages either arm shows in its top 15
{{ ndcg_sql.ndcg_unjudged(ref('dl19_runs'), judgments=ref('dl19_qrels'), segment_cols=['arm'], depth=15) }}
