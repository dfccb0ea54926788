{#- Copied from sql/options/measure_context.sql by `python -m tools.dbt_gen`: do not edit. -#}
{#- The templates' context for parsed measures: measures (place in the order asked, name as
    an SQL string literal, and value_range, the range of its per-query values, which decides
    its interval: sql/options/value_range.sql), graded_measures (CG, DCG, nDCG: the per-query
    NDCG column and k), binary_measures (each with its family's macros, the prefix of the macros of its
    file in sql/measures/, where its numerator is summed and whether it has a running sum: the
    family's record, ndcg_sql/vocabulary/measures.py) and their relevance thresholds, and unbounded_measures
    (names of the CG and DCG ones, whose means are summed at a scale: sql/summary.sql.j2),
    judged_needed (a measure looks at which items are judged: the ranked items carry a judged flag),
    pool_thresholds (the ids of the thresholds Bpref and infAP read: the ranked items then also carry
    the assessed flag, a judgment at or above 0), geometric_measures (names of the measures whose
    summary is a geometric mean: gm_map), gm_floor and infap_epsilon (trec_eval's constants). AP,
    RR and Success are not linear in the relevance at each rank, so they need a tie order: with
    ties='average' an option error naming the orders (and, on the command line, their flags).
    relevant_from: a convention's least relevant label (sql/options/resolve_convention.sql's preset:
    LightGBM's map@k counts float32(label) > 0.5), the threshold of a measure without rel= in place of 1. -#}
{% macro _measure_context(parsed, ties, max_grade=none, relevant_from=none) -%}
  {%- set grammar = ndcg_sql._measure_grammar() -%}
  {%- set nonlinear = [] -%}
  {%- for m in parsed if m['family'] not in grammar['linear'] -%}{%- do nonlinear.append(m['name']) -%}{%- endfor -%}
  {%- if nonlinear and ties == 'average' -%}
    {{ ndcg_sql._option_error(nonlinear | join(', ') ~ (" needs" if nonlinear | length == 1 else " need")
       ~ " a tie order: trec_eval's ties='item-desc'" ~ ndcg_sql._flag('ties', 'item-desc') ~ ", 'item-asc'"
       ~ ndcg_sql._flag('ties', 'item-asc') ~ " or 'input-order'" ~ ndcg_sql._flag('ties', 'input-order') ~ ndcg_sql._row_col_needed()
       ~ ", or a convention that sets one, e.g. convention='trec_eval'" ~ ndcg_sql._flag('convention', 'trec_eval')
       ~ ": they are not linear in the relevance at each rank, so tie averaging (ties='average')"
       ~ " does not define them") }}
  {%- endif -%}
  {%- set named, graded, binary, thresholds, threshold_values, unbounded = [], [], [], [], [], [] -%}
  {%- for m in parsed -%}
    {%- do named.append({'order': loop.index, 'name_sql': ndcg_sql.string_literal(m['name']),
                         'value_range': ndcg_sql._value_range(m)}) -%}
    {%- if m['family'] in grammar['unbounded'] -%}{%- do unbounded.append(ndcg_sql.string_literal(m['name'])) -%}{%- endif -%}
    {%- if m['family'] in grammar['graded'] -%}
      {%- do graded.append({'order': loop.index, 'k': m['k'], 'column': grammar['graded_column'][m['family']]}) -%}
    {%- else -%}
      {#- a relevance threshold (label >= value), or for Judged the judged flag ('judged') -#}
      {%- set value = 'judged' if m['family'] in grammar['judged'] else (1.0 if m['rel'] is none else m['rel']) | float -%}
      {#- a convention that counts other labels relevant than those >= 1 (LightGBM's label > 0.5) -#}
      {%- if relevant_from is not none and value != 'judged' and value == 1.0 -%}{%- set value = relevant_from | float -%}{%- endif -%}
      {%- if value not in threshold_values -%}
        {%- do threshold_values.append(value) -%}
        {%- do thresholds.append({'id': threshold_values | length, 'value': value | string, 'judged': value == 'judged'}) -%}
      {%- endif -%}
      {%- set sql = grammar['sql'][m['family']] -%}
      {%- do binary.append({'id': loop.index, 'order': loop.index, 'family': m['family'], 'k': m['k'],
                            'macros': sql['macros'], 'numerator': sql['numerator'], 'running_sum': sql['running_sum'],
                            'threshold_id': threshold_values.index(value) + 1,
                            'p': (m['p'] | float | string) if m.get('p') is not none else none,
                            'recall': (m['recall'] | float | string) if m.get('recall') is not none else none,
                            'g_max': grammar['err_max_grade'] if max_grade is none else max_grade}) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- set judged_needed, pool_thresholds, geometric = [], [], [] -%}
  {%- for m in parsed if m['family'] in grammar['judged'] or m['family'] in grammar['pool'] -%}{%- do judged_needed.append(m['name']) -%}{%- endfor -%}
  {%- for m in binary if m['family'] in grammar['pool'] and m['threshold_id'] not in pool_thresholds -%}{%- do pool_thresholds.append(m['threshold_id']) -%}{%- endfor -%}
  {%- for m in parsed if m['family'] in grammar['geometric'] -%}{%- do geometric.append(ndcg_sql.string_literal(m['name'])) -%}{%- endfor -%}
  {{ return({'measures': named, 'graded_measures': graded, 'binary_measures': binary, 'thresholds': thresholds,
             'unbounded_measures': unbounded, 'judged_needed': judged_needed | length > 0,
             'pool_thresholds': pool_thresholds, 'geometric_measures': geometric,
             'gm_floor': grammar['gm_floor'], 'infap_epsilon': grammar['infap_epsilon']}) }}
{%- endmacro %}

{#- The top grade of the relevance scale (the max_grade option), which ERR reads: R = (2^g - 1) /
    2^max_grade (gdeval.pl's MAX_JUDGMENT, 4 by default). An integer from 1 to the largest
    exponential label; a value other than the default without ERR among the measures (parsed, or
    none) is an option error, as nothing would read it. Returns it with ERR, else none. -#}
{% macro _max_grade(value, parsed) -%}
  {%- set table = ndcg_sql._option_table() -%}
  {%- if value is not integer or value is boolean or not 1 <= value <= table['max_exponential_label'] -%}
    {{ ndcg_sql._option_error(ndcg_sql._spelled('max_grade') ~ " must be an integer from 1 to " ~ table['max_exponential_label']
       ~ "; got " ~ ndcg_sql._shown(value)) }}
  {%- endif -%}
  {%- set err = [] -%}
  {%- for m in parsed or [] if m['family'] == 'ERR' -%}{%- do err.append(m['name']) -%}{%- endfor -%}
  {%- if not err and value != table['defaults']['max_grade'] -%}
    {{ ndcg_sql._option_error(ndcg_sql._spelled('max_grade') ~ " is the top grade ERR reads; without ERR among the measures leave it out") }}
  {%- endif -%}
  {{ return(value if err else none) }}
{%- endmacro %}
