{#- Copied from sql/dcg_at_cutoffs.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- DCG of a ranking at every cutoff, used for the run and for the ideal.
    DCG@k = sum over positions p <= min(k, list length) of gain(p) * discount(p).
    A ranking arrives as one row per (query, position) with the gain there.
    The head, positions 1..head_length, which holds every cutoff up to
    head_length, is spread into one column per position and summed in a
    fixed order (sum_of); positions past the head (the whole list of a long
    list, cutoffs beyond head_length) are summed in position order by a
    running sum. Every sum has a fixed order, so results do not depend on row
    order or threads. With tail_sums (sql/options/ranking_context.sql) the positions past
    the head are summed in the per-query group-by instead, with no second sort: each term rounded
    to a decimal with 18 places and summed exactly (gains whole and each list's below 2^53, so
    every sum fits DECIMAL(38, 18)), the same terms as the ideal's prefix table
    (sql/ideal_items.sql.j2); the sum is order-independent, and its rounding moves DCG past the
    head by at most 5e-19 per position, against a running sum's up to one unit of the last
    place per position.
    Past the list a position holds no gain: DCG@k sums the items present.
    With ranking none, {name}_by_query (the gain at each head position) is
    already defined by the caller. The head's discounts are the columns of the
    one-row CTE discounts (sql/discount.sql.j2), defined by the caller. -#}
{%- macro _dcg_term(ctx, p, with_discount) -%}
COALESCE(gain_at_{{ p }}, 0.0){% if with_discount %} * discount_{{ p }}{% endif %}
{%- endmacro -%}
{#- positions first..last added as a balanced tree, (a + b) + (c + d): a fixed
    order like any other, and shallow (a left-to-right chain of 32 terms nests
    too deep for some engines' analyzers, GoogleSQL's among them) -#}
{%- macro _dcg_sum_of(ctx, first, last, with_discount) -%}
{%- if first == last -%}
{{ ndcg_sql._dcg_term(ctx, first, with_discount) }}
{%- else -%}
{%- set middle = (first + last) // 2 -%}
({{ ndcg_sql._dcg_sum_of(ctx, first, middle, with_discount) }} + {{ ndcg_sql._dcg_sum_of(ctx, middle + 1, last, with_discount) }})
{%- endif -%}
{%- endmacro -%}
{%- macro _dcg_head_sum(ctx, k, with_discount) -%}
{%- set head_length = ctx['head_length'] -%}
{{ ndcg_sql._dcg_sum_of(ctx, 1, [k, head_length] | min, with_discount) }}
{%- endmacro -%}
{#- counts: labels (ideal_labels) counted per query in the same group-by, as items_of_grade_j
    (the ranking then has a label column), carried to {name}_at_cutoffs for the ideal ranking
    (sql/ideal_items.sql.j2, fused_from); carry: columns of the ranking's CTE carried through to
    {name}_at_cutoffs. -#}
{%- macro _dcg_at_cutoffs(ctx, name, ranking, prefix, counts=none, carry=[]) -%}
{%- set cutoffs = ctx['cutoffs'] -%}
{%- set head_length = ctx['head_length'] -%}
{%- set tail_cutoffs = ctx['tail_cutoffs'] -%}
{%- set tail_sums = ctx['tail_sums'] -%}
{%- if ranking is not none %}
{%- if tail_cutoffs and not tail_sums %}
{{ name }}_by_position AS ( -- one row per (query, position): its gain, and CG and DCG of the positions from the head's end through it
  SELECT
    qid,
    position,
    gain,
    SUM(CASE WHEN position > {{ head_length }} THEN gain END) OVER (
      PARTITION BY qid ORDER BY position ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS tail_cg,
    SUM(CASE WHEN position > {{ head_length }} THEN gain * {{ ndcg_sql._discount_of(ctx, 'position') }} END) OVER (
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
    {%- if tail_sums %}
    {%- set past_head = 'position > ' ~ head_length ~ ((' AND position <= ' ~ cutoff.k) if cutoff.k is not none else '') %}
    CAST(SUM(CASE WHEN {{ past_head }} THEN CAST(gain AS {{ ndcg_sql.sql_type('DECIMAL(38, 18)') }}) END) AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS tail_cg_{{ cutoff.id }},
    CAST(SUM(CASE WHEN {{ past_head }} THEN CAST(gain * {{ ndcg_sql._discount_of(ctx, 'position') }} AS {{ ndcg_sql.sql_type('DECIMAL(38, 18)') }}) END) AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS tail_dcg_{{ cutoff.id }}
    {%- else %}
    MAX({% if cutoff.k is not none %}CASE WHEN position <= {{ cutoff.k }} THEN tail_cg END{% else %}tail_cg{% endif %}) AS tail_cg_{{ cutoff.id }},
    MAX({% if cutoff.k is not none %}CASE WHEN position <= {{ cutoff.k }} THEN tail_dcg END{% else %}tail_dcg{% endif %}) AS tail_dcg_{{ cutoff.id }}
    {%- endif %}
    {%- endfor %}
    {%- for grade in counts or [] %},
    COUNT(CASE WHEN label = {{ grade.label }} THEN 1 END) AS items_of_grade_{{ loop.index }}
    {%- endfor %}
  FROM {% if tail_cutoffs and not tail_sums %}{{ name }}_by_position{% else %}{{ ranking }}{% endif %}
  GROUP BY qid
),
{%- endif %}
{%- set tail_ids = tail_cutoffs | map(attribute='id') | list %}
{%- set whole_head = cutoffs | selectattr('k', 'none') | list + cutoffs | rejectattr('k', 'none') | selectattr('k', 'ge', head_length) | list %}
{%- if whole_head %}
{{ name }}_head AS ( -- one row per query: the gains at the head positions, and CG and DCG of the whole head (summed once, for every cutoff at or past its end)
  SELECT
    *,
    {{ ndcg_sql._dcg_head_sum(ctx, head_length, false) }} AS head_cg,
    {{ ndcg_sql._dcg_head_sum(ctx, head_length, true) }} AS head_dcg
  FROM {{ name }}_by_query
  CROSS JOIN discounts
),
{%- endif %}
{{ name }}_at_cutoffs AS ( -- one row per query: CG and DCG at every cutoff
  SELECT
    qid
    {%- for column in carry %},
    {{ column }}
    {%- endfor %}
    {%- for grade in counts or [] %},
    items_of_grade_{{ loop.index }}
    {%- endfor %}
    {%- for cutoff in cutoffs %}
    {%- set in_tail = cutoff.id in tail_ids %}
    {%- set whole = cutoff.k is none or cutoff.k >= head_length %},
    {% if whole %}head_cg{% else %}{{ ndcg_sql._dcg_head_sum(ctx, cutoff.k, false) }}{% endif %}{% if in_tail %} + COALESCE(tail_cg_{{ cutoff.id }}, 0.0){% endif %} AS {{ prefix }}cg_{{ cutoff.id }},
    {% if whole %}head_dcg{% else %}{{ ndcg_sql._dcg_head_sum(ctx, cutoff.k, true) }}{% endif %}{% if in_tail %} + COALESCE(tail_dcg_{{ cutoff.id }}, 0.0){% endif %} AS {{ prefix }}dcg_{{ cutoff.id }}
    {%- endfor %}
  FROM {% if whole_head %}{{ name }}_head{% else %}{{ name }}_by_query
  CROSS JOIN discounts{% endif %}
)
{%- endmacro -%}
