{#- Copied from sql/options/parse_gain.sql by `python -m tools.dbt_gen`: do not edit. -#}
{#- The gain option: 'exponential' (2^label - 1), 'linear' (label), or a mapping
    {label: gain} of finite numbers with non-negative gains (DCG must not decrease with
    depth). Returns {'kind': 'exponential' | 'linear' | 'mapping', 'mapping': [[label, gain], ...]}
    (floats, by label ascending; empty unless 'mapping'). -#}
{% macro _parse_gain(gain) -%}
  {%- if gain is not mapping -%}
    {{ return({'kind': ndcg_sql._option_choice('gain', gain, ndcg_sql._option_table()['gains']), 'mapping': []}) }}
  {%- endif -%}
  {%- if gain | length == 0 -%}{{ ndcg_sql._option_error("a gain mapping needs at least one label") }}{%- endif -%}
  {%- set pairs = [] -%}
  {%- for label, value in gain.items() -%}
    {%- set numbers = [] -%}
    {%- for x in [label, value] -%}
      {%- if x is number and x is not boolean -%}
        {%- do numbers.append(x | float) -%}
      {%- elif x is string and modules.re.fullmatch('\\s*[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?\\s*', x) -%}
        {%- do numbers.append(x | trim | float) -%}
      {%- endif -%}
    {%- endfor -%}
    {%- set shown = ndcg_sql._shown(label) ~ ": " ~ ndcg_sql._shown(value) -%}
    {%- if numbers | length != 2 and label is string and numbers | length == 1 -%}
      {#- a word: the Python runner and command line map words (ndcg_sql/building/labels.py); these macros take numbers -#}
      {{ ndcg_sql._option_error("gain mapping entries must be numbers here; got " ~ shown ~ ": labels given as words "
                                ~ "are mapped by ndcg_sql's Python API and command line; in a dbt model map them "
                                ~ "to numbers first (label_col of a CASE over the words)") }}
    {%- endif -%}
    {%- if numbers | length != 2 -%}
      {{ ndcg_sql._option_error("gain mapping entries must be numbers; got " ~ shown) }}
    {%- endif -%}
    {%- set finite = [] -%}
    {%- for x in numbers if x == x and -1.7976931348623157e308 <= x <= 1.7976931348623157e308 -%}
      {%- do finite.append(x) -%}
    {%- endfor -%}
    {%- if finite | length != 2 or numbers[1] < 0 -%}
      {{ ndcg_sql._option_error("gain mapping needs finite labels and finite non-negative gains; got " ~ shown) }}
    {%- endif -%}
    {%- do pairs.append(numbers) -%}
  {%- endfor -%}
  {{ return({'kind': 'mapping', 'mapping': pairs | sort(attribute='0')}) }}
{%- endmacro %}
