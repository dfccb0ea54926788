{#- The depth of a worklist of unjudged items (ndcg_sql.unjudged, the dbt macro ndcg_unjudged):
    the ranks shown, a positive integer up to the largest cutoff. Returns it; anything else is
    an option error. -#}
{% macro _checked_depth(depth) -%}
  {%- if depth is not integer or not 1 <= depth <= ndcg_sql._option_table()['max_cutoff'] -%}
    {{ ndcg_sql._option_error(ndcg_sql._spelled('depth') ~ " must be a positive integer, the ranks shown; got " ~ ndcg_sql._shown(depth)) }}
  {%- endif -%}
  {{ return(depth) }}
{%- endmacro %}
