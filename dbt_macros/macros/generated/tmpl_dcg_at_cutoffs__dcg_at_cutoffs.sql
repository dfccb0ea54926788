{#- Generated from sql/dcg_at_cutoffs.sql.j2 by `python -m ndcg_sql.dbt_gen`: do not edit.
    Change the template and regenerate (tests/test_dbt_gen.py checks they agree). -#}
{%- macro tmpl_dcg_at_cutoffs__dcg_at_cutoffs(ndcg_context, name, ranking, gain_column, prefix) -%}{% set cutoffs = ndcg_context['cutoffs'] -%}
{{ name }}_by_rank AS ( -- one row per (query, rank): CG and DCG of the ranks above and at it
  SELECT
    qid,
    rank,
    SUM({{ gain_column }}) OVER (
      PARTITION BY qid ORDER BY rank ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS running_cg,
    SUM({{ gain_column }} * {{ ndcg_sql.tmpl_discount__discount_of(ndcg_context, 'rank') }}) OVER (
      PARTITION BY qid ORDER BY rank ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS running_dcg
  FROM {{ ranking }}
),
{{ name }}_at_cutoffs AS ( -- one row per query: CG and DCG at every cutoff
  SELECT
    qid
    {%- for cutoff in cutoffs %},
    MAX({% if cutoff.k is not none %}CASE WHEN rank <= {{ cutoff.k }} THEN running_cg END{% else %}running_cg{% endif %}) AS {{ prefix }}cg_{{ cutoff.id }},
    MAX({% if cutoff.k is not none %}CASE WHEN rank <= {{ cutoff.k }} THEN running_dcg END{% else %}running_dcg{% endif %}) AS {{ prefix }}dcg_{{ cutoff.id }}
    {%- endfor %}
  FROM {{ name }}_by_rank
  GROUP BY qid
)
{%- endmacro -%}
