"""The vocabulary: the tables every other layer reads (options, measures, peer conventions, what
differs per SQL engine, quoted names, multiple-testing corrections) and the errors a user meets.
Imports nothing from the rest of the package (docs/architecture.md, "Layers")."""
