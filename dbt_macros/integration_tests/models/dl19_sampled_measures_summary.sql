-- The estimate from the sample: mean, standard error and interval with the finite-population correction, per arm
{{ ndcg_sql.ndcg_measures_summary(ref('dl19_sampled_measures'), ['nDCG@10', 'AP', 'Success@1'], segment_cols=['arm'],
                                  sample_strata=ref('dl19_sample_strata')) }}
