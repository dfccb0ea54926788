{#- Generated from tools/dbt_pieces.py by `python -m tools.dbt_gen`: do not edit. -#}
{#- The id columns' types as the engine writes them, read through dbt's adapter
    (adapter.get_columns_in_relation) when the model is executed; sql/options/id_forms.sql applies
    the rule of ndcg_sql/building/id_types.py to them (_ranking_context, hints['id_types']). Returns
    {'query', 'item', 'judgments_query', 'judgments_item': the column's data_type}, or none when
    they are not read: without judgments (a column is compared with itself), a relation given as a
    CTE's name (text), while dbt parses the project, or under `dbt compile --no-introspect` (no
    connection). A column the adapter does not list is left out: compared as stored. -#}
{% macro _id_column_types(relation, judgments, query_col, item_col, judgments_query_col, judgments_item_col) -%}
  {%- if judgments is none or relation is string or judgments is string or not execute or not flags.INTROSPECT -%}
    {{ return(none) }}
  {%- endif -%}
  {%- set found = {} -%}
  {%- for source, roles in [(relation, {'query': query_col, 'item': item_col}),
                            (judgments, {'judgments_query': judgments_query_col or query_col,
                                         'judgments_item': judgments_item_col or item_col})] -%}
    {%- set columns = adapter.get_columns_in_relation(source) -%}
    {%- for role, name in roles.items() -%}
      {%- for column in columns if role not in found and (column.name | lower) == (name | lower) -%}
        {%- do found.update({role: column.data_type}) -%}
      {%- endfor -%}
    {%- endfor -%}
  {%- endfor -%}
  {{ return(found) }}
{%- endmacro %}
