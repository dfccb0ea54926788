{#- The cutoffs of the SQL templates ([{'id': 1, 'k': 10}, ..., {'id': n, 'k': none}])
    from the k option: positive integers, and none or 'all' for the whole list;
    ascending, the whole list last, as parse_cutoffs in ndcg_sql/options.py.
    Raises a compiler error for anything else. -#}
{% macro cutoffs_context(k) -%}
  {%- set ks = k if (k is iterable and k is not string and k is not mapping) else [k] -%}
  {%- set numbers = [] -%}
  {%- set whole = [] -%}
  {%- for value in ks -%}
    {%- if value is none or (value is string and value | trim | lower == 'all') -%}
      {%- do whole.append(true) -%}
    {%- elif value is integer and value is not boolean and value > 0 -%}
      {%- if value not in numbers %}{% do numbers.append(value) %}{% endif -%}
    {%- else -%}
      {{ exceptions.raise_compiler_error("ndcg_sql: k must be a positive integer or 'all'; got " ~ value) }}
    {%- endif -%}
  {%- endfor -%}
  {%- set values = (numbers | sort) + ([none] if whole else []) -%}
  {%- if values | length == 0 -%}
    {{ exceptions.raise_compiler_error("ndcg_sql: at least one cutoff k is needed") }}
  {%- endif -%}
  {%- set cutoffs = [] -%}
  {%- for value in values -%}{%- do cutoffs.append({'id': loop.index, 'k': value}) -%}{%- endfor -%}
  {{ return(cutoffs) }}
{%- endmacro %}
