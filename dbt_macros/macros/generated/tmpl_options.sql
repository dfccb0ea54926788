{#- Generated from ndcg_sql/conventions.py and ndcg_sql/measures.py by `python -m ndcg_sql.dbt_gen`:
    do not edit. -#}
{#- The peer conventions: options each sets (ndcg_sql/conventions.py CONVENTIONS). -#}
{% macro convention_table() -%}
  {{ return({"conventions": {"trec_eval": {"gain": "linear", "ties": "item-desc", "no_relevant": "zero", "score_precision": "float32", "negative_labels": "zero"}, "sklearn": {"gain": "linear", "ties": "average", "no_relevant": "zero", "score_precision": "double", "negative_labels": "error", "judgments_allowed": false}, "lightgbm": {"gain": "exponential", "ties": "input-order", "no_relevant": "one", "score_precision": "double", "negative_labels": "error", "judgments_allowed": false}, "xgboost": {"gain": "exponential", "ties": "input-order", "no_relevant": "one", "score_precision": "float32", "negative_labels": "error", "judgments_allowed": false}, "xgboost-minus": {"gain": "exponential", "ties": "input-order", "no_relevant": "zero", "score_precision": "float32", "negative_labels": "error", "judgments_allowed": false}}, "aliases": {"pytrec_eval": "trec_eval", "ir_measures": "trec_eval", "scikit-learn": "sklearn", "xgboost-": "xgboost-minus"}, "defaults": {"gain": "exponential", "ties": "average", "no_relevant": "zero", "score_precision": "double", "negative_labels": "error"}}) }}
{%- endmacro %}

{#- Measure names in ir_measures notation (ndcg_sql/measures.py): the name pattern, family aliases,
    which families are graded (gain), linear (tie-averaged) or need a cutoff. -#}
{% macro measure_grammar() -%}
  {{ return({"pattern": "^\\s*(?P<family>[A-Za-z]+)\\s*(?:\\((?P<params>[^)]*)\\))?\\s*(?:@\\s*(?P<k>[^\\s]+))?\\s*$", "aliases": {"ndcg": "nDCG", "cg": "CG", "dcg": "DCG", "p": "P", "r": "R", "ap": "AP", "map": "AP", "rr": "RR", "mrr": "RR", "success": "Success", "hit": "Success"}, "graded": ["CG", "DCG", "nDCG"], "linear": ["CG", "DCG", "nDCG", "P", "R"], "need_cutoff": ["P", "R", "Success"], "graded_column": {"CG": "cg", "DCG": "dcg", "nDCG": "ndcg"}}) }}
{%- endmacro %}
