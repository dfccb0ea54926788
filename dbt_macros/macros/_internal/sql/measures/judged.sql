{#- Copied from sql/measures/judged.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- Judged@k: the judged items at ranks <= k (the judged flag, the threshold 'judged':
    sql/options/measure_context.sql) over min(k, list length), as ir_measures; 0 for a query with
    no ranked item. -#}
{%- macro _judged_numerator(ctx, m) -%}
{{ ndcg_sql._through_cutoff(m, 'relevant_through_' ~ m.threshold_id) }}
{%- endmacro %}

{%- macro _judged_value(ctx, m) -%}
CASE WHEN r.list_length > 0
      THEN CAST(COALESCE(r.numerator_{{ m.id }}, 0.0) AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF({% if m.k is not none %}CASE WHEN r.list_length < {{ m.k }} THEN r.list_length ELSE {{ m.k }} END{% else %}r.list_length{% endif %}, 0)
      ELSE CAST(0.0 AS {{ ndcg_sql.sql_type('DOUBLE') }}) END
{%- endmacro %}
