{#- Mean NDCG@k per cutoff (optionally per segment) over per-query rows such as
    ndcg_per_query's: one row per ([segment,] k) with k, ndcg (the mean over
    the queries counted: all, less the no-relevant ones under 'skip'; NULL when
    none), queries (how many were counted) and no_relevant (queries with
    IDCG@k = 0) - the SQL of sql/summary.sql.j2, the same the Python runner runs.
      per_query     a ref(), source() or CTE name with the query column, k, idcg, ndcg
      query_col     the query column of per_query (default 'query_id')
      k             the cutoffs to report: give those of ndcg_per_query
                    (default: its default, 1, 3, 5, 10, 20 and the whole list)
      segment_cols  columns to group by besides k (experiment arm, date, device)
    Returns one SELECT statement (it starts with WITH: inside another query,
    write `select * from ({{ ndcg_sql.ndcg_summary(...) }}) as summary`). -#}
{% macro ndcg_summary(per_query, query_col='query_id', k=[1, 3, 5, 10, 20, none], segment_cols=[]) -%}
  {{ return(adapter.dispatch('ndcg_summary', 'ndcg_sql')(per_query, query_col, k, segment_cols)) }}
{%- endmacro %}

{% macro default__ndcg_summary(per_query, query_col, k, segment_cols) -%}
  {%- set segments = [] -%}
  {%- for column in segment_cols -%}{%- do segments.append(ndcg_sql.quote_identifier(column)) -%}{%- endfor -%}
  {{ return(ndcg_sql.tmpl_summary(
      per_query_relation=per_query,
      output_query_col=ndcg_sql.quote_identifier(query_col),
      cutoffs=ndcg_sql.cutoffs_context(k),
      segment_cols=segments)) }}
{%- endmacro %}
