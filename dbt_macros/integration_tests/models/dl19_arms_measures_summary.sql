-- Mean, standard error and 95% interval of each measure per arm
{{ ndcg_sql.ndcg_measures_summary(ref('dl19_arms_measures'),
                                  ['nDCG@10', 'P@10', 'R@100', 'AP', 'RR(rel=2)', 'Success@1'],
                                  segment_cols=['arm']) }}
