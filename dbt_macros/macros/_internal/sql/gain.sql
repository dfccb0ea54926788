{#- Copied from sql/gain.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
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
    negative_labels 'zero' or 'unjudged' a negative label counted as 0 (trec_eval). Written without
    GREATEST, whose NULL handling differs between engines (labels are never NULL here).
    whole_labels (the trec_eval convention): its whole part, as trec_eval reads a relevance
    level with atol (a label 1.5 counts 1; get_qrels.c). -#}
{%- macro _counted_label(ctx, raw) -%}
{%- set number = ndcg_sql._cast(raw, 'DOUBLE') -%}
{%- set counted = ndcg_sql._read_label(ctx, raw) -%}
{%- if ctx['negative_labels'] in ('zero', 'unjudged') -%}
CASE WHEN {{ number }} > 0.0 THEN {{ counted }} ELSE 0.0 END
{%- else -%}
{{ counted }}
{%- endif -%}
{%- endmacro -%}
{#- The label as read, before negative labels count as 0: the number, or under whole_labels its
    whole part (atol: -0.5 reads 0, not a negative label). -#}
{%- macro _read_label(ctx, raw) -%}
{%- set number = ndcg_sql._cast(raw, 'DOUBLE') -%}
{%- if ctx['whole_labels'] | default(false) -%}
CASE WHEN {{ number }} < 0.0 THEN CEIL({{ number }}) ELSE FLOOR({{ number }}) END
{%- else -%}
{{ number }}
{%- endif -%}
{%- endmacro -%}
{#- Whether a judgment makes its item judged: every judgment, or with negative_labels 'unjudged'
    only those read as 0 or more (trec_eval's form_res_rels.c: a relevance below 0 marks an item
    that is in the pool but was not judged, which -J drops like an item never judged). SQL of a
    condition, or none when every judgment counts. -#}
{%- macro _judgment_counts(ctx, raw) -%}
{%- if ctx['negative_labels'] == 'unjudged' -%}
{{ return(ndcg_sql._read_label(ctx, raw) ~ ' >= 0.0') }}
{%- endif -%}
{{ return(none) }}
{%- endmacro -%}
{#- 1.0 when a judgment's label as read (_read_label) is at or above 0 (assessed: relevant or
    not), 0.0 when it is below 0: in the pool but not judged, as trec_eval's form_res_rels.c reads
    a qrels level below 0 (Bpref and infAP pass such items over as they do items without a
    judgment). -#}
{%- macro _assessed_flag(ctx, raw) -%}
CASE WHEN {{ ndcg_sql._read_label(ctx, raw) }} < 0.0 THEN 0.0 ELSE 1.0 END
{%- endmacro -%}
