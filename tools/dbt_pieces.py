"""The data the dbt macros need besides the SQL templates, generated from the Python tables.

dbt's Jinja cannot call sqlglot or import this package, so the tables the option macros
(``sql/options/``) and the templates read are written out as dbt macros by
``python -m tools.dbt_gen``. In the Python runner the same names are Python functions
(:func:`ndcg_sql.building.context.option_macros`).

* ``engine/<piece>.sql``, one public macro a file: the engine differences of
  :mod:`ndcg_sql.vocabulary.dialects` as ``adapter.dispatch`` macros (dbt-utils style: a thin
  wrapper, a ``default__`` variant for DuckDB, the engine the templates are written for,
  and a variant only for engines whose values differ): ``sql_type(name)`` (a DuckDB type
  name as sqlglot writes it for the engine), ``item_byte_order()`` (the item-id expression
  that compares in byte order), ``name_fold()`` (the engine's case rule for plain names)
  and ``string_literal(text)``. A project may override one for its adapter (dispatch).
* ``_internal/_engine.sql``: the engine's name, whether it has a 4-byte float and a top-N aggregate.
* ``_internal/_tables.sql``: ``_option_table()`` (:mod:`ndcg_sql.vocabulary.parameters`),
  ``_convention_table()`` (:mod:`ndcg_sql.vocabulary.conventions`), ``_measure_grammar()``
  (:mod:`ndcg_sql.vocabulary.measures`), ``_plain_name_pattern()`` (:mod:`ndcg_sql.vocabulary.identifiers`).
* ``_internal/_errors.sql``: how the option macros stop (a compiler error; an engine that
  cannot compute an option only when the model is executed, so that the rest of the
  project still compiles) and how they name an option (by its name only: dbt has no flags).
* ``_internal/_check_texts.sql``: the words of the input checks (:data:`ndcg_sql.building.validation.CHECK_TEXTS`)
  and how each engine reads a raw value as a number for them; their SQL is ``sql/input_checks.sql.j2``.
* ``_internal/_id_column_types.sql``, ``_internal/_required_columns.sql``: the relations' columns read
  through dbt's adapter when a model runs (the id columns' types; the columns the macros read,
  a missing one named as :func:`ndcg_sql.building.validation.require` names it, the argument by
  :data:`ndcg_sql.building.validation.ROLE_OPTION_NAMES`); ``_internal/_gate_failures.sql``: the gate's
  failing rows computed once and each named in a line of dbt's output.
"""

from __future__ import annotations

import json

import sqlglot
from sqlglot.dialects.dialect import Dialect

from ndcg_sql.building import validation
from ndcg_sql.vocabulary import conventions, dialects, identifiers, measures, parameters
from tools import dbt_docs

#: The engine the templates are written for: its values are the default__ variant.
SOURCE = "duckdb"
#: Engines that get a dispatch variant when their values differ from what dbt would find otherwise.
ENGINES = tuple(name for name in dialects.DIALECTS if name != SOURCE)
#: dbt's dispatch search goes through these adapters' parents before default__
#: (dbt-redshift is built on dbt-postgres).
DBT_PARENTS = {"redshift": "postgres"}


