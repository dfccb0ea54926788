"""The data the dbt macros need besides the SQL templates, generated from the Python tables.

dbt's Jinja cannot call sqlglot or import this package, so what the Python
runner decides from data tables is written out as dbt macros by
``python -m ndcg_sql.dbt_gen`` (files ``macros/generated/tmpl_*.sql``):

* ``tmpl_dialects.sql``: the engine differences of :mod:`ndcg_sql.dialects`
  as ``adapter.dispatch`` macros (dbt-utils style: a thin wrapper, a
  ``default__`` variant for DuckDB, the engine the templates are written for,
  and a variant only for engines whose values differ): ``sql_type(name)`` (a
  DuckDB type name as sqlglot writes it for the engine), ``item_byte_order()``
  (the item-id expression that compares in byte order), ``name_fold()`` (the
  engine's case rule for plain names) and ``string_literal(text)``.
  The generated metric macros call ``sql_type`` wherever a template casts.
* ``tmpl_options.sql``: the peer conventions (:mod:`ndcg_sql.conventions`) and
  the measure-name grammar (:mod:`ndcg_sql.measures`) as data.
* ``tmpl_input_checks.sql``: the input checks of :mod:`ndcg_sql.validation`
  (all of them on DuckDB, the portable ones transpiled for other engines).
"""

from __future__ import annotations

import json
import re

import sqlglot
from sqlglot import exp
from sqlglot.dialects.dialect import Dialect

from . import conventions, dialects, identifiers, measures, validation
from .options import Options

#: Casts the generator makes engine-neutral: ``AS <type>`` of a DuckDB type name.
TYPE_PATTERN = re.compile(r"\bAS\s+(DOUBLE|BIGINT|INTEGER|FLOAT|REAL|VARCHAR|BOOLEAN|DECIMAL\(\s*\d+\s*,\s*\d+\s*\))(?![\w(])")
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


def dialect_file(types: set[str]) -> str:
    """tmpl_dialects.sql: the engine pieces for the cast ``types`` the generated macros use."""
    engines = {name: dialects.DIALECTS[name] for name in (SOURCE, *ENGINES)}
    parts = [
        "{#- Generated from ndcg_sql/dialects.py by `python -m ndcg_sql.dbt_gen`: do not edit.\n"
        "    What differs per engine, for the generated macros: DuckDB (the templates' own SQL) is the\n"
        "    default__ variant; other engines have a variant only where they differ. -#}\n",
        _dispatched(
            "sql_type", "name",
            {n: {t: (t if n == SOURCE else cast_type(t, d)) for t in sorted(types)} for n, d in engines.items()},
            "  {%- if value.get(name, 'unknown') is none -%}\n"
            "    {{ exceptions.raise_compiler_error(\"ndcg_sql: \" ~ target.type ~ \" has no 4-byte float type: scores \"\n"
            "       ~ \"cannot be compared as float32 there (score_precision / conventions trec_eval, xgboost)\") }}\n"
            "  {%- endif -%}\n"
            "  {{ return(value.get(name, name)) }}\n",
            "A DuckDB type name of a CAST as the engine writes it (sqlglot's translation).",
        ),
        "\n",
        _dispatched(
            "item_byte_order", "", {n: byte_order(d) for n, d in engines.items()},
            "  {{ return(value) }}\n",
            "The internal item column compared in byte order (ties item-asc/item-desc on text ids).",
        ),
        "\n",
        _dispatched(
            "name_fold", "", {n: d.fold for n, d in engines.items()},
            "  {{ return(value) }}\n",
            "What the engine does to an unquoted name: 'upper', 'lower' or none.",
        ),
        "\n",
        _dispatched(
            "string_literal", "text", {n: literal_escapes(d) for n, d in engines.items()},
            "  {{ return(value['open'] ~ (text | string | replace('\\\\', value['backslash']) | replace(\"'\", value['quote'])) ~ value['close']) }}\n",
            "A text as a string literal of the engine (quote and backslash escaped as sqlglot writes them).",
        ),
        "\n{#- A name the engine accepts unquoted (and folds): ndcg_sql/identifiers.py PLAIN_NAME. -#}\n"
        "{% macro plain_name_pattern() -%}\n"
        f"  {{{{ return({_jinja(identifiers.PLAIN_NAME.pattern)}) }}}}\n"
        "{%- endmacro %}\n",
    ]
    return "".join(parts)


