{#- Generated from sql/gain.sql.j2 by `python -m tools.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{%- macro _tmpl_gain__counted_label(ndcg_context, raw) -%}{% set negative_labels = ndcg_context['negative_labels'] -%}
{%- if negative_labels == 'zero' -%}
CASE WHEN CAST({{ raw }} AS {{ ndcg_sql.sql_type('DOUBLE') }}) > 0.0 THEN CAST({{ raw }} AS {{ ndcg_sql.sql_type('DOUBLE') }}) ELSE 0.0 END
{%- else -%}
CAST({{ raw }} AS {{ ndcg_sql.sql_type('DOUBLE') }})
{%- endif -%}
{%- endmacro -%}
