{#- The cutoffs k: positive integers up to the option table's max_cutoff (whole numbers, or text
    of digits), and none or 'all' for the whole list. Returns them distinct and ascending, the whole list (none) last. -#}
{% macro _parse_cutoffs(k) -%}
  {%- set values = k if (k is iterable and k is not string and k is not mapping) else [k] -%}
  {%- set numbers = [] -%}
  {%- set whole = [] -%}
  {%- for value in values -%}
    {%- set number = none -%}
    {%- if value is none or (value is string and value | trim | lower == 'all') -%}
      {%- do whole.append(true) -%}
    {%- else -%}
      {%- if value is string and modules.re.fullmatch('[0-9]+', value | trim) -%}
        {%- set number = value | trim | int -%}
      {%- elif value is integer -%}
        {%- set number = value -%}
      {%- elif value is float and value - value == 0 and value == (value | int) -%}{#- finite: not NaN nor infinite -#}
        {%- set number = value | int -%}
      {%- endif -%}
      {%- if number is none -%}
        {{ ndcg_sql._option_error("k must be a positive integer or 'all'; got " ~ ndcg_sql._shown(value)) }}
      {%- elif number <= 0 -%}
        {{ ndcg_sql._option_error("k must be a positive integer or 'all'; got " ~ number) }}
      {%- elif number > ndcg_sql._option_table()['max_cutoff'] -%}
        {{ ndcg_sql._option_error("k" ~ ndcg_sql._flag('k') ~ " must be at most " ~ ndcg_sql._option_table()['max_cutoff'] ~ " (the largest 64-bit integer); got " ~ number) }}
      {%- elif number not in numbers -%}
        {%- do numbers.append(number) -%}
      {%- endif -%}
    {%- endif -%}
  {%- endfor -%}
  {%- set cutoffs = (numbers | sort) + ([none] if whole else []) -%}
  {%- if not cutoffs -%}{{ ndcg_sql._option_error("at least one cutoff k is needed") }}{%- endif -%}
  {{ return(cutoffs) }}
{%- endmacro %}
