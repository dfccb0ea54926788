{#- The segment part of the templates' context, as template_context() in
    ndcg_sql/evaluate.py sets it for evaluate(segments=...): segment_cols (the
    columns quoted by ndcg_sql.quote_identifier) and segmented_judgments (the
    judgments carry the segment columns too: they are per (segment, query)).
    The templates then key every row by a number standing for (segment values,
    query) (segment_keys in sql/normalised_rows.sql.j2) and give the segment
    columns and the query back in their output.
    Raises a compiler error for a segment column named as an output column, and
    for missing_queries='zero' with judgments per query (ndcg_sql/sql_text.py
    refuses it the same way: a judged query absent from the run belongs to no
    segment). -#}
{% macro segment_context(segment_cols, segmented_judgments, context) -%}
  {%- set fail = exceptions.raise_compiler_error -%}
  {%- if segment_cols is string -%}{%- set segment_cols = [segment_cols] -%}{%- endif -%}
  {%- if not segment_cols -%}
    {{ return({'segment_cols': []}) }}
  {%- endif -%}
  {%- if segmented_judgments is not boolean -%}
    {{ fail("ndcg_sql: segmented_judgments must be true or false; got " ~ segmented_judgments) }}
  {%- endif -%}
  {%- set quoted = [] -%}
  {%- for column in segment_cols -%}
    {%- if column is string and column | lower in ['k', 'cg', 'dcg', 'idcg', 'ndcg', 'measure', 'value'] -%}
      {{ fail("ndcg_sql: a segment column may not be named '" ~ column ~ "': the output has a column of that name") }}
    {%- endif -%}
    {%- do quoted.append(ndcg_sql.quote_identifier(column)) -%}
  {%- endfor -%}
  {%- if context['judgments'] and context['missing_queries'] == 'zero' and not segmented_judgments -%}
    {{ fail("ndcg_sql: missing_queries='zero' with segment_cols needs judgments per (segment, query): judgments carrying the segment columns, with segmented_judgments=true (a judged query absent from the run belongs to no segment otherwise)") }}
  {%- endif -%}
  {{ return({'segment_cols': quoted, 'segmented_judgments': segmented_judgments and context['judgments']}) }}
{%- endmacro %}
