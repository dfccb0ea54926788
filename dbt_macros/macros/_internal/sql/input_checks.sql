{#- Copied from sql/input_checks.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- The input checks: what must not happen in the input, for evaluate (ndcg_sql/building/validation.py
    counts them with validate_lists/validate_counts.sql.j2 and words the message) and for dbt's test
    ndcg_valid_input (the same macros, copied into dbt_macros/macros/_internal/sql/).

    _input_checks(options, numbers, limits) returns one record per check, in the order the
    messages list them:
      name       which check it is: its words (problem, hint) are the data of
                 ndcg_sql/building/validation.py CHECK_TEXTS (dbt: ndcg_sql._check_texts())
      side       'ranking' or 'judgments': the input it is checked on
      relation   the normalised CTE it is checked on (sql/normalised_rows.sql.j2), or a
                 relation defined by source
      condition  SQL over that relation's columns (our own text, never user text)
      column     the role of the user's column the problem is in: query, item, order, row,
                 weight, label, pair (query and item); j_query, j_item, j_label, j_pair of the
                 judgments
      values     SQL of the offending value whose few distinct values a message names, or none
      rows       the column counting the input rows one relation row stands for, or none
      source     the SELECT defining relation (one row per query: a sum checked), or none
      revealed_by, infinite  the raw column whose smallest and largest value show the check
                 failing when NaN (or, with infinite, infinite): see validate_lists.sql.j2
    options: the resolved options (gain, gain_mapping, negative_labels, judgments, input_kind,
    ties, weight_col, max_grade, binary_labels, integer_labels; as _resolve_options returns them); numbers: how
    the engine reads a raw value as a number ({'try_double': SQL with {x}, the number or NULL;
    'nan': SQL with {x}, true for NaN; 'text': none, or the text type a value is cast to before
    try_double}: ndcg_sql/vocabulary/dialects.py); limits: _option_table()['check_limits']. -#}
{% macro _input_checks(options, numbers, limits) -%}
  {%- set checks = [] -%}
  {%- set order = ndcg_sql._check_number(numbers, 'order_raw') -%}
  {%- do checks.extend([
      ndcg_sql._check('null_query', 'run_rows', 'qid IS NULL', 'query'),
      ndcg_sql._check('null_item', 'run_rows', 'item IS NULL', 'item'),
      ndcg_sql._check('null_order', 'run_rows', 'order_raw IS NULL', 'order'),
      ndcg_sql._check('non_numeric_order', 'run_rows', 'order_raw IS NOT NULL AND ' ~ order ~ ' IS NULL', 'order'),
      ndcg_sql._check('nan_order', 'run_rows', ndcg_sql._check_nan(numbers, 'order_raw'), 'order', revealed_by='order_raw')]) -%}
  {%- if options['ties'] == 'input-order' -%}
    {%- do checks.append(ndcg_sql._check('null_row', 'run_rows', 'row_order IS NULL', 'row')) -%}
  {%- endif -%}
  {%- if options['weight_col'] is not none -%}
    {%- do checks.extend(ndcg_sql._weight_checks(numbers, limits)) -%}
  {%- endif -%}
  {%- do checks.append(ndcg_sql._check('duplicate_pairs', 'run_duplicate_pairs', 'TRUE', 'pair', rows='copies')) -%}
  {%- if options['judgments'] -%}
    {%- do checks.extend([
        ndcg_sql._check('null_query', 'judgment_rows', 'qid IS NULL', 'j_query'),
        ndcg_sql._check('null_item', 'judgment_rows', 'item IS NULL', 'j_item')]) -%}
    {%- do checks.extend(ndcg_sql._label_checks('judgment_rows', options, numbers, limits)) -%}
    {%- do checks.append(ndcg_sql._check('duplicate_pairs', 'judgment_duplicate_pairs', 'TRUE', 'j_pair', rows='copies')) -%}
  {%- else -%}
    {%- do checks.extend(ndcg_sql._label_checks('run_rows', options, numbers, limits)) -%}
  {%- endif -%}
  {{ return(checks) }}
{%- endmacro %}

