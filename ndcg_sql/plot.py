"""``ndcg-sql plot``: mean NDCG@k against k for one or more runs, as a PNG.

Needs matplotlib (``pip install 'ndcg_sql[plot]'``). The means come from
:func:`ndcg_sql.evaluate`; the optional band is a percentile bootstrap
interval computed in SQL (``evaluate(bootstrap=N, seed=S)``,
``sql/bootstrap_intervals.sql.j2``), fixed by a seed.
"""

from __future__ import annotations

import textwrap
from typing import Mapping, Sequence

from . import activity, writing
from .api import evaluate
from .errors import MissingDependency, OptionError

#: The box plots' own colours, none of which is a run's line colour (matplotlib's cycle):
#: the median line and the mean marker, explained on the panel.
MEDIAN_COLOUR = "black"
MEAN_MARKER = dict(marker="^", markerfacecolor="white", markeredgecolor="black", markersize=7)
#: Characters of a title line: a longer label expression is wrapped onto more lines, never cut.
TITLE_WIDTH = 90


def ticks(cutoffs: Sequence[int]) -> list[int]:
    """The k axis ticks: every cutoff when there are few, else the first (k = 1 by default)
    and every multiple of a step giving about ten ticks."""
    if len(cutoffs) <= 12:
        return sorted(cutoffs)
    step = max(1, round(max(cutoffs) / 10))
    return sorted({min(cutoffs), *(c for c in cutoffs if c % step == 0)})


