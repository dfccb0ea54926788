{#- Generated from sql/summary.sql.j2 by `python -m tools.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{%- macro _tmpl_summary__wilson(ndcg_context, sign) -%}
CASE WHEN m.queries < 2 THEN NULL WHEN m.mean = {{ 0 if sign == '-' else 1 }} THEN {{ '0.0' if sign == '-' else '1.0' }} ELSE CAST(m.queries * m.mean + 0.5 * 1.959963984540054 * 1.959963984540054 {{ sign }} 1.959963984540054 * SQRT(m.queries * m.mean * (1 - m.mean) + 0.25 * 1.959963984540054 * 1.959963984540054) AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(m.queries + 1.959963984540054 * 1.959963984540054, 0) END
{%- endmacro -%}
