"""Print the import graph of the ndcg_sql package, lowest layer first; exit 1 on a cycle.

Run from the repository root: python3 docs/layers.py
"""

import ast
import pathlib
import sys

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "ndcg_sql"
imports = {}
for path in sorted(PACKAGE.glob("*.py")):
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found |= {node.module.split(".")[0]} if node.module else {alias.name for alias in node.names}
    imports[path.stem] = found & {p.stem for p in PACKAGE.glob("*.py")}

order, state = [], {}


def visit(module, path=()):
    if state.get(module) == "done":
        return
    if state.get(module) == "open":
        sys.exit("import cycle: " + " -> ".join(path + (module,)))
    state[module] = "open"
    for dependency in sorted(imports[module]):
        visit(dependency, path + (module,))
    state[module] = "done"
    order.append(module)


for module in sorted(imports):
    visit(module)
for module in order:
    print(f"{module:12} <- {', '.join(sorted(imports[module])) or '(nothing of the package)'}")
