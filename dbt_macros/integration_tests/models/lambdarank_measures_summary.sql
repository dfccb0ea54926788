-- Mean, standard error and 95% interval of each measure
{{ ndcg_sql.ndcg_measures_summary(ref('lambdarank_measures'),
                                  ['nDCG@10', 'P@5', 'R@10', 'AP', 'RR', 'P(rel=2)@5', 'Success@1']) }}
