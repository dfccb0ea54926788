{#- Named ranking measures per query: one row per (query, measure) with the query
    column, measure (its canonical name) and value - the SQL of
    sql/per_query.sql.j2 (CG, DCG, nDCG), sql/measures_per_query.sql.j2 (P, R,
    AP, RR, Success) and sql/measure_rows.sql.j2, as ndcg_sql.evaluate(measures=...).
      relation      the ranking (a ref(), source() or CTE name)
      measures      names in ir_measures notation: 'nDCG@10', 'P@5', 'R@100',
                    'AP', 'AP@10', 'RR', 'Success@10', 'P(rel=2)@5' (an item
                    is relevant when its label >= rel, default 1), aliases
                    NDCG, MAP, MRR, Hit; a list, or one string separated by
                    commas or spaces
      segment_cols  optional columns of the ranking (experiment arm, date,
                    device): every measure is computed per (segment values,
                    query), and the output starts with these columns, as
                    ndcg_sql.evaluate(measures=..., segments=...)
      segmented_judgments  with segment_cols and judgments: the judgments carry
                    the segment columns too (as ndcg_per_query)
      other options: as ndcg_per_query (columns, gain, ties, no_relevant,
                    judgments, missing_queries, item_type, convention, row_col,
                    score_precision, negative_labels); not k (cutoffs are in the names).
    AP, RR and Success need ties 'item-asc' or 'item-desc' (or a convention
    that sets them). Returns one SELECT statement. -#}
{% macro ndcg_measures(relation, measures, query_col='query_id', item_col='item_id', score_col=none, rank_col=none,
                       label_col='label', gain='exponential', ties='average', no_relevant='zero', judgments=none,
                       missing_queries='ignore', judgments_query_col=none, judgments_item_col=none,
                       judgments_label_col=none, item_type='text', convention=none, row_col=none,
                       score_precision='double', negative_labels='error', segment_cols=[],
                       segmented_judgments=false) -%}
  {{ return(adapter.dispatch('ndcg_measures', 'ndcg_sql')(
      relation, measures, query_col, item_col, score_col, rank_col, label_col, gain, ties, no_relevant, judgments,
      missing_queries, judgments_query_col, judgments_item_col, judgments_label_col, item_type, convention,
      row_col, score_precision, negative_labels, segment_cols, segmented_judgments)) }}
{%- endmacro %}

{% macro default__ndcg_measures(relation, measures, query_col, item_col, score_col, rank_col, label_col, gain, ties,
                                no_relevant, judgments, missing_queries, judgments_query_col, judgments_item_col,
                                judgments_label_col, item_type, convention, row_col, score_precision,
                                negative_labels, segment_cols, segmented_judgments) -%}
  {%- set parsed = ndcg_sql.parse_measures(measures) -%}
  {%- set graded_ks = [] -%}
  {%- for m in parsed if m['family'] in ndcg_sql.measure_grammar()['graded'] and m['k'] not in graded_ks -%}
    {%- do graded_ks.append(m['k']) -%}
  {%- endfor -%}
  {%- set context = ndcg_sql.ranking_context(
      relation, query_col, item_col, score_col, rank_col, label_col, graded_ks or [1, 3, 5, 10, 20, none], gain,
      ties, no_relevant, judgments, missing_queries, judgments_query_col, judgments_item_col, judgments_label_col,
      item_type, row_col, score_precision, negative_labels, convention) -%}
  {%- do context.update(ndcg_sql.measure_context(parsed, context['ties'])) -%}
  {%- do context.update(ndcg_sql.segment_context(segment_cols, segmented_judgments, context)) -%}
  {%- set parts = [] -%}
  {%- if context['graded_measures'] -%}
    {%- do parts.append('per_query_rows AS (\n' ~ ndcg_sql.tmpl_per_query(**context) ~ '\n)') -%}
  {%- endif -%}
  {%- if context['binary_measures'] -%}
    {%- do parts.append('binary_measure_rows AS (\n' ~ ndcg_sql.tmpl_measures_per_query(**context) ~ '\n)') -%}
  {%- endif -%}
  {%- do context.update({
      'per_query_relation': 'per_query_rows' if context['graded_measures'] else none,
      'binary_relation': 'binary_measure_rows' if context['binary_measures'] else none}) -%}
  {%- set sql -%}
WITH
{{ parts | join(',\n') }}
SELECT * FROM (
{{ ndcg_sql.tmpl_measure_rows(**context) }}
) AS measure_rows
  {%- endset -%}
  {{ return(sql) }}
{%- endmacro %}

{#- Mean of every measure over the queries, with its standard error and normal 95%
    interval (sql/measure_summary.sql.j2, sql/mean_intervals.sql.j2), one row per measure
    in the order given: measure, mean, queries, stderr, ci_low, ci_high. With
    segment_cols, one row per (segment values, measure), the segment columns first
    (sql/segment_summary.sql.j2, as ndcg_sql.evaluate(measures=..., segments=...)'s summary).
      per_query     a ref(), source() or CTE name holding ndcg_measures' rows
      measures      the measures of those rows (as given to ndcg_measures)
      query_col     the query column (default 'query_id')
      segment_cols  the segment columns of those rows (as given to ndcg_measures) -#}
{% macro ndcg_measures_summary(per_query, measures, query_col='query_id', segment_cols=[]) -%}
  {{ return(adapter.dispatch('ndcg_measures_summary', 'ndcg_sql')(per_query, measures, query_col, segment_cols)) }}
{%- endmacro %}

{% macro default__ndcg_measures_summary(per_query, measures, query_col, segment_cols) -%}
  {%- set places = ndcg_sql.measure_context(ndcg_sql.parse_measures(measures), 'item-asc')['measures'] -%}
  {%- set query = ndcg_sql.quote_identifier(query_col) -%}
  {%- set segments = ndcg_sql.segment_context(segment_cols, false, {'judgments': false})['segment_cols'] -%}
  {%- if not segments -%}
    {{ return(ndcg_sql.tmpl_measure_summary(
        per_query_relation=per_query, group_cols=['measure'], value_col='value',
        output_query_col=query, measures=places)) }}
  {%- endif -%}
  {#- the place of each measure in the order given, as summary_sql in ndcg_sql/suite.py -#}
  {%- set group_cols = segments + ['measure'] -%}
  {%- set place -%}
    CASE group_{{ group_cols | length }}{% for m in places %} WHEN {{ m['name_sql'] }} THEN {{ m['order'] }}{% endfor %} END ASC NULLS FIRST
  {%- endset -%}
  {{ return(ndcg_sql.tmpl_segment_summary(
      per_query_relation=per_query, group_cols=group_cols, value_col='value', group_name='measure',
      mean_name='mean', group_order=place | trim, output_query_col=query, segment_cols=segments)) }}
{%- endmacro %}

{#- Measure names parsed as ndcg_sql/measures.py parse_measures does (grammar generated from
    it: ndcg_sql.measure_grammar): a list of {'family', 'k', 'rel', 'name'}, duplicates
    dropped, order kept. Raises a compiler error naming the bad name. -#}
{% macro parse_measures(names) -%}
  {%- set grammar = ndcg_sql.measure_grammar() -%}
  {%- set fail = exceptions.raise_compiler_error -%}
  {%- if names is string -%}
    {%- set names = modules.re.split('[\\s,]+(?![^(]*\\))', names) | reject('equalto', '') | list -%}
  {%- endif -%}
  {%- set parsed = [] -%}
  {%- set seen = [] -%}
  {%- for text in names -%}
    {%- set match = modules.re.match(grammar['pattern'], text) if text is string else none -%}
    {%- set family = grammar['aliases'].get(match.group('family') | lower) if match else none -%}
    {%- if family is none -%}
      {{ fail("ndcg_sql: unknown measure " ~ text ~ "; known: " ~ grammar['aliases'].values() | unique | sort | join(', ') ~ " (e.g. nDCG@10, P@5, P(rel=2)@5, AP, RR)") }}
    {%- endif -%}
    {%- set k = none -%}
    {%- if match.group('k') is not none -%}
      {%- if not modules.re.fullmatch('[0-9]+', match.group('k')) or match.group('k') | int <= 0 -%}
        {{ fail("ndcg_sql: measure " ~ text ~ ": the cutoff after @ must be a positive integer") }}
      {%- endif -%}
      {%- set k = match.group('k') | int -%}
    {%- endif -%}
    {%- set rels = [] -%}
    {%- set params = match.group('params') -%}
    {%- if params is not none and params | trim -%}
      {%- for part in params.split(',') -%}
        {%- set pieces = part.split('=', 1) -%}
        {%- if pieces | length != 2 or pieces[0] | trim != 'rel' or not pieces[1] | trim -%}
          {{ fail("ndcg_sql: measure " ~ text ~ ": the only parameter is rel=<label>, e.g. P(rel=2)@5") }}
        {%- endif -%}
        {%- if not modules.re.fullmatch('[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?', pieces[1] | trim) -%}
          {{ fail("ndcg_sql: measure " ~ text ~ ": rel must be a finite number; got " ~ pieces[1] | trim) }}
        {%- endif -%}
        {%- do rels.append(pieces[1] | trim | float) -%}
      {%- endfor -%}
    {%- endif -%}
    {%- set rel = rels[-1] if rels else none -%}
    {%- if rel is not none and family in grammar['graded'] -%}
      {{ fail("ndcg_sql: measure " ~ text ~ ": " ~ family ~ " uses the gain option, not a relevance threshold") }}
    {%- endif -%}
    {%- if k is none and family in grammar['need_cutoff'] -%}
      {{ fail("ndcg_sql: measure " ~ text ~ " needs a cutoff, e.g. " ~ family ~ "@10") }}
    {%- endif -%}
    {%- set name = family -%}
    {%- if rel is not none and rel != 1 -%}
      {%- set name = name ~ '(rel=' ~ ((rel | int) if rel == (rel | int) else rel) ~ ')' -%}
    {%- endif -%}
    {%- if k is not none %}{% set name = name ~ '@' ~ k %}{% endif -%}
    {%- if name not in seen -%}
      {%- do seen.append(name) -%}
      {%- do parsed.append({'family': family, 'k': k, 'rel': rel, 'name': name}) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- if not parsed -%}{{ fail("ndcg_sql: at least one measure is needed") }}{%- endif -%}
  {{ return(parsed) }}
{%- endmacro %}

{#- The templates' context for parsed measures, as measure_context in ndcg_sql/suite.py:
    measures (order, name as a SQL literal), graded_measures, binary_measures, thresholds.
    Raises a compiler error for AP, RR or Success with ties='average'. -#}
{% macro measure_context(parsed, ties) -%}
  {%- set grammar = ndcg_sql.measure_grammar() -%}
  {%- set nonlinear = parsed | rejectattr('family', 'in', grammar['linear']) | map(attribute='name') | list -%}
  {%- if nonlinear and ties == 'average' -%}
    {{ exceptions.raise_compiler_error("ndcg_sql: " ~ nonlinear | join(', ') ~ " need ties='item-asc' or 'item-desc' (trec_eval's): they are not linear in the relevance at each rank, so tie averaging does not define them") }}
  {%- endif -%}
  {%- set named, graded, binary, thresholds = [], [], [], [] -%}
  {%- set threshold_values = [] -%}
  {%- for m in parsed -%}
    {%- do named.append({'order': loop.index, 'name_sql': ndcg_sql.string_literal(m['name'])}) -%}
    {%- if m['family'] in grammar['graded'] -%}
      {%- do graded.append({'order': loop.index, 'k': m['k'], 'column': grammar['graded_column'][m['family']]}) -%}
    {%- else -%}
      {%- set value = (1.0 if m['rel'] is none else m['rel']) | float -%}
      {%- if value not in threshold_values -%}
        {%- do threshold_values.append(value) -%}
        {%- do thresholds.append({'id': threshold_values | length, 'value': value | string}) -%}
      {%- endif -%}
      {%- do binary.append({'id': loop.index, 'order': loop.index, 'family': m['family'], 'k': m['k'],
                            'threshold_id': threshold_values.index(value) + 1}) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return({'measures': named, 'graded_measures': graded, 'binary_measures': binary, 'thresholds': thresholds}) }}
{%- endmacro %}
