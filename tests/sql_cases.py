"""Every option combination of the metric SQL, for the portable-subset lint and the golden files."""

from __future__ import annotations

import itertools

from ndcg_sql.vocabulary import parameters

STATEMENTS = ("per_query", "summary", "coverage", "checks")


def all_combinations():
    """(name, to_sql keyword arguments): every combination of the options that shape the SQL
    (judgments, rank or score, gain, ties, missing queries); the options that only change a
    literal (no_relevant, the k list, item_type) are cycled through so each value appears."""
    axes = dict(
        judged=(False, True),
        rank=(False, True),
        gain=("exponential", "linear", "mapping"),
        ties=("average", "item-asc", "item-desc"),
        missing_queries=("ignore", "zero"),
    )
    no_relevant = ("zero", "skip", "one")
    cutoffs = ([1, 3, 10, None], [None], [5])
    index = 0
    for values in itertools.product(*axes.values()):
        o = dict(zip(axes, values))
        if not o["judged"] and o["missing_queries"] == "zero":
            continue
        args = dict(
            table="db.sch.runs",
            judgments_table="db.sch.qrels" if o["judged"] else None,
            gain={0: 0, 1: 1.5, 2: 3} if o["gain"] == "mapping" else o["gain"],
            ties=o["ties"], missing_queries=o["missing_queries"],
            no_relevant=no_relevant[index % 3], k=cutoffs[index % 3],
            item_type=parameters.ITEM_TYPES[index % 2],
        )
        if (index // 2) % 2:  # the other discount, with another base (only an expression changes)
            args.update(discount="jarvelin", log_base=2.5)
        if o["rank"]:
            args["rank_col"] = "position"
        index += 1
        yield "-".join(str(v) for v in values) + f"-{args['no_relevant']}-{args['item_type']}", args


#: A few representative cases kept as golden SQL files per dialect.
GOLDEN = {
    "list-default": dict(table="runs"),
    "list-item-asc-mapping-skip": dict(
        table="db.sch.runs", ties="item-asc", gain={0: 0, 1: 1, 2: 3, 3: 7}, no_relevant="skip", k=[5, 10]
    ),
    "judgments-trec": dict(
        table="proj.ds.runs", judgments_table="proj.ds.qrels", ties="item-desc", gain="linear",
        missing_queries="zero", k=[10, None], rank_col="rank",
    ),
    "discount-jarvelin": dict(table="runs", discount="jarvelin", log_base=3, k=[2, 10]),
    "measures-beyond": dict(table="runs", judgments_table="qrels", ties="item-desc",
                            measures=["Judged@10", "P@5", "RBP(rel=2,p=0.9)", "RBPResidual@10", "ERR@10"]),
    "condensed-judgments": dict(table="runs", judgments_table="qrels", unjudged="condense", ties="item-desc", gain="linear",
                                k=[10, None]),
    "weighted-measures": dict(table="runs", weight_col="traffic", ties="item-asc", measures=["nDCG@10", "Success@1"]),
    # one measure of each range of values, so the summary shows each interval method
    "measures-intervals": dict(table="runs", ties="item-desc", measures=["Success@10", "nDCG@10", "DCG@5"]),
}
#: The statements other than per_query kept for a case: the summary and the counts wrap the
#: same per-query SQL, so one case shows them (and the measures case its intervals).
GOLDEN_OTHER_STATEMENTS = {"judgments-trec": ("summary", "coverage", "checks"), "measures-intervals": ("summary",),
                           "measures-beyond": ("summary",), "weighted-measures": ("summary", "checks")}
