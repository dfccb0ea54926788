{#- Generated from sql/gain.sql.j2 by `python -m tools.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{%- macro _tmpl_gain__counted_label(ndcg_context, raw) -%}{% set negative_labels = ndcg_context['negative_labels'] %}{% set whole_labels = ndcg_context['whole_labels'] -%}
{%- set number = 'CAST(' ~ raw ~ (' AS ' ~ ndcg_sql.sql_type('DOUBLE') ~ ')') -%}
{%- set counted = ('CASE WHEN ' ~ number ~ ' < 0.0 THEN CEIL(' ~ number ~ ') ELSE FLOOR(' ~ number ~ ') END') if whole_labels | default(false) else number -%}
{%- if negative_labels == 'zero' -%}
CASE WHEN {{ number }} > 0.0 THEN {{ counted }} ELSE 0.0 END
{%- else -%}
{{ counted }}
{%- endif -%}
{%- endmacro -%}
