{#- Generated from sql/query_keys.sql.j2 by `python -m tools.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{%- macro _tmpl_query_keys__balanced(ndcg_context, terms, first, last) -%}
{%- if first == last -%}
{{ terms[first] }}
{%- else -%}
{%- set middle = (first + last) // 2 -%}
({{ ndcg_sql._tmpl_query_keys__balanced(ndcg_context, terms, first, middle) }} + {{ ndcg_sql._tmpl_query_keys__balanced(ndcg_context, terms, middle + 1, last) }})
{%- endif -%}
{%- endmacro -%}
