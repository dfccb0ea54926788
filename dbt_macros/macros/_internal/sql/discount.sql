{#- Copied from sql/discount.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- Discount of the item at a rank (1 = top), b = log_base (a checked number, > 1):
      log       1 / log_b(rank + 1): with b = 2 the usual discount (Burges et al. 2005; scikit-learn,
                trec_eval, LightGBM, XGBoost); another b scales DCG by ln(2)/ln(b), as
                scikit-learn's dcg_score(log_base=b)
      jarvelin  1 for rank < b, 1 / log_b(rank) for rank >= b (Jarvelin & Kekalainen, TOIS 2002)
    written ln(b) / ln(.): LN means the same on every engine, LOG does not. -#}
{%- macro _discount_of(ctx, rank) -%}
{%- set discount = ctx['discount'] -%}
{%- set log_base = ctx['log_base'] -%}
{%- if discount == 'jarvelin' -%}
(CASE WHEN CAST({{ rank }} AS {{ ndcg_sql.sql_type('DOUBLE') }}) < {{ log_base }} THEN 1.0 ELSE CAST(LN({{ log_base }}) AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(LN(CAST({{ rank }} AS {{ ndcg_sql.sql_type('DOUBLE') }})), 0) END)
{%- else -%}
(CAST(LN({{ log_base }}) AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(LN(CAST({{ rank }} AS {{ ndcg_sql.sql_type('DOUBLE') }}) + 1.0), 0))
{%- endif -%}
{%- endmacro -%}

{#- One row: the discount at each of the head positions 1..head_length, named discount_<position>
    (the head's sums read them: sql/dcg_at_cutoffs.sql.j2), written once for the run's and the ideal
    ranking's sums. (A position p >= 1 is never where the logarithm is 0; the NULLIF is the rule
    every divisor follows, tests/test_portable_sql.py.) -#}
{%- macro _discounts(ctx) -%}
{%- set head_length = ctx['head_length'] -%}
{%- set log_base = ctx['log_base'] -%}
discounts AS ( -- one row: the discount at each head position, {{ '1/log_b(position) past b, 1 before' if ctx['discount'] == 'jarvelin' else '1/log_b(position + 1)' }} with b = {{ log_base }}
  SELECT
    {%- for p in range(1, head_length + 1) %}
    {% if ctx['discount'] == 'jarvelin' and p < (log_base | float) %}CAST(1.0 AS {{ ndcg_sql.sql_type('DOUBLE') }}){% elif ctx['discount'] == 'jarvelin' %}CAST(LN({{ log_base }}) AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(LN(CAST({{ p }} AS {{ ndcg_sql.sql_type('DOUBLE') }})), 0){% else %}CAST(LN({{ log_base }}) AS {{ ndcg_sql.sql_type('DOUBLE') }}) / NULLIF(LN(CAST({{ p + 1 }} AS {{ ndcg_sql.sql_type('DOUBLE') }})), 0){% endif %} AS discount_{{ p }}{% if not loop.last %},{% endif %}
    {%- endfor %}
)
{%- endmacro -%}