def _jinja(value) -> str:
    """A Python value (str, number, bool, None, list, dict) as a Jinja literal."""
    if value is None:
        return "none"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_jinja(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_jinja(k)}: {_jinja(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"cannot write {value!r} as Jinja")


def cast_type(type_name: str, dialect: dialects.Dialect) -> str | None:
    """The DuckDB type ``type_name`` as sqlglot writes it in a CAST for ``dialect``
    (None: a 4-byte FLOAT the engine does not have)."""
    if type_name == "FLOAT" and not dialect.float32:
        return None
    cast = sqlglot.parse_one(f"CAST(x AS {type_name})", read=SOURCE)
    written = cast.sql(dialect=dialect.sqlglot, unsupported_level=sqlglot.ErrorLevel.RAISE)
    return sqlglot.parse_one(written, read=dialect.sqlglot).args["to"].sql(dialect=dialect.sqlglot)


def byte_order(dialect: dialects.Dialect) -> str:
    """The internal item column ``item`` compared in byte order, in the engine's syntax."""
    return transpile_expression(dialect.byte_order.format(item="item"), dialect)


def transpile_expression(sql: str, dialect: dialects.Dialect) -> str:
    if dialect.name == SOURCE:
        return sql
    return sqlglot.parse_one(sql, read=SOURCE).sql(dialect=dialect.sqlglot, unsupported_level=sqlglot.ErrorLevel.RAISE)


def literal_escapes(dialect: dialects.Dialect) -> dict[str, str]:
    """How a quote and a backslash are written inside a '...' string literal, from sqlglot's
    tokenizer of the engine: a doubled quote where the engine reads one (standard SQL),
    else a backslash escape; a backslash doubled where it is an escape character."""
    escapes = Dialect.get_or_raise(dialect.sqlglot).tokenizer_class.STRING_ESCAPES
    return {"open": "'", "close": "'", "quote": "''" if "'" in escapes else "\\'",
            "backslash": "\\\\" if "\\" in escapes else "\\"}


def _dispatched(name: str, params: str, values: dict[str, object], body: str, doc: str) -> str:
    """A dispatch wrapper, default__ (DuckDB) and a variant per engine whose value differs.

    ``body`` is the macro body, reading the engine's value as ``value``."""
    arguments = ", ".join(p.strip() for p in params.split(",") if p.strip())
    out = [
        f"{{#- {doc} -#}}\n",
        f"{{% macro {name}({params}) -%}}\n"
        f"  {{{{ return(adapter.dispatch('{name}', 'ndcg_sql')({arguments})) }}}}\n"
        "{%- endmacro %}\n",
    ]
    emitted: set[str] = set()
    for engine, value in values.items():
        parent = DBT_PARENTS.get(engine)
        fallback = values[parent] if parent in emitted else values[SOURCE]
        if engine != SOURCE and value == fallback:
            continue
        emitted.add(engine)
        prefix = "default" if engine == SOURCE else engine
        out.append(
            f"\n{{% macro {prefix}__{name}({params}) -%}}\n"
            f"  {{%- set value = {_jinja(value)} -%}}\n"
            f"{body}"
            "{%- endmacro %}\n"
        )
    return "".join(out)


GENERATED = "{#- Generated from ndcg_sql/%s by `python -m tools.dbt_gen`: do not edit. -#}\n"


def engine_pieces(types: set[str]) -> dict[str, str]:
    """engine/<piece>.sql: the engine pieces for the cast ``types`` the generated macros use."""
    engines = {name: dialects.DIALECTS[name] for name in (SOURCE, *ENGINES)}
    head = GENERATED % "vocabulary/dialects.py"
    return {
        "engine/sql_type.sql": head + _dispatched(
            "sql_type", "name",
            {n: {t: (t if n == SOURCE else cast_type(t, d)) for t in sorted(types)} for n, d in engines.items()},
            "  {{ return(value.get(name, name)) }}\n",
            "A DuckDB type name of a CAST as the engine writes it (sqlglot's translation); a type the engine\n"
            "    lacks (a 4-byte FLOAT on BigQuery and Snowflake) is none.",
        ),
        "engine/char_code.sql": head + _dispatched(
            "char_code", "", {n: transpile_expression("UNICODE(x)", d).split("(")[0] for n, d in engines.items()},
            "  {{ return(value) }}\n",
            "The name of the engine's function giving a character's code point (DuckDB's UNICODE, as sqlglot\n"
            "    translates it): the query keys' hashes (sql/query_keys.sql.j2).",
        ),
        "engine/item_byte_order.sql": head + _dispatched(
            "item_byte_order", "", {n: byte_order(d) for n, d in engines.items()},
            "  {{ return(value) }}\n",
            "The internal item column compared in byte order (ties item-asc/item-desc/input-order on text ids).",
        ),
        "engine/name_fold.sql": head + _dispatched(
            "name_fold", "", {n: d.fold for n, d in engines.items()},
            "  {{ return(value) }}\n",
            "What the engine does to an unquoted name: 'upper', 'lower' or none.",
        ),
        "engine/string_literal.sql": head + _dispatched(
            "string_literal", "text", {n: literal_escapes(d) for n, d in engines.items()},
            "  {{ return(value['open'] ~ (text | string | replace('\\\\', value['backslash']) | replace(\"'\", value['quote'])) ~ value['close']) }}\n",
            "A text as a string literal of the engine (quote and backslash escaped as sqlglot writes them).",
        ),
        "_internal/_id_type_names.sql": head + _dispatched(
            "_id_type_names", "", {n: [[kind, list(names)] for kind, names in d.type_names] for n, d in engines.items()},
            "  {{ return(value) }}\n",
            "The engine's type names by the kind of id they hold ([kind, [names]]; '*' any other name):\n"
            "    read by _id_kind (sql/options/id_forms.sql).",
        ),
        "_internal/_engine.sql": head + _dispatched(
            "_engine", "", {n: {"name": n, "float32": d.float32, "top_n": d.top_n, "position_lists": d.position_lists}
                       for n, d in engines.items()},
            "  {{ return(value) }}\n",
            "The engine's name (as ndcg_sql names it), whether it has a 4-byte float, a top-N aggregate and\n"
            "    lists indexed by position.",
        ),
    }


def tables_file() -> str:
    """_internal/_tables.sql: the option table, the conventions, the measure grammar, plain names."""
    macros = {
        "_option_table": ("vocabulary/parameters.py", parameters.option_table()),
        "_convention_table": ("vocabulary/conventions.py", conventions.convention_table()),
        "_measure_grammar": ("vocabulary/measures.py", measures.grammar()),
        "_plain_name_pattern": ("vocabulary/identifiers.py", identifiers.PLAIN_NAME.pattern),
    }
    return (GENERATED % "vocabulary/parameters.py, conventions.py, measures.py and identifiers.py" + "".join(
        f"\n{{#- ndcg_sql/{source} -#}}\n{{% macro {name}() -%}}\n  {{{{ return({_jinja(value)}) }}}}\n{{%- endmacro %}}\n"
        for name, (source, value) in macros.items()))


ERRORS = """{#- How the option macros (sql/options/) stop and name options in dbt; the Python runner has its
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
  {{ return(@DBT_NAMES@.get(name, name)) }}
{%- endmacro %}

{% macro _flag(name, value='') -%}
  {{ return('') }}
{%- endmacro %}
"""


def check_numbers(dialect: dialects.Dialect) -> dict:
    """How the input checks (sql/input_checks.sql.j2) read a raw value as a number on the engine, in
    its own syntax: the ``numbers`` argument of ``_input_checks`` (:class:`ndcg_sql.building.validation.Numbers`,
    its pieces composed and transpiled by sqlglot, ``{x}`` standing for the value)."""
    numbers = validation.Numbers.of(dialect.name)
    number = numbers.value(_PLACEHOLDER)
    return {"try_double": transpile_expression(number, dialect).replace(_PLACEHOLDER, "{x}"),
            "nan": transpile_expression(numbers.nan.replace("{x}", _PLACEHOLDER), dialect).replace(_PLACEHOLDER, "{x}"),
            "text": None}


#: The column name standing for a value while an expression is transpiled.
_PLACEHOLDER = "ndcg_placeholder_value"


CHECK_PROBLEM = """
{#- A check's problem as the Python runner words it (ndcg_sql/building/validation.py filled): the text of
    _check_texts() for the check's name, its placeholders filled for its side of the input and the
    resolved options. -#}
{% macro _check_problem(check, options) -%}
  {{ return(ndcg_sql._check_texts()[check['name']]['problem']
            | replace('{where}', ' in the judgments' if check['side'] == 'judgments' else '')
            | replace('{input}', check['side']) | replace('{kind}', options['input_kind'])
            | replace('{max_grade}', options['max_grade'] | string) | replace('{binary_labels}', options['binary_labels'] | string)
            | replace('{integer_labels}', options['integer_labels'] | string)) }}
{%- endmacro %}
"""


def check_texts_file() -> str:
    """_internal/_check_texts.sql: the words of the input checks (ndcg_sql/building/validation.py
    CHECK_TEXTS, by check name), how a problem is filled, and how the engine reads a number."""
    engines = {name: dialects.DIALECTS[name] for name in (SOURCE, *ENGINES)}
    texts = {name: {"problem": words["problem"]} for name, words in validation.CHECK_TEXTS.items()}
    return (
        GENERATED % "building/validation.py (CHECK_TEXTS, Numbers)"
        + "\n{#- The input checks' problems by check name (sql/input_checks.sql.j2 names the checks). -#}\n"
        + "{% macro _check_texts() -%}\n  {{ return({\n"
        + ",\n".join(f"    {_jinja(name)}: {_jinja(words)}" for name, words in texts.items())
        + "}) }}\n{%- endmacro %}\n"
        + CHECK_PROBLEM + "\n"
        + _dispatched("_check_numbers", "", {n: check_numbers(d) for n, d in engines.items()}, "  {{ return(value) }}\n",
                      "How the input checks read a raw value as a number on this engine (the numbers of\n"
                      "    sql/input_checks.sql.j2 _input_checks).")
    )


ID_COLUMN_TYPES = """{#- The id columns' types as the engine writes them, read through dbt's adapter
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
"""


REQUIRED_COLUMNS = """{#- The columns the macros read, checked on the relations when the model is executed: a
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
  {%- set options = @ROLE_ARGUMENTS@ -%}
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
"""


GATE_FAILURES = """{#- The gate's query run once (run_query): a line of dbt's output per failing row, naming the
    measure (nDCG@k; nDCG for the whole list), the mean, the threshold and the segment; returns the
    rows as a SELECT of their values (segment values other than text and numbers written as text),
    so that dbt counts (and, with store_failures, stores) them without computing them again. -#}
{% macro _gate_failures(gate_sql, model, k_cutoff, k_value, threshold, segment_cols, segments) -%}
  {%- set measure = 'nDCG' if k_cutoff is none else 'nDCG@' ~ k_cutoff -%}
  {%- set name = model if model is string else model.identifier -%}
  {%- set double = ndcg_sql.sql_type('DOUBLE') -%}
  {%- set selects = [] -%}
  {%- for row in run_query(gate_sql).rows -%}
    {%- set shown = [] -%}
    {%- set values = [] -%}
    {%- for column in segment_cols -%}
      {%- set value = row[loop.index0] -%}
      {%- if value is none -%}
        {%- do shown.append(column ~ ' = NULL') -%}{%- do values.append('NULL') -%}
      {%- elif value is number and value is not boolean and value == value -%}
        {%- do shown.append(column ~ ' = ' ~ value) -%}{%- do values.append(value | string) -%}
      {%- else -%}
        {%- do shown.append(column ~ " = '" ~ value ~ "'") -%}{%- do values.append(ndcg_sql.string_literal(value | string)) -%}
      {%- endif -%}
    {%- endfor -%}
    {%- set mean = row[segment_cols | length + 1] -%}
    {%- if mean is none or mean != mean -%}
      {%- set verdict = 'mean ' ~ measure ~ ' is NULL (no query evaluated, or no per-query row at k = '
                        ~ (k_cutoff if k_cutoff is not none else 'NULL, the whole list') ~ '); the threshold is ' ~ threshold -%}
      {%- set mean_sql = 'CAST(NULL AS ' ~ double ~ ')' -%}
    {%- else -%}
      {%- set verdict = 'mean ' ~ measure ~ ' = ' ~ mean ~ ', below the threshold ' ~ threshold -%}
      {%- set mean_sql = 'CAST(' ~ (mean | float) ~ ' AS ' ~ double ~ ')' -%}
    {%- endif -%}
    {%- do log('ndcg_sql.ndcg_at_least failed on ' ~ name ~ ', ' ~ ('segment ' ~ shown | join(', ') if shown else 'all queries')
               ~ ': ' ~ verdict, info=true) -%}
    {%- set named = [] -%}
    {%- for value in values + [k_value, mean_sql, threshold] -%}
      {%- do named.append(value ~ ' AS ' ~ (segments + ['k', 'ndcg', 'threshold'])[loop.index0]) -%}
    {%- endfor -%}
    {%- do selects.append('SELECT ' ~ named | join(', ')) -%}
  {%- endfor -%}
  {%- if not selects -%}
    {%- set named = [] -%}
    {%- for s in segments -%}{%- do named.append('NULL AS ' ~ s) -%}{%- endfor -%}
    {%- do selects.append('SELECT ' ~ (named + [k_value ~ ' AS k', 'CAST(NULL AS ' ~ double ~ ') AS ndcg', threshold ~ ' AS threshold'])
                          | join(', ') ~ ' FROM (SELECT 1 AS one) AS nothing WHERE 1 = 0') -%}
  {%- endif -%}
  {{ return('-- the failing rows of ndcg_sql.ndcg_at_least, computed once when the test ran (dbt compile shows its query)\\n'
            ~ selects | join('\\nUNION ALL\\n')) }}
{%- endmacro %}
"""


def role_arguments() -> dict[str, str]:
    """{column role: the dbt argument naming that column} (ndcg_sql/building/validation.py ROLE_OPTION_NAMES,
    spelled as the dbt macros spell the options)."""
    dbt_name = {option: dbt for dbt, option in dbt_docs.DBT_NAMES.items()}
    return {role: dbt_name.get(option, option) for role, option in validation.ROLE_OPTION_NAMES.items()}


def files(types: set[str]) -> dict[str, str]:
    """{path: text} of the generated data macros."""
    return {
        **engine_pieces(types),
        "_internal/_tables.sql": tables_file(),
        "_internal/_errors.sql": "{#- Generated from tools/dbt_pieces.py by `python -m tools.dbt_gen`: do not edit. -#}\n"
                                 + ERRORS.replace("@DBT_NAMES@", _jinja({option: dbt for dbt, option in dbt_docs.DBT_NAMES.items()})),
        "_internal/_check_texts.sql": check_texts_file(),
        "_internal/_id_column_types.sql": "{#- Generated from tools/dbt_pieces.py by `python -m tools.dbt_gen`: do not edit. -#}\n"
                                          + ID_COLUMN_TYPES,
        "_internal/_gate_failures.sql": "{#- Generated from tools/dbt_pieces.py by `python -m tools.dbt_gen`: do not edit. -#}\n"
                                        + GATE_FAILURES,
        "_internal/_required_columns.sql": "{#- Generated from tools/dbt_pieces.py and ndcg_sql/building/validation.py by "
                                           "`python -m tools.dbt_gen`: do not edit. -#}\n"
                                           + REQUIRED_COLUMNS.replace("@ROLE_ARGUMENTS@", _jinja(role_arguments())),
    }
