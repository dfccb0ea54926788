{#- Generated from sql/query_keys.sql.j2 by `python -m tools.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{%- macro _tmpl_query_keys__hash_of(ndcg_context, key, base, width=12) -%}
{%- set terms = ['MOD(CAST(LENGTH(' ~ key ~ (') AS ' ~ ndcg_sql.sql_type('BIGINT') ~ ') * ') ~ (base ** (2 * width + 1)) % 2147483647 ~ ', 2147483647)'] -%}
{%- for i in range(1, width + 1) -%}
{%- set _ = terms.append('MOD(CAST(CASE WHEN LENGTH(' ~ key ~ ') >= ' ~ i ~ ' THEN UNICODE(SUBSTRING(' ~ key ~ ', ' ~ i ~ (', 1)) ELSE 0 END AS ' ~ ndcg_sql.sql_type('BIGINT') ~ ') * ') ~ (base ** i) % 2147483647 ~ ', 2147483647)') -%}
{%- set _ = terms.append('MOD(CAST(CASE WHEN LENGTH(' ~ key ~ ') >= ' ~ i ~ ' THEN UNICODE(SUBSTRING(' ~ key ~ ', LENGTH(' ~ key ~ ') - ' ~ (i - 1) ~ (', 1)) ELSE 0 END AS ' ~ ndcg_sql.sql_type('BIGINT') ~ ') * ') ~ (base ** (width + i)) % 2147483647 ~ ', 2147483647)') -%}
{%- endfor -%}
MOD({{ ndcg_sql._tmpl_query_keys__balanced(ndcg_context, terms, 0, terms | length - 1) }}, 2147483647)
{%- endmacro -%}