{#- One check's record (see _input_checks); the side is the relation's. -#}
{% macro _check(name, relation, condition, column, values=none, rows=none, source=none, revealed_by=none, infinite=false) -%}
  {{ return({'name': name, 'side': 'judgments' if relation.startswith('judgment') else 'ranking', 'relation': relation,
             'condition': condition, 'column': column, 'values': values, 'rows': rows, 'source': source,
             'revealed_by': revealed_by, 'infinite': infinite}) }}
{%- endmacro %}

{#- A raw value as the engine reads it as a number (NULL when it holds none, never an error), and
    the test for NaN of that number (see _input_checks' numbers). -#}
{% macro _check_number(numbers, raw) -%}
  {%- set value = raw if numbers['text'] is none else 'CAST(' ~ raw ~ ' AS ' ~ numbers['text'] ~ ')' -%}
  {{ return(numbers['try_double'] | replace('{x}', value)) }}
{%- endmacro %}

{% macro _check_nan(numbers, raw) -%}
  {{ return(numbers['nan'] | replace('{x}', ndcg_sql._check_number(numbers, raw))) }}
{%- endmacro %}

{#- Query weights (weight_col): finite, not negative, the same on every row of a query, not all 0. -#}
{% macro _weight_checks(numbers, limits) -%}
  {%- set value = ndcg_sql._check_number(numbers, 'weight_raw') -%}
  {%- set nan = ndcg_sql._check_nan(numbers, 'weight_raw') -%}
  {{ return([
      ndcg_sql._check('null_weight', 'run_rows', 'weight_raw IS NULL', 'weight'),
      ndcg_sql._check('nan_weight', 'run_rows', nan ~ ' OR ABS(' ~ value ~ ') > ' ~ limits['max_double'], 'weight',
                      revealed_by='weight_raw', infinite=true),
      ndcg_sql._check('negative_weight', 'run_rows', 'NOT (' ~ nan ~ ') AND ' ~ value ~ ' < 0', 'weight'),
      ndcg_sql._check('uneven_weight', 'run_weight_queries', 'lowest_weight <> highest_weight', 'weight', rows='query_rows'),
      ndcg_sql._check('zero_weights', 'run_weight_total', 'highest_weight = 0', 'weight')]) }}
{%- endmacro %}

{#- The labels of relation (run_rows, or judgment_rows with judgments): present, numbers, finite,
    in the range the options accept (negative_labels, the gain, the convention's binary labels,
    ERR's top grade), and no query's gains adding up past 2^max_query_gain_exponent. -#}
{% macro _label_checks(relation, options, numbers, limits) -%}
  {%- set column = 'j_label' if relation == 'judgment_rows' else 'label' -%}
  {%- set value = ndcg_sql._check_number(numbers, 'label_raw') -%}
  {%- set nan = ndcg_sql._check_nan(numbers, 'label_raw') -%}
  {%- set finite = 'NOT (' ~ nan ~ ') AND ABS(' ~ value ~ ') <= ' ~ limits['max_double'] -%}
  {%- set checks = [
      ndcg_sql._check('null_label', relation, 'label_raw IS NULL', column),
      ndcg_sql._check('non_numeric_label', relation, 'label_raw IS NOT NULL AND ' ~ value ~ ' IS NULL', column, values='label_raw'),
      ndcg_sql._check('nan_label', relation, nan ~ ' OR ABS(' ~ value ~ ') > ' ~ limits['max_double'], column,
                      revealed_by='label_raw', infinite=true)] -%}
  {%- if options['negative_labels'] == 'error' -%}
    {%- do checks.append(ndcg_sql._check('negative_label', relation, finite ~ ' AND ' ~ value ~ ' < 0', column)) -%}
  {%- endif -%}
  {%- if options['gain'] == 'exponential' -%}
    {%- do checks.append(ndcg_sql._check('label_above_exponential', relation,
                                         finite ~ ' AND ' ~ value ~ ' > ' ~ limits['max_exponential_label'], column)) -%}
  {%- elif options['gain'] == 'mapping' -%}
    {#- the label as the metric counts it (a negative one as 0 with negative_labels zero or unjudged) -#}
    {%- set counted = ndcg_sql._counted_label(options, value) -%}
    {%- set labels = [] -%}
    {%- for pair in options['gain_mapping'] -%}{%- do labels.append(pair[0] | string) -%}{%- endfor -%}
    {%- do checks.append(ndcg_sql._check('unmapped_label', relation, finite ~ ' AND ' ~ counted ~ ' NOT IN (' ~ labels | join(', ') ~ ')',
                                         column, values=counted)) -%}
  {%- endif -%}
  {%- if options['binary_labels'] is not none -%}
    {%- do checks.append(ndcg_sql._check('non_binary_label', relation, finite ~ ' AND ' ~ value ~ ' NOT IN (0.0, 1.0)', column, values=value)) -%}
  {%- endif -%}
  {%- if options['integer_labels'] is not none -%}
    {#- the tools hold labels as float32: a label is whole when its float32 rounding is (Veltkamp's split
        at 29 bits gives it in double arithmetic, ties to even, on any engine; below 2^-150 it is 0) -#}
    {%- set split = '(' ~ value ~ ' * 536870913.0)' -%}
    {%- set float32 = '(' ~ split ~ ' - (' ~ split ~ ' - ' ~ value ~ '))' -%}
    {%- do checks.append(ndcg_sql._check('fractional_label', relation, finite ~ ' AND ABS(' ~ value ~ ') > 7.006492321624085e-46 AND '
                                         ~ float32 ~ ' <> FLOOR(' ~ float32 ~ ')', column, values=value)) -%}
  {%- endif -%}
  {%- if options['max_grade'] is not none -%}
    {%- do checks.append(ndcg_sql._check('label_above_max_grade', relation, finite ~ ' AND ' ~ value ~ ' > ' ~ options['max_grade'],
                                         column, values=value)) -%}
  {%- endif -%}
  {%- do checks.append(ndcg_sql._gain_total_check(relation, column, options, value, finite, limits)) -%}
  {{ return(checks) }}
{%- endmacro %}

{#- The queries whose gains add up past 2^max_query_gain_exponent (a per-query sum in the relation
    <side>_gain_totals): past it a sum of doubles (CG, DCG, IDCG) may overflow to infinity. Each
    gain is the metric's (_gain_of of the counted label, sql/gain.sql.j2) scaled by
    2^-gain_scale, exactly (a power of two), so no scaled gain overflows. Labels out of range, NaN
    or non-numeric are refused by the other checks and add nothing here (so no engine evaluates
    2^x out of its range). -#}
{% macro _gain_total_check(relation, column, options, value, finite, limits) -%}
  {%- set scale = 2.0 ** (0 - limits['gain_scale']) -%}
  {%- set gain = ndcg_sql._gain_of(options, ndcg_sql._counted_label(options, value)) -%}
  {%- if options['gain'] == 'exponential' -%}
    {%- set within = finite ~ ' AND ' ~ value ~ ' > 0 AND ' ~ value ~ ' <= ' ~ limits['max_exponential_label'] -%}
  {%- elif options['gain'] == 'linear' -%}
    {%- set within = finite ~ ' AND ' ~ value ~ ' > 0' -%}
  {%- else -%}
    {#- a label the mapping lacks (refused by unmapped_label) has no gain: it adds 0 -#}
    {%- set within, gain = finite, 'COALESCE(' ~ gain ~ ', 0.0)' -%}
  {%- endif -%}
  {%- set scaled = 'CASE WHEN ' ~ within ~ ' THEN ' ~ gain ~ ' * ' ~ scale ~ ' ELSE 0.0 END' -%}
  {%- set limit = (2 ** (limits['max_query_gain_exponent'] - limits['gain_scale'])) | float -%}
  {{ return(ndcg_sql._check('gain_total_' ~ options['gain'], relation | replace('_rows', '') ~ '_gain_totals', 'scaled_gain > ' ~ limit,
                            column, source='SELECT qid, SUM(' ~ scaled ~ ') AS scaled_gain FROM ' ~ relation ~ ' GROUP BY qid')) }}
{%- endmacro %}

{#- True when no query's gains can add up past 2^max_query_gain_exponent: the longest list
    (longest: its items) times the largest gain is at most half of it; highest_label: the highest
    finite label (the first pass of the Python runner, sql/validate_lists.sql.j2, finds both). Then
    the per-query sums of _gain_total_check need not be computed. options: gain and gain_mapping. -#}
{% macro _gains_fit(options, highest_label, longest, limits) -%}
  {%- if highest_label is none or longest is none -%}{{ return(true) }}{%- endif -%}
  {%- if options['gain'] == 'exponential' -%}
    {%- set largest = 2.0 ** ([highest_label | float, limits['max_exponential_label'] | float] | min) -%}
  {%- elif options['gain'] == 'linear' -%}
    {%- set largest = [highest_label | float, 0.0] | max -%}
  {%- else -%}
    {%- set largest = (options['gain_mapping'] | map(attribute='1') | map('abs') | list + [0.0]) | max -%}
  {%- endif -%}
  {{ return(largest * (longest | int) <= 2.0 ** limits['max_query_gain_exponent'] / 2.0) }}
{%- endmacro %}

{#- The values a revealed check refuses (NaN; with infinite, infinities too), found through their
    text (DuckDB): no statistics of the input describe a number's text, so no engine folds this
    test (slow: for error messages only). -#}
{% macro _revealed_condition(column, infinite) -%}
  {{ return('CAST(TRY_CAST(' ~ column ~ (' AS ' ~ ndcg_sql.sql_type('DOUBLE') ~ ') AS ' ~ ndcg_sql.sql_type('VARCHAR') ~ ') IN (') ~ ("'nan', '-nan', 'inf', '-inf'" if infinite else "'nan', '-nan'") ~ ')') }}
{%- endmacro %}
