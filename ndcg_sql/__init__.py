"""ndcg_sql: DCG, IDCG and NDCG@k of logged rankings, computed by SQL where the data lives.

Entry points: :func:`evaluate` (run in DuckDB), :func:`to_sql` (the SQL text),
the ``ndcg-sql`` command line (:mod:`ndcg_sql.cli`).
"""

from .compare import Comparison, compare
from .evaluate import Result, evaluate
from .options import DEFAULT_CUTOFFS, OptionError, Options
from .sql_text import to_sql
from .validation import InputError
from .warehouse import WarehouseResult

__all__ = ["evaluate", "compare", "Comparison", "to_sql", "Result", "WarehouseResult", "Options", "OptionError", "InputError", "DEFAULT_CUTOFFS"]
__version__ = "0.1.0"
