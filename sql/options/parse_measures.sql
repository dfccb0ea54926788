{#- Measure names in ir_measures notation (the grammar: ndcg_sql/vocabulary/measures.py, through
    ndcg_sql._measure_grammar()): a list of names, or one text separated by commas or spaces
    outside parentheses. Returns [{'family', 'k', 'rel', 'p', 'recall', 'name'}, ...] (name canonical,
    e.g. P(rel=2)@5, RBP(rel=2,p=0.9), IPrec@0.5; p, RBP's persistence, none for other families;
    recall, the level after IPrec's @, none for other families, whose @ is a cutoff k or absent), duplicates
    dropped, order kept. Option errors name the bad name. -#}
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
    {%- set k, recall = none, none -%}
    {%- if match.group('k') is not none and family in grammar['no_at'] -%}
      {{ fail("measure " ~ ndcg_sql._shown(text) ~ ": " ~ family ~ " takes no cutoff (trec_eval has none); write " ~ family) }}
    {%- elif match.group('k') is not none and family in grammar['at_recall'] -%}
      {%- if not modules.re.fullmatch('([0-9]+[.]?[0-9]*|[.][0-9]+)', match.group('k')) or not 0 <= match.group('k') | float <= 1 -%}
        {{ fail("measure " ~ ndcg_sql._shown(text) ~ ": the recall level after @ must be a number from 0 to 1, e.g. " ~ family ~ "@0.5") }}
      {%- endif -%}
      {%- set recall = match.group('k') | float -%}
    {%- elif match.group('k') is not none -%}
      {%- if not modules.re.fullmatch('[0-9]+', match.group('k')) or match.group('k') | int <= 0 -%}
        {{ fail("measure " ~ ndcg_sql._shown(text) ~ ": the cutoff after @ must be a positive integer") }}
      {%- elif match.group('k') | int > ndcg_sql._option_table()['max_cutoff'] -%}
        {{ fail("measure " ~ ndcg_sql._shown(text) ~ ": the cutoff after @ must be at most " ~ ndcg_sql._option_table()['max_cutoff'] ~ " (the largest 64-bit integer)") }}
      {%- endif -%}
      {%- set k = match.group('k') | int -%}
    {%- endif -%}
    {%- set rels, persistences = [], [] -%}
    {%- set takes_p = family in grammar['persistence'] -%}
    {%- set params = match.group('params') -%}
    {%- if params is not none and params | trim -%}
      {%- for part in params.split(',') -%}
        {%- set pieces = part.split('=', 1) -%}
        {%- set key = pieces[0] | trim -%}
        {%- if pieces | length != 2 or key not in (['rel', 'p'] if takes_p else ['rel']) or not pieces[1] | trim -%}
          {%- if takes_p -%}
            {{ fail("measure " ~ ndcg_sql._shown(text) ~ ": the parameters are rel=<label> and p=<persistence, between 0 and 1>, e.g. " ~ family ~ "(rel=2,p=0.9)") }}
          {%- else -%}
            {{ fail("measure " ~ ndcg_sql._shown(text) ~ ": the only parameter is rel=<label>, e.g. P(rel=2)@5") }}
          {%- endif -%}
        {%- endif -%}
        {%- set value = pieces[1] | trim -%}
        {%- if modules.re.fullmatch('[-+]?(inf|infinity|nan)', value | lower) -%}
          {{ fail("measure " ~ ndcg_sql._shown(text) ~ ": " ~ key ~ " must be a finite number") }}
        {%- elif not modules.re.fullmatch('[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?', value) -%}
          {{ fail("measure " ~ ndcg_sql._shown(text) ~ ": " ~ key ~ " must be a number; got " ~ ndcg_sql._shown(value)) }}
        {%- endif -%}
        {%- do (persistences if key == 'p' else rels).append(value | float) -%}
      {%- endfor -%}
    {%- endif -%}
    {%- set rel = rels[-1] if rels else none -%}
    {%- set p = none -%}
    {%- if takes_p -%}
      {%- set p = persistences[-1] if persistences else grammar['default_p'] -%}
      {%- if not 0 < p < 1 -%}
        {{ fail("measure " ~ ndcg_sql._shown(text) ~ ": p (the persistence) must be between 0 and 1, both excluded; got " ~ p) }}
      {%- endif -%}
    {%- endif -%}
    {%- if rel is not none and family in grammar['graded'] -%}
      {{ fail("measure " ~ ndcg_sql._shown(text) ~ ": " ~ family ~ " uses the gain option, not a relevance threshold") }}
    {%- endif -%}
    {%- if rel is not none and family in grammar['no_threshold'] -%}
      {{ fail("measure " ~ ndcg_sql._shown(text) ~ ": " ~ family ~ " has no relevance threshold") }}
    {%- endif -%}
    {%- if k is none and recall is none and family in grammar['need_cutoff'] -%}
      {%- if family in grammar['at_recall'] -%}
        {{ fail("measure " ~ ndcg_sql._shown(text) ~ " needs a recall level, e.g. " ~ family ~ "@0.5") }}
      {%- endif -%}
      {{ fail("measure " ~ ndcg_sql._shown(text) ~ " needs a cutoff, e.g. " ~ family ~ "@10") }}
    {%- endif -%}
    {%- set shown_params = [] -%}
    {%- if rel is not none and rel != 1 -%}
      {%- do shown_params.append('rel=' ~ ((rel | int) if rel == (rel | int) else rel)) -%}
    {%- endif -%}
    {%- if p is not none and p != grammar['default_p'] -%}
      {%- do shown_params.append('p=' ~ p) -%}
    {%- endif -%}
    {%- set name = family ~ (('(' ~ shown_params | join(',') ~ ')') if shown_params else '') -%}
    {%- if k is not none %}{% set name = name ~ '@' ~ k %}{% endif -%}
    {#- a recall level written as ir_measures writes it, a float: IPrec@1.0, IPrec@0.5 -#}
    {%- if recall is not none %}{% set name = name ~ '@' ~ recall %}{% endif -%}
    {%- if name not in seen -%}
      {%- do seen.append(name) -%}
      {%- do parsed.append({'family': family, 'k': k, 'rel': rel, 'p': p, 'recall': recall, 'name': name}) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- if not parsed -%}{{ fail("at least one measure is needed") }}{%- endif -%}
  {{ return(parsed) }}
{%- endmacro %}

{#- The measures a paired or two-sample test reads (compare, compare_runs, the regression gates):
    the parsed names, each with 'geometric': true for a measure whose summary is a geometric mean
    (gm_map). Its per-query values are logarithms (ln(max(AP, 1e-5))), so its tests are the tests of
    those logarithms, and its runs differ by a ratio, exp of the mean difference of the logarithms
    (with its interval's ends exponentiated), where the other measures' differ by a difference. -#}
{% macro _compared_measures(names) -%}
  {%- set parsed = ndcg_sql._parse_measures(names) -%}
  {%- set out = [] -%}
  {%- for m in parsed -%}
    {%- set one = {} -%}
    {%- do one.update(m) -%}
    {%- do one.update({'geometric': m['family'] in ndcg_sql._measure_grammar()['geometric']}) -%}
    {%- do out.append(one) -%}
  {%- endfor -%}
  {{ return(out) }}
{%- endmacro %}
