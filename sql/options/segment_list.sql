{#- The segment column names (experiment arm, date, device, ...): none, one name, or a list
    of distinct names other than the query column and the output's own column names. -#}
{% macro _segment_list(segments, query_col) -%}
  {%- if segments is none -%}{{ return([]) }}{%- endif -%}
  {%- set names = [segments] if segments is string else (segments | list if segments is iterable and segments is not mapping else none) -%}
  {%- if not names or names | reject('string') | list or names | select('equalto', '') | list -%}
    {{ ndcg_sql._option_error(ndcg_sql._spelled('segments') ~ " must be one or more column names; got " ~ ndcg_sql._shown(segments)) }}
  {%- endif -%}
  {%- if names | unique | list | length != names | length or query_col in names -%}
    {{ ndcg_sql._option_error(ndcg_sql._spelled('segments') ~ " must be distinct columns other than the query column; got " ~ names | string) }}
  {%- endif -%}
  {%- set table = ndcg_sql._option_table() -%}
  {%- for name in names if name | lower in table['output_columns'] + table['summary_columns'] -%}
    {%- if loop.first -%}
      {{ ndcg_sql._option_error("a segment column may not be named '" ~ name ~ "': the output has a column of that name") }}
    {%- endif -%}
  {%- endfor -%}
  {{ return(names) }}
{%- endmacro %}
