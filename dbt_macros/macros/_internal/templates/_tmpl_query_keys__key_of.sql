{#- Generated from sql/query_keys.sql.j2 by `python -m tools.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{%- macro _tmpl_query_keys__key_of(ndcg_context, columns) -%}
CASE WHEN {{ columns[-1] }} IS NULL THEN NULL ELSE {% for c in columns %}{% if not loop.first %} || {% endif %}CASE WHEN {{ c }} IS NULL THEN '~' ELSE CAST(LENGTH(CAST({{ c }} AS {{ ndcg_sql.sql_type('VARCHAR') }})) AS {{ ndcg_sql.sql_type('VARCHAR') }}) || ':' || CAST({{ c }} AS {{ ndcg_sql.sql_type('VARCHAR') }}) END{% endfor %} END
{%- endmacro -%}
