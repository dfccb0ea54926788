-- Both runs at once, one segment (experiment arm) each
{{ ndcg_sql.ndcg_per_query(ref('dl19_runs'), segment_cols=['arm'], judgments=ref('dl19_qrels'),
                           gain='linear', ties='item-desc', k=[1, 3, 10, 'all']) }}
