"""ndcg_sql: DCG, IDCG and NDCG@k of logged rankings, computed by SQL where the data lives.

Entry points: :func:`evaluate` (run in DuckDB or on a warehouse connection),
:func:`compare` (two runs, paired tests), :func:`compare_runs` (several runs,
corrected for multiple testing, with a table a reader takes in at a glance), :func:`to_sql` (the SQL text), the ``ndcg-sql``
command line (:mod:`ndcg_sql.cli`) and the dbt package in ``dbt_macros/``.
The layers, lowest first: docs/architecture.md.
"""

from .api import evaluate, to_sql
from .comparisons import Comparisons
from .compare import Comparison, compare, compare_runs
from .worklist import Worklist, unjudged
from .vocabulary.errors import InputError, MissingDependency, OpenTransaction, OptionError
from .data.inputs import read_trec
from .vocabulary.parameters import Options
from .vocabulary.parameters import DEFAULT_CUTOFFS, VERSION
from .running.results import Result, WarehouseResult

__all__ = ["evaluate", "compare", "compare_runs", "unjudged", "Worklist", "Comparison", "Comparisons", "to_sql", "read_trec", "Result",
           "WarehouseResult", "Options", "OptionError", "InputError", "OpenTransaction", "MissingDependency",
           "DEFAULT_CUTOFFS"]
__version__ = VERSION
