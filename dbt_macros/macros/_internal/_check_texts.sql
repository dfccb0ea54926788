{#- Generated from ndcg_sql/building/validation.py (CHECK_TEXTS, Numbers) by `python -m tools.dbt_gen`: do not edit. -#}

{#- The input checks' problems by check name (sql/input_checks.sql.j2 names the checks). -#}
{% macro _check_texts() -%}
  {{ return({
    "null_query": {"problem": "NULL query ids{where}"},
    "null_item": {"problem": "NULL item ids{where}"},
    "null_order": {"problem": "NULL {kind}s"},
    "non_numeric_order": {"problem": "non-numeric {kind}s"},
    "nan_order": {"problem": "NaN {kind}s"},
    "null_row": {"problem": "NULL row numbers"},
    "null_weight": {"problem": "NULL weights"},
    "nan_weight": {"problem": "NaN or infinite weights"},
    "negative_weight": {"problem": "negative weights"},
    "uneven_weight": {"problem": "weights that differ within a query (a query has one weight)"},
    "zero_weights": {"problem": "weights that are all 0 (the weighted mean is 0 / 0)"},
    "duplicate_pairs": {"problem": "duplicate (query, item) rows in the {input}"},
    "null_label": {"problem": "NULL labels{where}"},
    "non_numeric_label": {"problem": "non-numeric labels{where}"},
    "nan_label": {"problem": "NaN or infinite labels{where}"},
    "negative_label": {"problem": "negative labels{where}"},
    "label_above_exponential": {"problem": "labels{where} above 1023 (2^label - 1 overflows a double; use gain='linear' or a mapping)"},
    "unmapped_label": {"problem": "labels{where} missing from the gain mapping"},
    "non_binary_label": {"problem": "labels{where} other than 0 and 1 ({binary_labels}: for labels 0 and 1 only)"},
    "fractional_label": {"problem": "fractional labels{where} ({integer_labels}: for whole labels only)"},
    "label_above_max_grade": {"problem": "labels{where} above {max_grade}, the top grade ERR reads"},
    "gain_total_exponential": {"problem": "queries{where} whose gains add up past 2^1023 (about 9.0e307, where a double overflows: exponential gain 2^label - 1 of labels near 1023; use gain='linear' or a mapping)"},
    "gain_total_linear": {"problem": "queries{where} whose gains add up past 2^1023 (about 9.0e307, where a double overflows: with linear gain the gain is the label; dividing the labels by a constant leaves NDCG as it is)"},
    "gain_total_mapping": {"problem": "queries{where} whose gains add up past 2^1023 (about 9.0e307, where a double overflows: gains of the mapping too large)"}}) }}
{%- endmacro %}

{#- A check's problem as the Python runner words it (ndcg_sql/building/validation.py filled): the text of
    _check_texts() for the check's name, its placeholders filled for its side of the input and the
    resolved options. -#}
{% macro _check_problem(check, options) -%}
  {{ return(ndcg_sql._check_texts()[check['name']]['problem']
            | replace('{where}', ' in the judgments' if check['side'] == 'judgments' else '')
            | replace('{input}', check['side']) | replace('{kind}', options['input_kind'])
            | replace('{max_grade}', options['max_grade'] | string) | replace('{binary_labels}', options['binary_labels'] | string)
            | replace('{integer_labels}', options['integer_labels'] | string)) }}
{%- endmacro %}

{#- How the input checks read a raw value as a number on this engine (the numbers of
    sql/input_checks.sql.j2 _input_checks). -#}
{% macro _check_numbers() -%}
  {{ return(adapter.dispatch('_check_numbers', 'ndcg_sql')()) }}
{%- endmacro %}

{% macro default___check_numbers() -%}
  {%- set value = {"try_double": "TRY_CAST({x} AS DOUBLE)", "nan": "ISNAN({x})", "text": none} -%}
  {{ return(value) }}
{%- endmacro %}

{% macro bigquery___check_numbers() -%}
  {%- set value = {"try_double": "SAFE_CAST(CAST({x} AS STRING) AS FLOAT64)", "nan": "IS_NAN({x})", "text": none} -%}
  {{ return(value) }}
{%- endmacro %}

{% macro snowflake___check_numbers() -%}
  {%- set value = {"try_double": "TRY_CAST(CAST({x} AS VARCHAR) AS DOUBLE)", "nan": "{x} = CAST('NaN' AS DOUBLE)", "text": none} -%}
  {{ return(value) }}
{%- endmacro %}

{% macro spark___check_numbers() -%}
  {%- set value = {"try_double": "TRY_CAST(CAST({x} AS STRING) AS DOUBLE)", "nan": "{x} = CAST('NaN' AS DOUBLE)", "text": none} -%}
  {{ return(value) }}
{%- endmacro %}

{% macro postgres___check_numbers() -%}
  {%- set value = {"try_double": "CASE WHEN TRIM(CAST({x} AS TEXT)) ~ '^([-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?|[-+]?([iI][nN][fF]([iI][nN][iI][tT][yY])?)|[nN][aA][nN])$' THEN CAST(TRIM(CAST({x} AS TEXT)) AS DOUBLE PRECISION) END", "nan": "{x} = CAST('NaN' AS DOUBLE PRECISION)", "text": none} -%}
  {{ return(value) }}
{%- endmacro %}

{% macro redshift___check_numbers() -%}
  {%- set value = {"try_double": "CASE WHEN TRIM(CAST({x} AS VARCHAR(MAX))) ~ '^([-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?|[-+]?([iI][nN][fF]([iI][nN][iI][tT][yY])?)|[nN][aA][nN])$' THEN CAST(TRIM(CAST({x} AS VARCHAR(MAX))) AS DOUBLE PRECISION) END", "nan": "{x} = CAST('NaN' AS DOUBLE PRECISION)", "text": none} -%}
  {{ return(value) }}
{%- endmacro %}
