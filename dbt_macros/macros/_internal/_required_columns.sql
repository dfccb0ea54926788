{#- Generated from tools/dbt_pieces.py and ndcg_sql/building/validation.py by `python -m tools.dbt_gen`: do not edit. -#}
{#- The columns the macros read, checked on the relations when the model is executed: a
    misspelt column stops with the Python runner's message (ndcg_sql/building/validation.py require: the
    role, the name, the relation's columns and the argument that names it) instead of the engine's
    error for an unknown column. The columns are read through dbt's adapter
    (adapter.get_columns_in_relation) from a ref() or source(); a CTE's name (text) cannot be
    read, nor while dbt parses the project, under `dbt compile --no-introspect` or before the
    relation is built (the adapter lists no column): then the engine reports a missing column. Names are compared ignoring case (the engine may fold them).

    _require(relation, wanted, where): wanted is a list of (role, name) pairs (role: query, item,
    score, rank, label, row order, weight, segment, or any other word), where names the relation
    ('the ranking', 'the judgments', 'the per-query model'). -#}
{% macro _require(relation, wanted, where) -%}
  {%- if relation is string or not execute or not flags.INTROSPECT -%}{{ return(none) }}{%- endif -%}
  {%- set names = [] -%}
  {%- for column in adapter.get_columns_in_relation(relation) -%}{%- do names.append(column.name) -%}{%- endfor -%}
  {#- no column: the relation is not built yet (dbt compile before dbt run), nothing to check -#}
  {%- if not names -%}{{ return(none) }}{%- endif -%}
  {%- set lowered = names | map('lower') | list -%}
  {%- set options = {"query": "query_col", "item": "item_col", "score": "score_col", "rank": "rank_col", "label": "label_col", "row order": "row_col", "weight": "weight_col", "segment": "segment_cols"} -%}
  {%- set missing = [] -%}
  {%- set hints = [] -%}
  {%- for role, name in wanted if name is string and (name | lower) not in lowered -%}
    {%- do missing.append(role ~ " column '" ~ name ~ "'") -%}
    {%- if role in options and options[role] ~ '=' not in hints -%}{%- do hints.append(options[role] ~ '=') -%}{%- endif -%}
  {%- endfor -%}
  {%- if missing -%}
    {{ ndcg_sql._input_error(where ~ " " ~ relation.identifier ~ (" have" if where == 'the judgments' else " has")
        ~ " no " ~ missing | join(', no ') ~ "; its columns are: " ~ names | join(', ')
        ~ (" (name yours with " ~ hints | join(', ') ~ ")" if hints else "")) }}
  {%- endif -%}
{%- endmacro %}

{#- The ranking's and the judgments' columns that ndcg_per_query, ndcg_measures and ndcg_valid_input
    read (arguments: theirs by name), as ndcg_sql/building/validation.py wanted_columns lists them, and the
    segment columns. -#}
{% macro _require_columns(arguments, relation, judgments) -%}
  {%- set get = arguments.get -%}
  {%- set order = [('rank', get('rank_col'))] if get('rank_col') is not none else [('score', get('score_col') or 'score')] -%}
  {%- set ranking = [('query', get('query_col')), ('item', get('item_col'))] + order -%}
  {%- if judgments is none -%}{%- do ranking.append(('label', get('label_col'))) -%}{%- endif -%}
  {%- do ranking.extend([('row order', get('row_col')), ('weight', get('weight_col'))]) -%}
  {%- for name in get('segment_cols') or [] -%}{%- do ranking.append(('segment', name)) -%}{%- endfor -%}
  {%- do ndcg_sql._require(relation, ranking, 'the ranking') -%}
  {%- if judgments is not none -%}
    {%- do ndcg_sql._require(judgments, [('query', get('judgments_query_col') or get('query_col')),
                                         ('item', get('judgments_item_col') or get('item_col')),
                                         ('label', get('judgments_label_col') or get('label_col'))], 'the judgments') -%}
  {%- endif -%}
{%- endmacro %}