def options_file() -> str:
    """tmpl_options.sql: conventions and the measure grammar as data."""
    data = {
        "conventions": conventions.CONVENTIONS,
        "aliases": conventions.ALIASES,
        "defaults": conventions.DEFAULTS,
    }
    grammar = {
        "pattern": measures._NAME.pattern,
        "aliases": measures.ALIASES,
        "graded": list(measures.GRADED),
        "linear": list(measures.LINEAR),
        "need_cutoff": list(measures.NEED_CUTOFF),
        "graded_column": {"CG": "cg", "DCG": "dcg", "nDCG": "ndcg"},
    }
    return (
        "{#- Generated from ndcg_sql/conventions.py and ndcg_sql/measures.py by `python -m ndcg_sql.dbt_gen`:\n"
        "    do not edit. -#}\n"
        "{#- The peer conventions: options each sets (ndcg_sql/conventions.py CONVENTIONS). -#}\n"
        "{% macro convention_table() -%}\n"
        f"  {{{{ return({_jinja(data)}) }}}}\n"
        "{%- endmacro %}\n\n"
        "{#- Measure names in ir_measures notation (ndcg_sql/measures.py): the name pattern, family aliases,\n"
        "    which families are graded (gain), linear (tie-averaged) or need a cutoff. -#}\n"
        "{% macro measure_grammar() -%}\n"
        f"  {{{{ return({_jinja(grammar)}) }}}}\n"
        "{%- endmacro %}\n"
    )


#: Input checks offered by the dbt test: the runner's checks for these options.
CHECK_KEYS = [(judged, kind, gain) for judged in (False, True) for kind in ("score", "rank") for gain in ("exponential", "linear")]
#: Placeholder column names, replaced in dbt by the user's (quoted) names.
_ROLES = {"query": "@query@", "item": "@item@", "order": "@order@", "label": "@label@",
          "j_query": "@query@", "j_item": "@item@", "j_label": "@label@"}


def _checks(dialect: dialects.Dialect) -> dict:
    table = {}
    for judged, kind, gain in CHECK_KEYS:
        options = Options.build(judgments=judged, input_kind=kind, gain=gain)
        rows = []
        for check in validation.checks_for(options, _ROLES, dialect=dialect.name):
            rows.append({
                "relation": check.relation,
                "condition": transpile_expression(check.condition, dialect),
                "column": check.column,
                "problem": check.problem,
            })
        table[f"{'judgments' if judged else 'labels'}|{kind}|{gain}"] = rows
    return table


def input_checks_file() -> str:
    """tmpl_input_checks.sql: the runner's input checks (ndcg_sql/validation.py) per engine."""
    engines = {name: dialects.DIALECTS[name] for name in (SOURCE, *ENGINES)}
    return (
        "{#- Generated from ndcg_sql/validation.py by `python -m ndcg_sql.dbt_gen`: do not edit.\n"
        "    The input checks of the Python runner, keyed 'labels|judgments' | 'score|rank' |\n"
        "    'exponential|linear': every check, written for each engine (its NaN test and its\n"
        "    safe text-to-number cast, ndcg_sql/dialects.py), transpiled by sqlglot. Column names are\n"
        "    '@query@', '@item@', '@order@', '@label@' (the caller puts in the user's). -#}\n"
        + _dispatched(
            "input_checks", "", {n: _checks(d) for n, d in engines.items()},
            "  {{ return(value) }}\n",
            "The input checks (ndcg_sql/validation.py checks_for) for this engine.",
        )
    )


def files(types: set[str]) -> dict[str, str]:
    """{file name: text} of the generated data macros."""
    return {
        "tmpl_dialects.sql": dialect_file(types),
        "tmpl_options.sql": options_file(),
        "tmpl_input_checks.sql": input_checks_file(),
    }
