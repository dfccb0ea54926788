{#- Generated from tools/dbt_pieces.py by `python -m tools.dbt_gen`: do not edit. -#}
{#- The gate's query run once (run_query): a line of dbt's output per failing row, naming the
    measure (nDCG@k; nDCG for the whole list), the mean, the threshold and the segment; returns the
    rows as a SELECT of their values (segment values other than text and numbers written as text),
    so that dbt counts (and, with store_failures, stores) them without computing them again. -#}
{% macro _gate_failures(gate_sql, model, k_cutoff, k_value, threshold, segment_cols, segments) -%}
  {%- set measure = 'nDCG' if k_cutoff is none else 'nDCG@' ~ k_cutoff -%}
  {%- set name = model if model is string else model.identifier -%}
  {%- set double = ndcg_sql.sql_type('DOUBLE') -%}
  {%- set selects = [] -%}
  {%- for row in run_query(gate_sql).rows -%}
    {%- set shown = [] -%}
    {%- set values = [] -%}
    {%- for column in segment_cols -%}
      {%- set value = row[loop.index0] -%}
      {%- if value is none -%}
        {%- do shown.append(column ~ ' = NULL') -%}{%- do values.append('NULL') -%}
      {%- elif value is number and value is not boolean and value == value -%}
        {%- do shown.append(column ~ ' = ' ~ value) -%}{%- do values.append(value | string) -%}
      {%- else -%}
        {%- do shown.append(column ~ " = '" ~ value ~ "'") -%}{%- do values.append(ndcg_sql.string_literal(value | string)) -%}
      {%- endif -%}
    {%- endfor -%}
    {%- set mean = row[segment_cols | length + 1] -%}
    {%- if mean is none or mean != mean -%}
      {%- set verdict = 'mean ' ~ measure ~ ' is NULL (no query evaluated, or no per-query row at k = '
                        ~ (k_cutoff if k_cutoff is not none else 'NULL, the whole list') ~ '); the threshold is ' ~ threshold -%}
      {%- set mean_sql = 'CAST(NULL AS ' ~ double ~ ')' -%}
    {%- else -%}
      {%- set verdict = 'mean ' ~ measure ~ ' = ' ~ mean ~ ', below the threshold ' ~ threshold -%}
      {%- set mean_sql = 'CAST(' ~ (mean | float) ~ ' AS ' ~ double ~ ')' -%}
    {%- endif -%}
    {%- do log('ndcg_sql.ndcg_at_least failed on ' ~ name ~ ', ' ~ ('segment ' ~ shown | join(', ') if shown else 'all queries')
               ~ ': ' ~ verdict, info=true) -%}
    {%- set named = [] -%}
    {%- for value in values + [k_value, mean_sql, threshold] -%}
      {%- do named.append(value ~ ' AS ' ~ (segments + ['k', 'ndcg', 'threshold'])[loop.index0]) -%}
    {%- endfor -%}
    {%- do selects.append('SELECT ' ~ named | join(', ')) -%}
  {%- endfor -%}
  {%- if not selects -%}
    {%- set named = [] -%}
    {%- for s in segments -%}{%- do named.append('NULL AS ' ~ s) -%}{%- endfor -%}
    {%- do selects.append('SELECT ' ~ (named + [k_value ~ ' AS k', 'CAST(NULL AS ' ~ double ~ ') AS ndcg', threshold ~ ' AS threshold'])
                          | join(', ') ~ ' FROM (SELECT 1 AS one) AS nothing WHERE 1 = 0') -%}
  {%- endif -%}
  {{ return('-- the failing rows of ndcg_sql.ndcg_at_least, computed once when the test ran (dbt compile shows its query)\n'
            ~ selects | join('\nUNION ALL\n')) }}
{%- endmacro %}
