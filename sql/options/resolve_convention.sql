{#- The options a peer convention sets (ndcg_sql/vocabulary/conventions.py, through
    ndcg_sql._convention_table()): `given` (option -> normalised value) with the
    convention's values filled in, and 'convention' (its canonical name). A given value
    other than the default that contradicts the convention, an unknown convention, or
    judgments with a convention whose ideal ranking is the list are option errors. -#}
{% macro _resolve_convention(convention, given, judged) -%}
  {%- if convention is none -%}{{ return(given) }}{%- endif -%}
  {%- set found = ndcg_sql._convention_preset(convention) -%}
  {%- set name, preset = found['name'], found['preset'] -%}
  {%- if judged and not preset.get('judgments_allowed', true) -%}
    {{ ndcg_sql._option_error("convention '" ~ name ~ "' takes the ideal ranking from the list itself; give labels, the ranking's own label_col" ~ ndcg_sql._flag('label_col') ~ ", not judgments" ~ ndcg_sql._flag('judgments')) }}
  {%- endif -%}
  {%- set out = given.copy() -%}
  {%- set defaults = ndcg_sql._option_table()['defaults'] -%}
  {#- only the options: the other keys (judgments_allowed, no_relevant_weight, label_reading, ids, peer, peer_measures, weights) say how the input is read, the mean taken, or what the convention combines with -#}
  {%- for option, value in preset.items() if option in defaults -%}
    {%- set mine = given[option] -%}
    {%- if mine != defaults[option] and mine != value -%}
      {{ ndcg_sql._option_error("convention '" ~ name ~ "' sets " ~ option ~ "=" ~ ndcg_sql._shown(value) ~ "; got " ~ option ~ "=" ~ ndcg_sql._shown(mine)) }}
    {%- endif -%}
    {%- do out.update({option: value}) -%}
  {%- endfor -%}
  {%- do out.update({'convention': name}) -%}
  {{ return(out) }}
{%- endmacro %}

{#- A convention as given (any case, '_' or '-', an alias) -> {'name': its canonical name,
    'preset': its entry of ndcg_sql/vocabulary/conventions.py}, or none for none; an unknown convention is
    an option error. -#}
{% macro _convention_preset(convention) -%}
  {%- if convention is none -%}{{ return(none) }}{%- endif -%}
  {%- set table = ndcg_sql._convention_table() -%}
  {%- set key = convention | string | lower | replace('_', '-') | replace('trec-eval', 'trec_eval') -%}
  {%- set name = table['aliases'].get(key, key) -%}
  {%- if name not in table['conventions'] -%}
    {{ ndcg_sql._option_error("convention must be one of " ~ table['conventions'].keys() | join(', ') ~ "; got " ~ ndcg_sql._shown(convention)) }}
  {%- endif -%}
  {{ return({'name': name, 'preset': table['conventions'][name]}) }}
{%- endmacro %}

{#- What a convention can be combined with, beyond the options it sets (ndcg_sql/vocabulary/conventions.py):
    query weights only when its tool weights queries (weights=false: trec_eval), and measures only
    of the families its tool computes the same way (its 'peer_measures'); anything else would print a
    number the tool never gives, so it is an option error. Returns the convention's
    {'name', 'preset'} (none without a convention).
      convention  the convention as given (or none)
      weighted    query weights are given (weight_col, or dbt's weighted=true)
      measures    the parsed measures, or none (NDCG@k rows) -#}
{% macro _convention_scope(convention, weighted, measures) -%}
  {%- set found = ndcg_sql._convention_preset(convention) -%}
  {%- if found is none -%}{{ return(none) }}{%- endif -%}
  {%- set name, preset = found['name'], found['preset'] -%}
  {%- if weighted and not preset.get('weights', true) -%}
    {{ ndcg_sql._option_error("convention '" ~ name ~ "' has no query weights: " ~ preset['peer'] ~ " does not weight queries; drop "
       ~ ndcg_sql._spelled('weight_col') ~ " or the convention") }}
  {%- endif -%}
  {%- set foreign, why = [], [] -%}
  {#- a measure the tool does not compute, or (thresholds=false) one with a relevance threshold it has not,
      or (min_rel) one with a threshold below the tool's lowest relevance level (pytrec_eval refuses 0);
      the last two say so, since the family's name is in the tool's list -#}
  {%- for m in measures or [] -%}
    {%- set no_threshold = not preset.get('thresholds', true) and m['rel'] is not none and m['rel'] != 1 -%}
    {%- set below = preset.get('min_rel') is not none and m['rel'] is not none and m['rel'] < preset['min_rel'] -%}
    {%- if m['family'] not in preset['peer_measures'] or no_threshold or below -%}
      {%- do foreign.append(m['name']) -%}
    {%- endif -%}
    {%- if m['family'] in preset['peer_measures'] and no_threshold -%}
      {%- do why.append(m['name'] ~ ": " ~ preset['peer'] ~ " has no relevance threshold (rel=)") -%}
    {%- elif m['family'] in preset['peer_measures'] and below -%}
      {%- do why.append(m['name'] ~ ": " ~ preset['peer'] ~ " takes relevance levels of " ~ preset['min_rel'] ~ " or more only") -%}
    {%- endif -%}
  {%- endfor -%}
  {%- if foreign -%}
    {#- every option the convention sets, with its value: what to give instead of the convention (ties='input-order'
        with the row_col it needs, sql/options/ndcg_context.sql) -#}
    {%- set sets = [] -%}
    {%- for key, value in preset.items() if key in ndcg_sql._option_table()['defaults'] -%}
      {%- do sets.append(key ~ '=' ~ ndcg_sql._shown(value) ~ ndcg_sql._flag(key, value | string)
                         ~ (ndcg_sql._row_col_needed() if key == 'ties' and value == 'input-order' else '')) -%}
    {%- endfor -%}
    {{ ndcg_sql._option_error("convention '" ~ name ~ "' reproduces " ~ preset['peer'] ~ "'s measures only ("
       ~ preset['peer_measures'] | join(', ') ~ "), not " ~ foreign | join(', ')
       ~ (" (" ~ why | join('; ') ~ ")" if why else "")
       ~ ": drop the convention and give the options it sets: " ~ sets | join(', ')) }}
  {%- endif -%}
  {{ return(found) }}
{%- endmacro %}

{#- What a suggestion of ties='input-order' adds: the row_col it needs (refused without it:
    sql/options/ndcg_context.sql), so that following the suggestion works. -#}
{% macro _row_col_needed() -%}
  {{ return(" with " ~ ndcg_sql._spelled('row_col') ~ " naming the column of input row positions") }}
{%- endmacro %}
