{#- What shapes a summary, resolved from the options (a dict with k, measures, segments,
    intervals, bootstrap, seed, query_col and ties): the cutoffs (or, with measures, the
    measures and the cutoffs their graded ones need), the segment columns, whether the
    summary has intervals (default: with measures, segments or a sample) and the bootstrap. Every
    entry point's summary is built from this one decision. Returns parsed_measures (the
    parsed names, or none) and the templates' context of the summary: cutoffs, measures (with
    their places; none for NDCG), graded_measures, binary_measures, thresholds,
    unbounded_measures, ndcg_value_range (the range of NDCG's values, for the interval of an
    NDCG summary: sql/options/value_range.sql), segments (names), segment_cols (quoted),
    intervals, bootstrap, seed, sample (none, or the fraction and its threshold: sql/options/sample.sql)
    and max_grade (ERR's top grade, none without ERR). relevant_from (optional): a convention's least
    relevant label in place of 1 (sql/options/measure_context.sql). -#}
{% macro _summary_context(options) -%}
  {%- set fail = ndcg_sql._option_error -%}
  {%- set table = ndcg_sql._option_table() -%}
  {%- set measures = none -%}
  {%- set k = options['k'] -%}
  {%- if options['measures'] is not none -%}
    {%- set measures = ndcg_sql._parse_measures(options['measures']) -%}
    {%- if k is not none and k != table['defaults']['k'] -%}
      {{ fail("with measures, give the cutoffs in their names (nDCG@10, P@5), not k") }}
    {%- endif -%}
    {%- set graded = [] -%}
    {%- for m in measures if m['family'] in ndcg_sql._measure_grammar()['graded'] and m['k'] not in graded -%}
      {%- do graded.append(m['k']) -%}
    {%- endfor -%}
    {%- set k = graded if graded else table['defaults']['k'] -%}
  {%- endif -%}
  {%- set cutoffs = [] -%}
  {%- for value in ndcg_sql._parse_cutoffs(k) -%}{%- do cutoffs.append({'id': loop.index, 'k': value}) -%}{%- endfor -%}
  {%- set segments = ndcg_sql._segment_list(options['segments'], options['query_col']) -%}
  {%- set segment_cols = [] -%}
  {%- for name in segments -%}{%- do segment_cols.append(ndcg_sql.quote_identifier(name)) -%}{%- endfor -%}
  {%- set bootstrap, intervals = options['bootstrap'], options['intervals'] -%}
  {%- if bootstrap is not integer or not 0 <= bootstrap <= table['max_replicates'] -%}
    {{ fail("bootstrap must be an integer from 0 to " ~ table['max_replicates'] ~ "; got " ~ ndcg_sql._shown(bootstrap)) }}
  {%- endif -%}
  {%- set seed = ndcg_sql._checked_seed(options['seed']) -%}
  {%- if intervals is not none and intervals is not boolean -%}
    {{ fail("intervals must be True, False or None (with measures or segments); got " ~ ndcg_sql._shown(intervals)) }}
  {%- endif -%}
  {%- if options.get('sample') is not none and intervals is sameas false -%}
    {{ fail(ndcg_sql._spelled('sample') ~ " gives an estimate, which comes with its interval: leave intervals out") }}
  {%- endif -%}
  {%- set out = {
      'parsed_measures': measures,
      'cutoffs': cutoffs,
      'segments': segments,
      'segment_cols': segment_cols,
      'intervals': (measures is not none or segments | length > 0 or options.get('sample') is not none) if intervals is none else intervals,
      'ndcg_value_range': ndcg_sql._value_range({'family': 'nDCG', 'k': none}),
      'bootstrap': bootstrap,
      'seed': seed,
      'sample': ndcg_sql._checked_sample(options.get('sample')),
      'max_grade': ndcg_sql._max_grade(options.get('max_grade', table['defaults']['max_grade']), measures)} -%}
  {%- if measures is not none -%}
    {%- do out.update(ndcg_sql._measure_context(measures, options['ties'], out['max_grade'], options.get('relevant_from'))) -%}
  {%- else -%}
    {%- do out.update({'measures': none}) -%}
  {%- endif -%}
  {{ return(out) }}
{%- endmacro %}
