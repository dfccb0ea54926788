{#- Generated from tools/dbt_pieces.py by `python -m tools.dbt_gen`: do not edit. -#}
{#- How the option macros (sql/options/) stop and name options in dbt; the Python runner has its
    own (ndcg_sql/building/context.py: OptionError, InputError, and the command-line flags). -#}
{% macro _option_error(message) -%}
  {{ exceptions.raise_compiler_error("ndcg_sql: " ~ message) }}
{%- endmacro %}

{% macro _input_error(message) -%}
  {{ exceptions.raise_compiler_error("ndcg_sql: " ~ message) }}
{%- endmacro %}

{#- An engine that cannot compute what the options ask: raised when the model is executed only,
    so that parsing the project (every model, on any adapter) still succeeds. -#}
{% macro _engine_error(message) -%}
  {%- if execute -%}{{ exceptions.raise_compiler_error("ndcg_sql: " ~ message) }}{%- endif -%}
{%- endmacro %}

{#- An option as a message names it: its dbt name (the Python side adds its command-line flag). -#}
{% macro _spelled(name) -%}
  {{ return({"segments": "segment_cols"}.get(name, name)) }}
{%- endmacro %}

{% macro _flag(name, value='') -%}
  {{ return('') }}
{%- endmacro %}
