import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(1, str(ROOT))  # tools/ (the dbt macro generator), not part of the installed package
EXAMPLES = ROOT / "examples"


@pytest.fixture
def examples() -> Path:
    return EXAMPLES


def per_query_map(result, query_col="query_id"):
    """{(qid, k): (cg, dcg, idcg, ndcg)} from a Result."""
    return {
        (row[query_col], row["k"]): (row["cg"], row["dcg"], row["idcg"], row["ndcg"])
        for row in result.per_query_records()
    }
