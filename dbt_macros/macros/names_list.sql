{#- The names in the column ``column`` of a group as one text, joined by "; " in text order:
    dbt's listagg, and on Spark (whose listagg keeps no order) the sorted list joined. -#}
{% macro names_list(column) -%}
  {{ return(adapter.dispatch('names_list', 'ndcg_sql')(column)) }}
{%- endmacro %}

{% macro default__names_list(column) -%}
  {{ return(dbt.listagg(column, "'; '", 'order by ' ~ column)) }}
{%- endmacro %}

{% macro spark__names_list(column) -%}
  {{ return('array_join(array_sort(collect_list(' ~ column ~ ')), \'; \')') }}
{%- endmacro %}
