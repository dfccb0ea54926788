{#- Generated from sql/ids.sql.j2 by `python -m tools.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{%- macro _tmpl_ids__id_of(ndcg_context, column, form) -%}
{%- if form == 'text' -%}
CAST({{ column }} AS {{ ndcg_sql.sql_type('VARCHAR') }})
{%- elif form == 'number_text' -%}
{{ ndcg_sql._tmpl_ids__number_text(ndcg_context, column) }}
{%- elif form == 'json_text' -%}
CASE JSON_TYPE({{ column }}) WHEN 'NULL' THEN NULL WHEN 'VARCHAR' THEN JSON_EXTRACT_STRING({{ column }}, '$') WHEN 'DOUBLE' THEN {{ ndcg_sql._tmpl_ids__number_text(ndcg_context, 'CAST(' ~ column ~ (' AS ' ~ ndcg_sql.sql_type('DOUBLE') ~ ')')) }} ELSE CAST({{ column }} AS {{ ndcg_sql.sql_type('VARCHAR') }}) END
{%- else -%}
{{ column }}
{%- endif -%}
{%- endmacro -%}
