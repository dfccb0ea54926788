{#- The context of the per-query SQL template (sql/per_query.sql.j2) from the
    options of ndcg_per_query: the dbt counterpart of template_context() in
    ndcg_sql/evaluate.py and of the checks in ndcg_sql/options.py; a convention
    fills in its options as ndcg_sql/conventions.py resolve() does. Column names
    are quoted by ndcg_sql.quote_identifier; numbers are checked to be numbers.
    Raises a compiler error naming the option for any value outside its domain. -#}
{% macro ranking_context(relation, query_col, item_col, score_col, rank_col, label_col, k, gain, ties,
                         no_relevant, judgments, missing_queries,
                         judgments_query_col, judgments_item_col, judgments_label_col,
                         item_type='text', row_col=none, score_precision='double', negative_labels='error',
                         convention=none) -%}
  {%- set fail = exceptions.raise_compiler_error -%}
  {#- a peer convention (ndcg_sql/conventions.py) fills in the options it sets -#}
  {%- set chosen = ndcg_sql.resolve_convention(convention, {
      'gain': gain if gain is mapping else ndcg_sql.option_choice('gain', gain, ['exponential', 'linear']),
      'ties': ndcg_sql.option_choice('ties', ties, ['average', 'item-asc', 'item-desc', 'input-order']),
      'no_relevant': ndcg_sql.option_choice('no_relevant', no_relevant, ['zero', 'skip', 'one']),
      'score_precision': ndcg_sql.option_choice('score_precision', score_precision, ['double', 'float32']),
      'negative_labels': ndcg_sql.option_choice('negative_labels', negative_labels, ['error', 'zero'])},
      judgments is not none) -%}
  {%- set gain, ties, no_relevant = chosen['gain'], chosen['ties'], chosen['no_relevant'] -%}
  {%- if ties == 'input-order' and row_col is none -%}
    {{ fail("ndcg_sql: ties='input-order' needs row_col: the column of input row positions that orders tied items") }}
  {%- endif -%}
  {%- if ties != 'input-order' and row_col is not none -%}
    {{ fail("ndcg_sql: row_col is only used with ties='input-order' (ties is '" ~ ties ~ "'): give ties='input-order' or leave row_col out") }}
  {%- endif -%}
  {%- if ndcg_sql.option_choice('missing_queries', missing_queries, ['ignore', 'zero']) == 'zero' and judgments is none -%}
    {{ fail("ndcg_sql: missing_queries='zero' needs judgments: only judged queries can be missing from the run") }}
  {%- endif -%}
  {%- set item_type = ndcg_sql.option_choice('item_type', item_type, ['text', 'number']) -%}
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
      'ties': ties,
      'no_relevant': no_relevant,
      'missing_queries': ndcg_sql.option_choice('missing_queries', missing_queries, ['ignore', 'zero']),
      'cutoffs': cutoffs,
      'row_col': ndcg_sql.quote_identifier(row_col) if row_col is not none else none,
      'score_precision': chosen['score_precision'],
      'negative_labels': chosen['negative_labels'],
      'exact_gains': false,
  } -%}
  {%- if chosen['score_precision'] == 'float32' -%}{%- do ndcg_sql.sql_type('FLOAT') -%}{%- endif -%}
  {#- Pieces of the context that do not come from an option, set as the Python runner sets
      them for data it has not read (dbt compiles before reading any): head_length and
      tail_cutoffs (how many top positions are summed column-wise, and the cutoffs beyond
      them), ideal_labels (labels counted for the ideal ranking: known only from a gain
      mapping) and item_order (the item-id tie-break expression: text ids compared in byte
      order, ndcg_sql.item_byte_order from ndcg_sql/dialects.py; numbers as they are); segment_cols is empty (segments, when
      given, are set by segment_context.sql). A template that does not use one ignores it;
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
                         'item_order': ndcg_sql.item_byte_order() if (ties in ['item-asc', 'item-desc'] and item_type == 'text') else 'item',
                         'segment_cols': []}) -%}
  {{ return(context) }}
{%- endmacro %}

{#- The options a peer convention sets (ndcg_sql/conventions.py resolve, from the generated
    ndcg_sql.convention_table): given values filled in; a given value (not the default) that
    contradicts the convention, an unknown convention, or judgments where the convention takes
    the ideal ranking from the list are compiler errors. -#}
{% macro resolve_convention(convention, given, judged) -%}
  {%- if convention is none -%}{{ return(given) }}{%- endif -%}
  {%- set table = ndcg_sql.convention_table() -%}
  {%- set key = convention | string | lower | replace('_', '-') | replace('trec-eval', 'trec_eval') -%}
  {%- set name = table['aliases'].get(key, key) -%}
  {%- if name not in table['conventions'] -%}
    {{ exceptions.raise_compiler_error("ndcg_sql: convention must be one of " ~ table['conventions'].keys() | join(', ') ~ "; got " ~ convention) }}
  {%- endif -%}
  {%- set preset = table['conventions'][name] -%}
  {%- if judged and not preset.get('judgments_allowed', true) -%}
    {{ exceptions.raise_compiler_error("ndcg_sql: convention '" ~ name ~ "' takes the ideal ranking from the list itself; give labels, not judgments") }}
  {%- endif -%}
  {%- set out = given.copy() -%}
  {%- for option, value in preset.items() if option != 'judgments_allowed' -%}
    {%- set mine = given.get(option, table['defaults'][option]) -%}
    {%- if mine != table['defaults'][option] and mine != value -%}
      {{ exceptions.raise_compiler_error("ndcg_sql: convention '" ~ name ~ "' sets " ~ option ~ "=" ~ value ~ "; got " ~ option ~ "=" ~ mine) }}
    {%- endif -%}
    {%- do out.update({option: value}) -%}
  {%- endfor -%}
  {{ return(out) }}
{%- endmacro %}
