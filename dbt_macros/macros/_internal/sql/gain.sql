{#- Copied from sql/gain.sql.j2 by `python -m tools.dbt_gen`, casts written per engine: do not edit. -#}
{#- Gain: how much one item of a given relevance label is worth, and the label it is taken from.
    exponential: 2^label - 1 (Burges et al., ICML 2005; LightGBM, XGBoost)
    linear:      label        (Jarvelin & Kekalainen 2002; trec_eval, scikit-learn)
    mapping:     a user-given table label -> gain (numbers validated in Python)
-#}
{%- macro _gain_of(ctx, label) -%}
{%- set gain = ctx['gain'] -%}
{%- set gain_mapping = ctx['gain_mapping'] -%}
{%- if gain == 'exponential' -%}
(POWER(2.0, {{ label }}) - 1.0)
{%- elif gain == 'linear' -%}
{{ label }}
{%- else -%}
CASE {{ label }}{% for pair in gain_mapping %} WHEN {{ pair[0] }} THEN CAST({{ pair[1] }} AS {{ ndcg_sql.sql_type('DOUBLE') }}){% endfor %} END
{%- endif -%}
{%- endmacro -%}
{#- The label an item counts with, from its raw label: the number itself, or with
    negative_labels 'zero' a negative label counted as 0 (trec_eval). Written without
    GREATEST, whose NULL handling differs between engines (labels are never NULL here).
    whole_labels (the trec_eval convention): its whole part, as trec_eval reads a relevance
    level with atol (a label 1.5 counts 1; get_qrels.c). -#}
{%- macro _counted_label(ctx, raw) -%}
{%- set negative_labels = ctx['negative_labels'] -%}
{%- set whole_labels = ctx['whole_labels'] -%}
{%- set number = 'CAST(' ~ raw ~ (' AS ' ~ ndcg_sql.sql_type('DOUBLE') ~ ')') -%}
{%- set counted = ('CASE WHEN ' ~ number ~ ' < 0.0 THEN CEIL(' ~ number ~ ') ELSE FLOOR(' ~ number ~ ') END') if whole_labels | default(false) else number -%}
{%- if negative_labels == 'zero' -%}
CASE WHEN {{ number }} > 0.0 THEN {{ counted }} ELSE 0.0 END
{%- else -%}
{{ counted }}
{%- endif -%}
{%- endmacro -%}
{#- 1.0 when a judgment's raw label is at or above 0 (assessed: relevant or not), 0.0 when it is
    below 0: in the pool but not judged, as trec_eval's form_res_rels.c reads a qrels level below
    0 (Bpref and infAP pass such items over as they do items without a judgment). With
    whole_labels the whole part is compared, as trec_eval's atol reads it (-0.5 counts 0). -#}
{%- macro _assessed_flag(ctx, raw) -%}
{%- set number = 'CAST(' ~ raw ~ (' AS ' ~ ndcg_sql.sql_type('DOUBLE') ~ ')') -%}
{%- if ctx['whole_labels'] | default(false) -%}
CASE WHEN CEIL({{ number }}) < 0.0 THEN 0.0 ELSE 1.0 END
{%- else -%}
CASE WHEN {{ number }} < 0.0 THEN 0.0 ELSE 1.0 END
{%- endif -%}
{%- endmacro -%}
