{#- Generated from ndcg_sql/parameters.py, conventions.py, measures.py and identifiers.py by `python -m tools.dbt_gen`: do not edit. -#}

{#- ndcg_sql/parameters.py -#}
{% macro _option_table() -%}
  {{ return({"choices": {"discount": ["log", "jarvelin"], "ties": ["average", "item-asc", "item-desc", "input-order"], "no_relevant": ["zero", "skip", "one"], "missing_queries": ["ignore", "zero"], "unjudged": ["zero", "condense"], "score_precision": ["double", "float32"], "negative_labels": ["error", "zero"]}, "gains": ["exponential", "linear"], "item_types": ["text", "number"], "defaults": {"k": [1, 3, 5, 10, 20, none], "query_col": "query_id", "item_col": "item_id", "score_col": none, "rank_col": none, "label_col": "label", "label": none, "gain": "exponential", "discount": "log", "log_base": 2.0, "ties": "average", "weight_col": none, "no_relevant": "zero", "missing_queries": "ignore", "unjudged": "zero", "measures": none, "convention": none, "row_col": none, "score_precision": "double", "negative_labels": "error", "segments": none, "intervals": none, "bootstrap": 0, "seed": 0}, "max_exponential_label": 1023, "max_replicates": 100000, "max_cutoff": 9223372036854775807, "output_columns": ["k", "cg", "dcg", "idcg", "ndcg", "measure", "value", "weight"], "summary_columns": ["mean", "queries", "no_relevant", "evaluated", "stderr", "ci_low", "ci_high", "ci_method", "bootstrap_low", "bootstrap_high"], "head_length": {"default": 20, "max": 32}, "max_counted_labels": 16, "exact_whole": 9007199254740992}) }}
{%- endmacro %}

{#- ndcg_sql/conventions.py -#}
{% macro _convention_table() -%}
  {{ return({"conventions": {"trec_eval": {"discount": "log", "log_base": 2.0, "gain": "linear", "ties": "item-desc", "no_relevant": "zero", "score_precision": "float32", "negative_labels": "zero", "label_reading": "atol", "ids": "text", "peer": "trec_eval", "peer_measures": ["nDCG", "P", "R", "AP", "RR", "Success"], "weights": false}, "sklearn": {"discount": "log", "gain": "linear", "ties": "average", "no_relevant": "zero", "score_precision": "double", "negative_labels": "error", "judgments_allowed": false, "peer": "scikit-learn", "peer_measures": ["nDCG", "DCG"]}, "lightgbm": {"discount": "log", "log_base": 2.0, "gain": "exponential", "ties": "input-order", "no_relevant": "one", "score_precision": "double", "negative_labels": "error", "judgments_allowed": false, "no_relevant_weight": "one", "peer": "LightGBM", "peer_measures": ["nDCG"]}, "xgboost": {"discount": "log", "log_base": 2.0, "gain": "exponential", "ties": "input-order", "no_relevant": "one", "score_precision": "float32", "negative_labels": "error", "judgments_allowed": false, "no_relevant_weight": "one", "peer": "XGBoost", "peer_measures": ["nDCG"]}, "xgboost-minus": {"discount": "log", "log_base": 2.0, "gain": "exponential", "ties": "input-order", "no_relevant": "zero", "score_precision": "float32", "negative_labels": "error", "judgments_allowed": false, "peer": "XGBoost", "peer_measures": ["nDCG"]}}, "aliases": {"pytrec_eval": "trec_eval", "ir_measures": "trec_eval", "scikit-learn": "sklearn", "xgboost-": "xgboost-minus"}}) }}
{%- endmacro %}

{#- ndcg_sql/measures.py -#}
{% macro _measure_grammar() -%}
  {{ return({"pattern": "^\\s*(?P<family>[A-Za-z]+)\\s*(?:\\((?P<params>[^)]*)\\))?\\s*(?:@\\s*(?P<k>[^\\s]+))?\\s*$", "aliases": {"cg": "CG", "dcg": "DCG", "ndcg": "nDCG", "p": "P", "r": "R", "ap": "AP", "map": "AP", "rr": "RR", "mrr": "RR", "success": "Success", "hit": "Success", "judged": "Judged", "rbp": "RBP", "rbpresidual": "RBPResidual", "err": "ERR"}, "graded": ["CG", "DCG", "nDCG"], "linear": ["CG", "DCG", "nDCG", "P", "R", "Judged", "RBP", "RBPResidual"], "need_cutoff": ["P", "R", "Success"], "unbounded": ["CG", "DCG"], "zero_one": ["Success"], "zero_one_at_1": ["P", "RR", "Judged"], "no_threshold": ["Judged", "RBPResidual", "ERR"], "judged": ["Judged", "RBPResidual"], "persistence": ["RBP", "RBPResidual"], "default_p": 0.8, "err_max_grade": 4, "graded_column": {"CG": "cg", "DCG": "dcg", "nDCG": "ndcg"}}) }}
{%- endmacro %}

{#- ndcg_sql/identifiers.py -#}
{% macro _plain_name_pattern() -%}
  {{ return("[A-Za-z_][A-Za-z0-9_]*") }}
{%- endmacro %}
