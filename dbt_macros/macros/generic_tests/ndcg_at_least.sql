{#- Generic test: fails when the mean NDCG@k of a model is below a threshold
    (for every segment, with segment_cols), or when the model has no row for k.
    The model holds per-query rows (ndcg_per_query's output), or, with
    `ranking: {options of ndcg_per_query}`, the ranking itself.

      threshold     number in [0, 1]
      k             the cutoff (an integer, or 'all'; default 10)
      query_col     query column (default 'query_id')
      segment_cols  check every segment (e.g. each experiment arm)
    Failing rows: the segment columns, k, the mean ndcg and the threshold. When dbt runs the test
    (dbt build, dbt test), its query runs once, here, and each failing row is also logged as a line
    of dbt's output naming the measure, the mean, the threshold and the segment (dbt itself shows
    only a count of rows); dbt then counts those rows, written out as values. -#}
{% test ndcg_at_least(model, threshold, k=10, query_col='query_id', segment_cols=[], ranking=none) %}
  {{ return(adapter.dispatch('test_ndcg_at_least', 'ndcg_sql')(model, threshold, k, query_col, segment_cols, ranking)) }}
{% endtest %}

{% macro default__test_ndcg_at_least(model, threshold, k, query_col, segment_cols, ranking) -%}
  {%- set fail = exceptions.raise_compiler_error -%}
  {#- Arguments given in YAML through {{ var() }} arrive as text: accept a number written out. -#}
  {%- if threshold is string and modules.re.fullmatch('[0-9]*[.]?[0-9]+', threshold | trim) -%}
    {%- set threshold = threshold | trim | float -%}
  {%- endif -%}
  {%- if threshold is not number or threshold is boolean or threshold < 0 or threshold > 1 -%}
    {{ fail("ndcg_at_least: threshold must be a number in [0, 1]; got " ~ threshold) }}
  {%- endif -%}
  {#- one cutoff, read as ndcg_per_query reads k (sql/options/parse_cutoffs.sql) -#}
  {%- set cutoffs = ndcg_sql._parse_cutoffs(k) -%}
  {%- if cutoffs | length != 1 -%}
    {{ fail("ndcg_at_least: k is one cutoff (an integer, or 'all'); got " ~ k) }}
  {%- endif -%}
  {%- set k_cutoff = cutoffs[0] -%}
  {%- if k_cutoff is none -%}
    {%- set k_condition = 'k IS NULL' -%}
    {%- set k_value = 'CAST(NULL AS ' ~ ndcg_sql.sql_type('BIGINT') ~ ')' -%}
  {%- else -%}
    {%- set k_condition = 'k = ' ~ k_cutoff -%}
    {%- set k_value = k_cutoff -%}
  {%- endif -%}
  {%- set segments = [] -%}
  {%- for column in segment_cols -%}{%- do segments.append(ndcg_sql.quote_identifier(column)) -%}{%- endfor -%}
  {%- if ranking is not none -%}
    {%- set options = ranking.copy() -%}
    {#- only the cutoff under test is computed -#}
    {%- do options.update({'query_col': query_col, 'segment_cols': segment_cols, 'k': [k_cutoff]}) -%}
    {%- set per_query_sql = ndcg_sql.ndcg_per_query(model, **options) -%}
  {%- else -%}
    {#- a misspelt column stops here, named, when the model is a ref() (ndcg_per_query checks a ranking's) -#}
    {%- set wanted = [('query', query_col), ('k', 'k'), ('ndcg', 'ndcg')] -%}
    {%- for column in segment_cols -%}{%- do wanted.append(('segment', column)) -%}{%- endfor -%}
    {%- do ndcg_sql._require(model, wanted, 'the per-query model') -%}
    {%- set per_query_sql = 'SELECT * FROM ' ~ model -%}
  {%- endif -%}
{%- set gate_sql -%}
WITH
per_query_rows AS ( -- one row per ([segment,] query, k)
{{ per_query_sql }}
),
summary_rows AS ( -- one row per ([segment,] k): mean NDCG
  SELECT * FROM (
{{ ndcg_sql.ndcg_summary('per_query_rows', query_col, [k_cutoff], segment_cols, false) }}
  ) AS summary
)
SELECT {% for s in segments %}{{ s }}, {% endfor %}k, ndcg, {{ threshold }} AS threshold
FROM summary_rows
WHERE {{ k_condition }} AND (ndcg IS NULL OR ndcg < {{ threshold }})
UNION ALL
SELECT {% for s in segments %}NULL, {% endfor %}{{ k_value }}, CAST(NULL AS {{ ndcg_sql.sql_type('DOUBLE') }}), {{ threshold }}
FROM (SELECT COUNT(*) AS rows_at_k FROM summary_rows WHERE {{ k_condition }}) AS counted  -- (BigQuery: no WHERE without FROM)
WHERE counted.rows_at_k = 0
{%- endset -%}
  {#- dbt build / dbt test (not dbt compile, nor dbt parsing the project): run once and say why -#}
  {%- if execute and flags is defined and flags.WHICH in ['build', 'test', 'retry'] -%}
    {{ return(ndcg_sql._gate_failures(gate_sql, model, k_cutoff, k_value, threshold, segment_cols, segments)) }}
  {%- endif -%}
  {{ return(gate_sql) }}
{%- endmacro %}
