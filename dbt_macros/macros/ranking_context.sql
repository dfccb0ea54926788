{#- The context of the per-query SQL template (sql/per_query.sql.j2) from the
    options of ndcg_per_query: the dbt counterpart of template_context() in
    ndcg_sql/evaluate.py and of the checks in ndcg_sql/options.py. Column names
    are quoted by ndcg_sql.quote_identifier; numbers are checked to be numbers.
    Raises a compiler error naming the option for any value outside its domain. -#}
{% macro ranking_context(relation, query_col, item_col, score_col, rank_col, label_col, k, gain, ties,
                         no_relevant, judgments, missing_queries,
                         judgments_query_col, judgments_item_col, judgments_label_col) -%}
  {%- set fail = exceptions.raise_compiler_error -%}
  {%- if relation is none -%}{{ fail("ndcg_sql: give the ranking relation (a ref(), source() or CTE name)") }}{%- endif -%}
  {%- if score_col is not none and rank_col is not none -%}{{ fail("ndcg_sql: give score_col or rank_col, not both") }}{%- endif -%}
  {%- set order_col = rank_col if rank_col is not none else (score_col if score_col is not none else 'score') -%}
  {%- if query_col is string and query_col | lower in ['k', 'cg', 'dcg', 'idcg', 'ndcg'] -%}
    {{ fail("ndcg_sql: the query column may not be named '" ~ query_col ~ "': the output has a column of that name") }}
  {%- endif -%}

  {%- set cutoffs = ndcg_sql.cutoffs_context(k) -%}

  {#- gain: exponential, linear or a mapping label -> gain of finite numbers, gains >= 0 -#}
  {%- set gain_mapping = [] -%}
  {%- if gain is mapping -%}
    {%- if gain | length == 0 -%}{{ fail("ndcg_sql: a gain mapping needs at least one label") }}{%- endif -%}
    {%- for label, value in gain.items() -%}
      {%- if not (label is number and value is number and label is not boolean and value is not boolean)
             or (label | string | lower) in ['nan', 'inf', '-inf'] or (value | string | lower) in ['nan', 'inf', '-inf']
             or value < 0 -%}
        {{ fail("ndcg_sql: gain mapping needs finite number labels and finite non-negative gains; got " ~ label ~ ": " ~ value) }}
      {%- endif -%}
      {%- do gain_mapping.append([label | float, value | float]) -%}
    {%- endfor -%}
    {%- set gain_mapping = gain_mapping | sort(attribute='0') -%}
    {%- set gain_kind = 'mapping' -%}
  {%- else -%}
    {%- set gain_kind = ndcg_sql.option_choice('gain', gain, ['exponential', 'linear']) -%}
  {%- endif -%}

  {%- set judged = judgments is not none -%}
  {%- set context = {
      'run_relation': relation,
      'judgments_relation': judgments,
      'judgments': judged,
      'query_col': ndcg_sql.quote_identifier(query_col),
      'item_col': ndcg_sql.quote_identifier(item_col),
      'order_col': ndcg_sql.quote_identifier(order_col),
      'label_col': none if judged else ndcg_sql.quote_identifier(label_col),
      'j_query_col': ndcg_sql.quote_identifier(judgments_query_col or query_col) if judged else none,
      'j_item_col': ndcg_sql.quote_identifier(judgments_item_col or item_col) if judged else none,
      'j_label_col': ndcg_sql.quote_identifier(judgments_label_col or label_col) if judged else none,
      'output_query_col': ndcg_sql.quote_identifier(query_col),
      'input_kind': 'rank' if rank_col is not none else 'score',
      'gain': gain_kind,
      'gain_mapping': gain_mapping,
      'ties': ndcg_sql.option_choice('ties', ties, ['average', 'item-asc', 'item-desc']),
      'no_relevant': ndcg_sql.option_choice('no_relevant', no_relevant, ['zero', 'skip', 'one']),
      'missing_queries': ndcg_sql.option_choice('missing_queries', missing_queries, ['ignore', 'zero']),
      'cutoffs': cutoffs,
      'row_col': none,
      'score_precision': 'double',
      'negative_labels': 'error',
      'exact_gains': false,
  } -%}
  {#- Pieces of the context that do not come from an option, set as the Python runner sets
      them for data it has not read (dbt compiles before reading any): head_length and
      tail_cutoffs (how many top positions are summed column-wise, and the cutoffs beyond
      them), ideal_labels (labels counted for the ideal ranking: known only from a gain
      mapping) and item_order (the item-id tie-break expression: DuckDB compares strings in
      byte order, so the item column itself); segment_cols is empty (ndcg_per_query
      evaluates segments through query keys). A template that does not use one ignores it;
      tests/test_dbt_gen.py compares this context with the runner's. -#}
  {%- set finite = cutoffs | rejectattr('k', 'none') | map(attribute='k') | list -%}
  {%- set head = [32, ([20] + finite) | max] | min -%}
  {%- set tail_cutoffs = [] -%}
  {%- for cutoff in cutoffs if cutoff['k'] is none or cutoff['k'] > head -%}
    {%- do tail_cutoffs.append(cutoff) -%}
  {%- endfor -%}
  {%- set ideal_labels = none -%}
  {%- set positive = gain_mapping | selectattr('1', 'gt', 0) | list -%}
  {%- if gain_kind == 'mapping' and positive | length <= 16 -%}
    {%- set ideal_labels = [] -%}
    {%- for pair in positive | sort(attribute='1', reverse=true) -%}
      {%- do ideal_labels.append({'label': pair[0] | string}) -%}
    {%- endfor -%}
  {%- endif -%}
  {%- do context.update({'head_length': head, 'tail_cutoffs': tail_cutoffs, 'ideal_labels': ideal_labels,
                         'item_order': 'item', 'segment_cols': []}) -%}
  {{ return(context) }}
{%- endmacro %}
