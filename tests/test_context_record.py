"""The templates' context is one record (ndcg_sql.building.context.TemplateContext) whose fields are
exactly the keys sql/options/ranking_context.sql returns, and the resolved options' keys are exactly
what Python reads of them (Options' fields and the keys read beside them): a key added on one side
and not on the other fails here, for every option set below."""

from __future__ import annotations

import dataclasses

import pytest

from ndcg_sql.building import context
from ndcg_sql.building.context import TemplateContext
from ndcg_sql.vocabulary.parameters import Options, Request

#: option sets that reach every branch of the context macros: NDCG rows and measures, judgments,
#: segments, a gain mapping, conventions, weights, row order, samples, bootstraps
OPTION_SETS = [
    ({}, False),
    ({"k": [1, 3, None], "gain": "linear", "ties": "item-asc"}, False),
    ({"measures": ["nDCG@10", "AP", "P@5", "RR", "gm_map", "infAP", "Bpref", "ERR@10", "Judged@10", "Rprec"], "ties": "item-desc"}, True),
    ({"measures": ["P(rel=2)@5", "R@100", "SetP"], "convention": "trec_eval"}, True),
    ({"segments": ["market"], "intervals": True}, True),
    ({"gain": {"bad": 0, "good": 1, "perfect": 3}}, False),
    ({"convention": "lightgbm", "measures": ["AP@5", "nDCG@5"], "row_col": "row"}, False),
    ({"weight_col": "w"}, False),
    ({"bootstrap": 200, "seed": 3}, False),
    ({"row_col": "row", "ties": "input-order"}, False),
    ({"sample": 0.5, "seed": 7, "segments": ["market"]}, False),
    ({"rank_col": "position", "unjudged": "condense"}, True),
]
HINTS = [{}, {"longest_list": 30, "labels": (0, 4, 0)}, {"longest_list": 2000, "labels": (0, 3, 0)},
         {"longest_list": 5, "labels": (0.5, 2.5, 2)}]


def made(options: dict, judged: bool, hints: dict, dialect: str = "duckdb") -> tuple[context.Resolved, dict]:
    resolved = context.resolve(Request(**options).metric(), judged, dialect=dialect)
    seen = context.Seen(**hints)
    return resolved, context.option_macros(dialect)._ranking_context(resolved.decided, '"run"', '"qrels"' if judged else None,
                                                                     seen.hints())


@pytest.mark.parametrize("dialect", ["duckdb", "postgres"])
@pytest.mark.parametrize("options, judged", OPTION_SETS)
def test_the_macros_keys_are_the_records_fields(options, judged, dialect):
    fields = [f.name for f in dataclasses.fields(TemplateContext)]
    for hints in HINTS:
        resolved, returned = made(options, judged, hints, dialect)
        assert sorted(returned) == sorted(fields)
        record = context.render(resolved, '"run"', '"qrels"' if judged else None, context.Seen(**hints)).context
        assert dict(record) == returned  # the record holds what the macro returned, and passes it on whole


def test_the_record_refuses_a_key_it_has_no_field_for_and_a_missing_one():
    _, returned = made({}, False, {})
    with pytest.raises(RuntimeError, match=r"keys that are no field \['new_key'\]"):
        TemplateContext.of({**returned, "new_key": 1})
    with pytest.raises(RuntimeError, match=r"did not return \['head_length'\]"):
        TemplateContext.of({key: value for key, value in returned.items() if key != "head_length"})


def test_the_record_reads_by_field_and_by_key_alike():
    resolved, _ = made({"segments": ["market"], "measures": ["AP"], "ties": "item-desc"}, True, {})
    record = context.render(resolved, '"run"', '"qrels"').context
    assert record.segment_cols == record["segment_cols"] == ['"market"']
    assert [m["name_sql"] for m in record.measures] == ["'AP'"]
    with pytest.raises(KeyError):
        record["no_such_key"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.head_length = 3  # type: ignore[misc]


@pytest.mark.parametrize("options, judged", OPTION_SETS)
def test_the_resolved_options_are_what_python_reads_of_them(options, judged):
    resolved, _ = made(options, judged, {})
    read = {f.name for f in dataclasses.fields(Options)} | set(context.READ_BESIDE_OPTIONS)
    assert sorted(resolved.decided["options"]) == sorted(read)


def test_labels_reach_the_macros_by_name():
    """Seen.labels was a triple read as labels[0], labels[2] in Jinja; now {'lowest', 'highest', 'not_whole'}:
    labels 0..4 (whole) count the ideal per label, 4, 3, 2, 1; one fractional label stops that."""
    resolved, whole = made({}, False, {"longest_list": 30, "labels": context.LabelRange(0, 4, 0)})
    assert [entry["label"] for entry in whole["ideal_labels"]] == ["4.0", "3.0", "2.0", "1.0"]
    _, fractional = made({}, False, {"longest_list": 30, "labels": (0, 4, 1)})
    assert fractional["ideal_labels"] is None