def plot(
    runs: Mapping[str, object] | Sequence[object],
    output: str,
    k: Sequence[int] = tuple(range(1, 21)),
    *,
    bootstrap: int = 0,
    seed: int = 0,
    distribution: int | None = None,
    title: str | None = None,
    **options,
) -> dict:
    """Write a PNG of mean NDCG@k against k, one line per run (with ``segments``, per run and
    segment values).

    Args:
        runs: {label: ranking} or a list of rankings (labelled by position,
            or by path when given as strings); each as :func:`ndcg_sql.evaluate` takes.
        output: the PNG path; an existing file is replaced (atomically: :func:`ndcg_sql.writing.atomic`),
            never one of the runs or the judgments.
        k: the cutoffs on the x axis (positive integers).
        bootstrap: with N > 0, a shaded 95% percentile bootstrap band from N
            resamples of the queries (fixed by ``seed``).
        distribution: with a cutoff d, a second panel shows the per-query
            NDCG@d of each run (box plot in the run's colour: quartiles, the
            median as a black line, whiskers at 1.5 IQR, the mean as a white
            triangle; the panel's title says so); d must be among ``k``.
        title: the plot title (default: the options used).
        **options: passed to :func:`ndcg_sql.evaluate` (judgments, gain, weight_col, segments, con, ...);
            with weight_col the lines are weighted means (the title says so; not with bootstrap);
            with segments each run draws one line per segment values, labelled "arm=bm25" (with
            several runs after the run's label: "bm25.txt arm=bm25"), and the distribution panel
            one box per line. The title gives the whole label expression, wrapped.

    The y axis runs from 0 to 1, the whole range of NDCG, so that the heights of two runs
    compare as ratios; the k axis labels k = 1 (the first cutoff) and about ten others.

    Returns:
        {line label: [{"k", "ndcg", "low", "high"}, ...]} -- the plotted numbers (the run's label,
        or with segments the line's).

    Raises:
        MissingDependency: matplotlib is not installed (an ImportError naming the extra).
        OptionError: no run, a k that is not a positive integer, ``output`` is one of the inputs.
        OSError: ``output`` cannot be written (the message names it and the cause).
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise MissingDependency("plot needs matplotlib: pip install 'ndcg_sql[plot]'") from None
    if not isinstance(runs, Mapping):
        runs = {(run if isinstance(run, str) else f"run {i + 1}"): run for i, run in enumerate(runs)}
    if not runs:
        raise OptionError("plot needs at least one run")
    cutoffs = list(k)
    if not cutoffs or any(isinstance(c, bool) or not isinstance(c, int) or c <= 0 for c in cutoffs):
        raise OptionError(f"plot needs positive integer cutoffs; got {cutoffs!r}")
    if distribution is not None and distribution not in cutoffs:
        raise OptionError(f"the distribution cutoff {distribution!r} must be one of the plotted k")
    writing.refuse_inputs({"output": output}, [*runs.values(), options.get("judgments")])
    plotted = {}
    spread = {}
    if distribution is None:
        figure, axes = plt.subplots(figsize=(7, 4.5))
    else:
        figure, (axes, box_axes) = plt.subplots(1, 2, figsize=(11, 4.5), gridspec_kw={"width_ratios": [3, 2]})
    colours = {}
    for label, run in runs.items():
        with activity.doing(options.get("con"), f"run {label}"):
            result = evaluate(run, k=cutoffs, bootstrap=bootstrap, seed=seed, **options)
        with result:  # its temp tables go once read
            lines = _lines(result, label, distribution, alone=len(runs) == 1)
        for name, (points, values) in lines.items():
            plotted[name] = points
            if distribution is not None:
                spread[name] = values
            xs = [p["k"] for p in points]
            line, = axes.plot(xs, [p["ndcg"] for p in points], marker="o", markersize=3, label=str(name))
            colours[name] = line.get_color()
            if bootstrap:
                axes.fill_between(xs, [p["low"] for p in points], [p["high"] for p in points],
                                  color=line.get_color(), alpha=0.2, linewidth=0)
        options_used = result.options
    axes.set_xticks(ticks(cutoffs))
    axes.set_ylim(0.0, 1.02)  # NDCG lies in [0, 1]; a little room for points at 1
    axes.set_xlabel("k")
    axes.set_ylabel("mean NDCG@k")
    gain = options_used["gain"] if isinstance(options_used["gain"], str) else "mapping"
    label_used = options_used.get("label")
    weighted = f" weighted by {options_used['weight_col']}" if options_used.get("weight_col") else ""
    axes.set_title(title or f"gain={gain} ties={options_used['ties']} ideal={options_used['ideal']}{weighted}"
                   + ("".join("\n" + line for line in textwrap.wrap(f"label: {label_used}", TITLE_WIDTH))
                      if label_used else "")
                   + (f"\nbands: 95% bootstrap, {bootstrap} resamples, seed {seed}" if bootstrap else ""), fontsize=9)
    axes.grid(True, alpha=0.3)
    axes.legend()
    if distribution is not None:
        boxes = box_axes.boxplot(list(spread.values()), showmeans=True, patch_artist=True, meanprops=MEAN_MARKER,
                                 medianprops=dict(color=MEDIAN_COLOUR), flierprops=dict(markersize=3))
        for box, label in zip(boxes["boxes"], spread):
            box.set_facecolor(colours[label])
            box.set_alpha(0.45)
        box_axes.set_xticks(range(1, len(spread) + 1), [str(label) for label in spread], rotation=15, fontsize=8)
        box_axes.set_ylabel(f"per-query NDCG@{distribution}")
        box_axes.set_ylim(0.0, 1.02)
        box_axes.set_title("box: quartiles, black line: median, whiskers: 1.5 IQR,\n"
                           "white triangle: mean (the line's value at k = " + f"{distribution})", fontsize=8)
        box_axes.grid(True, axis="y", alpha=0.3)
    figure.tight_layout()
    try:
        with writing.atomic(output, binary=True) as handle:
            figure.savefig(handle, format="png", dpi=120)
    finally:
        plt.close(figure)
    return plotted


def _lines(result, run_label, distribution: int | None, alone: bool) -> dict:
    """{line label: (points, per-query NDCG@distribution)} of one run's result: one line, or with
    segments one per segment values, labelled "arm=bm25" (after the run's label unless it is alone)."""
    segments = result.options.get("segments") or []

    def key(row: dict) -> tuple:
        return tuple(row[s] for s in segments)

    lines: dict[tuple, tuple[list, list]] = {}
    for r in result.summary_records():
        lines.setdefault(key(r), ([], []))[0].append(
            {"k": r["k"], "ndcg": r["ndcg"], "low": r.get("bootstrap_low"), "high": r.get("bootstrap_high")})
    if distribution is not None:
        for r in result.per_query_records():
            if r["k"] == distribution and r["ndcg"] is not None and key(r) in lines:
                lines[key(r)][1].append(r["ndcg"])
    if not segments:
        return {run_label: line for line in lines.values()}
    named = {}
    for values, line in lines.items():
        text = " ".join(f"{s}={'NULL' if v is None else v}" for s, v in zip(segments, values))
        named[text if alone else f"{run_label} {text}"] = line
    return named
