{#- Copied from sql/ids.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- An id column read in the form ndcg_sql/building/id_types.py chose for it (the rule is there):
      native       as stored (both sides whole numbers, or both text)
      text         CAST AS VARCHAR (whole numbers, categories/ENUM, dates, UUIDs): the byte
                   order of the text, never a category order
      number_text  a number as a TREC file would hold it: a whole one as its digits (1.0 -> '1')
      json_text    a JSON string as its text, a JSON number as number_text, JSON null as NULL -#}
{%- macro _number_text(x) -%}
CASE WHEN {{ x }} = FLOOR({{ x }}) AND ABS({{ x }}) < 9007199254740992 THEN CAST(CAST({{ x }} AS {{ ndcg_sql.sql_type('BIGINT') }}) AS {{ ndcg_sql.sql_type('VARCHAR') }}) ELSE CAST({{ x }} AS {{ ndcg_sql.sql_type('VARCHAR') }}) END
{%- endmacro -%}
{%- macro _id_of(column, form) -%}
{%- if form == 'text' -%}
CAST({{ column }} AS {{ ndcg_sql.sql_type('VARCHAR') }})
{%- elif form == 'number_text' -%}
{{ ndcg_sql._number_text(column) }}
{%- elif form == 'json_text' -%}
CASE JSON_TYPE({{ column }}) WHEN 'NULL' THEN NULL WHEN 'VARCHAR' THEN JSON_EXTRACT_STRING({{ column }}, '$') WHEN 'DOUBLE' THEN {{ ndcg_sql._number_text(ndcg_sql._cast(column, 'DOUBLE')) }} ELSE CAST({{ column }} AS {{ ndcg_sql.sql_type('VARCHAR') }}) END
{%- else -%}
{{ column }}
{%- endif -%}
{%- endmacro -%}
