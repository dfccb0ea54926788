{#- Copied from sql/ideal_items.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- The ideal ranking: every item the query could have shown, by gain
    descending. From the ranked list itself (default), or with judgments
    from all judged items of the query, retrieved or not (trec_eval).
    When every ideal ranking fits in the head and the labels are few and
    known (the caller found them while checking the input: ideal_labels, by
    gain descending, only those with a positive gain), no item is sorted: a
    query's ideal ranking is fully described by how many items it has of each
    label, and the items of one label fill consecutive positions, the highest
    gain first. Otherwise the items are numbered by gain descending.
    With tail_sums (long lists, a cutoff past the head: sql/options/ranking_context.sql) the
    labels are counted too and nothing is sorted at any list length: the items of the j-th label
    fill the ideal positions s+1 .. s+c (s the items of higher labels, c its own), so past the
    head and through a cutoff k they add P_j(min(k, max(s+c, head))) - P_j(min(k, max(s, head))),
    P_j(n) the DCG one item of that label adds at each position from head+1 through n: a prefix
    table of the discount, one list per label indexed by n + 1 (built once, as long as the longest
    list). Each term is gain * discount as the run's sum computes it, rounded to 18 decimals, and
    summed exactly (DECIMAL(38, 18)), as the run's is (sql/dcg_at_cutoffs.sql.j2): a ranking that
    is ideal gets the same sum to the bit. -#}
{#- the ideal ranking is counted per label, not sorted -#}
{%- macro _ideal_counted(ctx) -%}
{{ 'counted' if ctx['ideal_labels'] is not none and (not ctx['tail_cutoffs'] or ctx['tail_sums']) else '' }}
{%- endmacro -%}
{#- the first and the one-past-last ideal position (0-based, between the head and cutoff k: none for the
    whole list) of the items of the j-th label, with `counts` the items of labels 1..j, the earlier ones
    first -#}
{%- macro _ideal_bound(ctx, counts, k) -%}
{%- set head_length = ctx['head_length'] -%}
{%- set through = 'GREATEST(' ~ (counts | join(' + ') if counts else '0') ~ ', ' ~ head_length ~ ')' -%}
{%- if k is none %}{{ through }}{% else %}LEAST({{ k }}, {{ through }}){% endif -%}
{%- endmacro -%}
{#- With fused_from (list mode, the ideal counted: sql/per_query.sql.j2) the labels were counted in
    the run's own per-query group-by (_dcg_at_cutoffs' counts), and the ideal ranking is read from
    that CTE, one row per query, carrying its columns `carry` along: no second scan of the
    ranking, no second group-by, no join of the two. -#}
{% macro _ideal_items(ctx, fused_from=none, carry=[]) -%}
{%- set head_length = ctx['head_length'] -%}
{%- set ideal_labels = ctx['ideal_labels'] -%}
{%- set judgments = ctx['judgments'] -%}
{%- set tail_cutoffs = ctx['tail_cutoffs'] -%}
{%- set tail_sums = ctx['tail_sums'] -%}
{%- set ideal_source -%}
    SELECT qid, {{ ndcg_sql._gain_of(ctx, ndcg_sql._counted_label(ctx, 'label_raw')) }} AS gain
    FROM {% if judgments %}judgment_labels{% else %}run_labels{% endif %}
{%- endset -%}
{%- if ndcg_sql._ideal_counted(ctx) %}
{%- if fused_from is none %}
ideal_label_counts AS ( -- one row per query: how many items it has of each label with a positive gain
  SELECT
    qid
    {%- for grade in ideal_labels %},
    COUNT(CASE WHEN CAST(label_raw AS {{ ndcg_sql.sql_type('DOUBLE') }}) = {{ grade.label }} THEN 1 END) AS items_of_grade_{{ loop.index }}
    {%- endfor %}
  FROM {% if judgments %}judgment_labels{% else %}run_labels{% endif %}
  GROUP BY qid
),
{%- endif %}
{%- if tail_sums and ideal_labels %}
ideal_tail_prefix AS ( -- one row: for each label, the DCG one item of it adds at each position from the head's end through n, for n = 0 .. the longest list (a list indexed by n + 1)
  SELECT
    {%- for grade in ideal_labels %}
    LIST(added ORDER BY n ASC) FILTER (WHERE grade = {{ loop.index }}) AS prefix_{{ loop.index }}{% if not loop.last %},{% endif %}
    {%- endfor %}
  FROM (
    {#- partitioned by label: a label's running sum over the positions, no query's rows -#}
    SELECT
      grade,
      n,
      SUM(CASE WHEN n > {{ head_length }} THEN CAST(gain * {{ ndcg_sql._discount_of(ctx, 'n') }} AS {{ ndcg_sql.sql_type('DECIMAL(38, 18)') }}) ELSE CAST(0 AS {{ ndcg_sql.sql_type('DECIMAL(38, 18)') }}) END) OVER (
        PARTITION BY grade ORDER BY n ASC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS added
    FROM range(0, {{ ctx['positions'] + 1 }}) AS positions(n)
    CROSS JOIN (
      {%- for grade in ideal_labels %}
      {% if not loop.first %}UNION ALL {% endif %}SELECT {{ loop.index }} AS grade, CAST({{ ndcg_sql._gain_of(ctx, grade.label) }} AS {{ ndcg_sql.sql_type('DOUBLE') }}) AS gain
      {%- endfor %}
    ) AS grades
  ) AS running
),
{%- endif %}
ideal_dcg_by_query AS ( -- one row per query: the gain at each head position of its ideal ranking (NULL past its items){% if tail_sums %}, CG and DCG past the head{% endif %}
  SELECT
    qid
    {%- for column in carry %},
    {{ column }}
    {%- endfor %}
    {%- for p in range(1, head_length + 1) %},
    {% if ideal_labels %}CASE{% for grade in ideal_labels %} WHEN {{ p }} <= {% for earlier in range(1, loop.index + 1) %}{% if not loop.first %} + {% endif %}items_of_grade_{{ earlier }}{% endfor %} THEN {{ ndcg_sql._gain_of(ctx, grade.label) }}{% endfor %} END{% else %}CAST(NULL AS {{ ndcg_sql.sql_type('DOUBLE') }}){% endif %} AS gain_at_{{ p }}
    {%- endfor %}
    {%- set grade_counts = [] %}
    {%- for grade in ideal_labels or [] %}{% do grade_counts.append('items_of_grade_' ~ loop.index) %}{% endfor %}
    {%- for cutoff in (tail_cutoffs if tail_sums else []) %}
    {%- set bounds = [] %}
    {%- for grade in ideal_labels %}
    {%- do bounds.append((ndcg_sql._ideal_bound(ctx, grade_counts[:loop.index0], cutoff.k), ndcg_sql._ideal_bound(ctx, grade_counts[:loop.index], cutoff.k))) %}
    {%- endfor %},
    {% if ideal_labels %}{% for grade in ideal_labels %}{% if not loop.first %} + {% endif %}{{ ndcg_sql._gain_of(ctx, grade.label) }} * ({{ bounds[loop.index0][1] }} - {{ bounds[loop.index0][0] }}){% endfor %}{% else %}CAST(0.0 AS {{ ndcg_sql.sql_type('DOUBLE') }}){% endif %} AS tail_cg_{{ cutoff.id }},
    {% if ideal_labels %}CAST({% for grade in ideal_labels %}{% if not loop.first %} + {% endif %}(prefix_{{ loop.index }}[{{ bounds[loop.index0][1] }} + 1] - prefix_{{ loop.index }}[{{ bounds[loop.index0][0] }} + 1]){% endfor %} AS {{ ndcg_sql.sql_type('DOUBLE') }}){% else %}CAST(0.0 AS {{ ndcg_sql.sql_type('DOUBLE') }}){% endif %} AS tail_dcg_{{ cutoff.id }}
    {%- endfor %}
  FROM {{ fused_from or 'ideal_label_counts' }}
  {%- if tail_sums and ideal_labels %}
  CROSS JOIN ideal_tail_prefix
  {%- endif %}
)
{%- else %}
ideal_items AS ( -- one row per (query, position in the ideal ranking) with the gain found there
  SELECT qid, ROW_NUMBER() OVER (PARTITION BY qid ORDER BY gain DESC NULLS LAST) AS position, gain
  FROM ({{ ideal_source }}
  ) AS ideal_source
)
{%- endif %}
{% endmacro %}
