{#- Generated from sql/dcg_at_cutoffs.sql.j2 by `python -m tools.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{%- macro _tmpl_dcg_at_cutoffs__dcg_at_cutoffs(ndcg_context, name, ranking, prefix) -%}{% set cutoffs = ndcg_context['cutoffs'] %}{% set head_length = ndcg_context['head_length'] %}{% set tail_cutoffs = ndcg_context['tail_cutoffs'] -%}
{%- if ranking is not none %}
{%- if tail_cutoffs %}
{{ name }}_by_position AS ( -- one row per (query, position): its gain, and CG and DCG of the positions from the head's end through it
  SELECT
    qid,
    position,
    gain,
    SUM(CASE WHEN position > {{ head_length }} THEN gain END) OVER (
      PARTITION BY qid ORDER BY position ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS tail_cg,
    SUM(CASE WHEN position > {{ head_length }} THEN gain * {{ ndcg_sql._tmpl_discount__discount_of(ndcg_context, 'position') }} END) OVER (
      PARTITION BY qid ORDER BY position ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS tail_dcg
  FROM {{ ranking }}
),
{%- endif %}
{{ name }}_by_query AS ( -- one row per query: the gain at each head position (NULL past the list), CG and DCG past the head
  {#- gains are non-negative, so a running sum never decreases and its
      maximum over positions <= k is the sum through min(k, list length) #}
  SELECT
    qid
    {%- for p in range(1, head_length + 1) %},
    MAX(CASE WHEN position = {{ p }} THEN gain END) AS gain_at_{{ p }}
    {%- endfor %}
    {%- for cutoff in tail_cutoffs %},
    MAX({% if cutoff.k is not none %}CASE WHEN position <= {{ cutoff.k }} THEN tail_cg END{% else %}tail_cg{% endif %}) AS tail_cg_{{ cutoff.id }},
    MAX({% if cutoff.k is not none %}CASE WHEN position <= {{ cutoff.k }} THEN tail_dcg END{% else %}tail_dcg{% endif %}) AS tail_dcg_{{ cutoff.id }}
    {%- endfor %}
  FROM {% if tail_cutoffs %}{{ name }}_by_position{% else %}{{ ranking }}{% endif %}
  GROUP BY qid
),
{%- endif %}
{%- set tail_ids = tail_cutoffs | map(attribute='id') | list %}
{%- set whole_head = cutoffs | selectattr('k', 'none') | list + cutoffs | rejectattr('k', 'none') | selectattr('k', 'ge', head_length) | list %}
{%- if whole_head %}
{{ name }}_head AS ( -- one row per query: the gains at the head positions, and CG and DCG of the whole head (summed once, for every cutoff at or past its end)
  SELECT
    *,
    {{ ndcg_sql._tmpl_dcg_at_cutoffs__head_sum(ndcg_context, head_length, false) }} AS head_cg,
    {{ ndcg_sql._tmpl_dcg_at_cutoffs__head_sum(ndcg_context, head_length, true) }} AS head_dcg
  FROM {{ name }}_by_query
),
{%- endif %}
{{ name }}_at_cutoffs AS ( -- one row per query: CG and DCG at every cutoff
  SELECT
    qid
    {%- for cutoff in cutoffs %}
    {%- set in_tail = cutoff.id in tail_ids %}
    {%- set whole = cutoff.k is none or cutoff.k >= head_length %},
    {% if whole %}head_cg{% else %}{{ ndcg_sql._tmpl_dcg_at_cutoffs__head_sum(ndcg_context, cutoff.k, false) }}{% endif %}{% if in_tail %} + COALESCE(tail_cg_{{ cutoff.id }}, 0.0){% endif %} AS {{ prefix }}cg_{{ cutoff.id }},
    {% if whole %}head_dcg{% else %}{{ ndcg_sql._tmpl_dcg_at_cutoffs__head_sum(ndcg_context, cutoff.k, true) }}{% endif %}{% if in_tail %} + COALESCE(tail_dcg_{{ cutoff.id }}, 0.0){% endif %} AS {{ prefix }}dcg_{{ cutoff.id }}
    {%- endfor %}
  FROM {{ name }}_{% if whole_head %}head{% else %}by_query{% endif %}
)
{%- endmacro -%}
