{#- Copied from sql/query_keys.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- The query key of a ranking with segment columns: one text standing for (segment values,
    query), computed row by row (no numbering, no ordering: every window and join later is
    partitioned by it and stays parallel). Each part is written as its length, ':' and its
    text, or '~' when it is NULL, so different (segment values, query) never give the same
    text; the key is NULL when the query id is NULL (the input checks report those). -#}
{%- macro _key_of(columns) -%}
CASE WHEN {{ columns[-1] }} IS NULL THEN NULL ELSE {% for c in columns %}{% if not loop.first %} || {% endif %}CASE WHEN {{ c }} IS NULL THEN '~' ELSE CAST(LENGTH(CAST({{ c }} AS {{ ndcg_sql.sql_type('VARCHAR') }})) AS {{ ndcg_sql.sql_type('VARCHAR') }}) || ':' || CAST({{ c }} AS {{ ndcg_sql.sql_type('VARCHAR') }}) END{% endfor %} END
{%- endmacro -%}
{#- An integer in [0, 2^31 - 1) from a text key, the same on every engine: a polynomial in
    `base` over the code points of its first and last `width` characters and its length,
    each term reduced mod P = 2^31 - 1 (products stay below 2^52), the terms added as a
    balanced tree (a long chain nests too deep for some engines' analyzers). Two bases give
    two independent hashes: a pair of queries shares both only with probability about
    n^2 / 2^62 (a query's bootstrap weights and permutation signs are drawn from its pair). -#}
{%- macro _hash_of(key, base, width=12) -%}
{%- set terms = ['MOD(CAST(LENGTH(' ~ key ~ (') AS ' ~ ndcg_sql.sql_type('BIGINT') ~ ') * ') ~ (base ** (2 * width + 1)) % 2147483647 ~ ', 2147483647)'] -%}
{%- for i in range(1, width + 1) -%}
{%- set _ = terms.append('MOD(CAST(CASE WHEN LENGTH(' ~ key ~ ') >= ' ~ i ~ ' THEN ' ~ ndcg_sql.char_code() ~ '(SUBSTRING(' ~ key ~ ', ' ~ i ~ (', 1)) ELSE 0 END AS ' ~ ndcg_sql.sql_type('BIGINT') ~ ') * ') ~ (base ** i) % 2147483647 ~ ', 2147483647)') -%}
{%- set _ = terms.append('MOD(CAST(CASE WHEN LENGTH(' ~ key ~ ') >= ' ~ i ~ ' THEN ' ~ ndcg_sql.char_code() ~ '(SUBSTRING(' ~ key ~ ', LENGTH(' ~ key ~ ') - ' ~ (i - 1) ~ (', 1)) ELSE 0 END AS ' ~ ndcg_sql.sql_type('BIGINT') ~ ') * ') ~ (base ** (width + i)) % 2147483647 ~ ', 2147483647)') -%}
{%- endfor -%}
MOD({{ ndcg_sql._balanced_sum(terms, 0, terms | length - 1) }}, 2147483647)
{%- endmacro -%}
{%- macro _balanced_sum(terms, first, last) -%}
{%- if first == last -%}
{{ terms[first] }}
{%- else -%}
{%- set middle = (first + last) // 2 -%}
({{ ndcg_sql._balanced_sum(terms, first, middle) }} + {{ ndcg_sql._balanced_sum(terms, middle + 1, last) }})
{%- endif -%}
{%- endmacro -%}
{#- The output's first columns, read from a relation of per-query rows (its query key qid) joined
    to segment_keys AS keys: the segment values and the query id, or the query id alone -#}
{%- macro _output_query_columns(ctx) -%}
{%- set segment_cols = ctx['segment_cols'] -%}
{%- set output_query_col = ctx['output_query_col'] -%}
{%- if segment_cols %}
  {%- for s in segment_cols %}
  keys.segment_{{ loop.index }} AS {{ s }},
  {%- endfor %}
  keys.query AS {{ output_query_col }},
  {%- else %}
  qid AS {{ output_query_col }},
  {%- endif %}
{%- endmacro -%}
