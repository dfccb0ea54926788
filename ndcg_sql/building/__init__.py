"""Building SQL: options resolved into the templates' context, the templates rendered, the plan of
statements and the input checks. Runs nothing (docs/architecture.md, "Layers")."""
