{#- Copied from sql/options/parse_measures.sql by `python -m tools.dbt_gen`: do not edit. -#}
{#- Measure names in ir_measures notation (the grammar: ndcg_sql/measures.py, through
    ndcg_sql._measure_grammar()): a list of names, or one text separated by commas or spaces
    outside parentheses. Returns [{'family', 'k', 'rel', 'name'}, ...] (name canonical, e.g.
    P(rel=2)@5), duplicates dropped, order kept. Option errors name the bad name. -#}
{% macro _parse_measures(names) -%}
  {%- set grammar = ndcg_sql._measure_grammar() -%}
  {%- set fail = ndcg_sql._option_error -%}
  {%- if names is string -%}
    {%- set names = modules.re.split('[\\s,]+(?![^(]*\\))', names) | reject('equalto', '') | list -%}
  {%- elif names is mapping or names is not iterable -%}
    {%- set names = [names] -%}
  {%- endif -%}
  {%- set parsed = [] -%}
  {%- set seen = [] -%}
  {%- for text in names -%}
    {%- if text is not string -%}
      {{ fail("a measure is a name like 'nDCG@10' or 'P(rel=2)@5'; got " ~ ndcg_sql._shown(text)) }}
    {%- endif -%}
    {%- set match = modules.re.match(grammar['pattern'], text) -%}
    {%- set family = grammar['aliases'].get(match.group('family') | lower) if match else none -%}
    {%- if family is none -%}
      {{ fail("unknown measure " ~ ndcg_sql._shown(text) ~ "; known: " ~ grammar['aliases'].values() | unique | sort(case_sensitive=true) | join(', ') ~ " (e.g. nDCG@10, P@5, P(rel=2)@5, AP, RR)") }}
    {%- endif -%}
    {%- set k = none -%}
    {%- if match.group('k') is not none -%}
      {%- if not modules.re.fullmatch('[0-9]+', match.group('k')) or match.group('k') | int <= 0 -%}
        {{ fail("measure " ~ ndcg_sql._shown(text) ~ ": the cutoff after @ must be a positive integer") }}
      {%- endif -%}
      {%- set k = match.group('k') | int -%}
    {%- endif -%}
    {%- set rels = [] -%}
    {%- set params = match.group('params') -%}
    {%- if params is not none and params | trim -%}
      {%- for part in params.split(',') -%}
        {%- set pieces = part.split('=', 1) -%}
        {%- if pieces | length != 2 or pieces[0] | trim != 'rel' or not pieces[1] | trim -%}
          {{ fail("measure " ~ ndcg_sql._shown(text) ~ ": the only parameter is rel=<label>, e.g. P(rel=2)@5") }}
        {%- endif -%}
        {%- set value = pieces[1] | trim -%}
        {%- if modules.re.fullmatch('[-+]?(inf|infinity|nan)', value | lower) -%}
          {{ fail("measure " ~ ndcg_sql._shown(text) ~ ": rel must be a finite number") }}
        {%- elif not modules.re.fullmatch('[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?', value) -%}
          {{ fail("measure " ~ ndcg_sql._shown(text) ~ ": rel must be a number; got " ~ ndcg_sql._shown(value)) }}
        {%- endif -%}
        {%- do rels.append(value | float) -%}
      {%- endfor -%}
    {%- endif -%}
    {%- set rel = rels[-1] if rels else none -%}
    {%- if rel is not none and family in grammar['graded'] -%}
      {{ fail("measure " ~ ndcg_sql._shown(text) ~ ": " ~ family ~ " uses the gain option, not a relevance threshold") }}
    {%- endif -%}
    {%- if rel is not none and family in grammar['no_threshold'] -%}
      {{ fail("measure " ~ ndcg_sql._shown(text) ~ ": " ~ family ~ " has no relevance threshold") }}
    {%- endif -%}
    {%- if k is none and family in grammar['need_cutoff'] -%}
      {{ fail("measure " ~ ndcg_sql._shown(text) ~ " needs a cutoff, e.g. " ~ family ~ "@10") }}
    {%- endif -%}
    {%- set name = family -%}
    {%- if rel is not none and rel != 1 -%}
      {%- set name = name ~ '(rel=' ~ ((rel | int) if rel == (rel | int) else rel) ~ ')' -%}
    {%- endif -%}
    {%- if k is not none %}{% set name = name ~ '@' ~ k %}{% endif -%}
    {%- if name not in seen -%}
      {%- do seen.append(name) -%}
      {%- do parsed.append({'family': family, 'k': k, 'rel': rel, 'name': name}) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- if not parsed -%}{{ fail("at least one measure is needed") }}{%- endif -%}
  {{ return(parsed) }}
{%- endmacro %}
