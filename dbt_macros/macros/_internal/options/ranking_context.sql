{#- Copied from sql/options/ranking_context.sql by `python -m tools.dbt_gen`: do not edit. -#}
{#- The templates' context, from the options resolved by _resolve_options (decided), the
    relations and what the data shows (hints; see _ndcg_context): no option is checked here. Quoted column names, the item-id tie-break expression, the cutoffs, and what lets the SQL
    skip work when the Python runner knows the data (hints; dbt compiles before reading any):

      head_length   top positions summed column-wise (sql/dcg_at_cutoffs.sql.j2): the longest
                    list when it is known and at most head_length.max; else, with numeric cutoffs
                    only, the largest (no position past it is read), at most head_length.max and
                    the longest list; else the largest finite cutoff, at least head_length.default
                    and at most head_length.max
      tail_cutoffs  cutoffs past the head (none when every list fits in it)
      ideal_labels  labels with a positive gain, by gain descending, when few and known (the
                    ideal ranking is then counted per label, not sorted): from a gain mapping,
                    or the whole labels between the lowest and highest found in the data
      exact_gains   ties='average' and every gain a whole number whose list sums stay below
                    2^53: every sum of gains is exact, so a tie group's mean needs no item order
      top_items     the engine has a top-N aggregate, exact_gains, every cutoff a number, and a
                    list longer than the largest (then the head): only each query's top tie groups
                    are ranked
      tail_sums     tail_cutoffs, exact_gains, ideal_labels known and the engine's lists indexed by
                    position: the run's DCG past the head is an exact (decimal) conditional sum in
                    its per-query group-by, and the ideal's is read from one prefix table of the
                    discount per label, built for positions 0..positions (the longest list; at most
                    max_prefix_entries entries in all): one sort in all, none for the ideal ranking
                    and none for running sums
    None of these changes a number but tail_sums, which moves the last digits of DCG past the head
    (exact sums for running sums in double: docs/performance.md). And id_forms: how each id column is read (the rule of
    sql/options/id_forms.sql), from hints['id_forms'] (the forms the Python runner chose from the
    types it inspected) or hints['id_types'] (the columns' types as the engine writes them, by
    'query', 'item', 'judgments_query', 'judgments_item': to_sql's id_types=, the types dbt's
    adapter read); empty: as stored; and whole_labels: labels count with their whole part
    (trec_eval's atol). hints['item_type'] and hints['segmented_judgments'], when given, stand for
    the options of those names (the Python runners learn them from the data). -#}
{% macro _ranking_context(decided, relation, judgments, hints) -%}
  {%- set table = ndcg_sql._option_table() -%}
  {%- set resolved = decided['options'] -%}
  {%- set judged = resolved['judgments'] -%}
  {%- set hints = hints or {} -%}
  {%- set longest = hints.get('longest_list') -%}
  {%- set labels = hints.get('labels') -%}
  {%- set cutoffs = [] -%}
  {%- for value in resolved['cutoffs'] -%}{%- do cutoffs.append({'id': loop.index, 'k': value}) -%}{%- endfor -%}

  {%- set finite = resolved['cutoffs'] | reject('none') | list -%}
  {%- if longest is not none and longest <= table['head_length']['max'] -%}
    {%- set head = [1, longest] | max -%}
  {%- elif finite and none not in resolved['cutoffs'] -%}
    {#- numeric cutoffs only: no position past the largest is read -#}
    {%- set head = [table['head_length']['max'], finite | max] | min -%}
    {%- if longest is not none -%}{%- set head = [head, longest] | min -%}{%- endif -%}
  {%- else -%}
    {%- set head = [table['head_length']['max'], ([table['head_length']['default']] + finite) | max] | min -%}
  {%- endif -%}
  {%- set tail_cutoffs = [] -%}
  {%- for cutoff in cutoffs if (longest is none or longest > head) and (cutoff['k'] is none or cutoff['k'] > head) -%}
    {%- do tail_cutoffs.append(cutoff) -%}
  {%- endfor -%}

  {%- set ideal_labels = none -%}
  {%- set known = labels is not none and labels['lowest'] is not none and not labels['not_whole'] -%}
  {%- if resolved['gain'] == 'mapping' -%}
    {%- set positive = resolved['gain_mapping'] | selectattr('1', 'gt', 0) | sort(attribute='1', reverse=true) | list -%}
    {%- if positive | length <= table['max_counted_labels'] -%}
      {%- set ideal_labels = [] -%}
      {%- for pair in positive -%}{%- do ideal_labels.append({'label': pair[0] | string}) -%}{%- endfor -%}
    {%- endif -%}
  {%- elif known and (labels['highest'] | int) - (labels['lowest'] | int) < table['max_counted_labels'] -%}
    {%- set ideal_labels = [] -%}
    {%- for label in range(labels['highest'] | int, (labels['lowest'] | int) - 1, -1) if label > 0 -%}
      {%- do ideal_labels.append({'label': label | float | string}) -%}
    {%- endfor -%}
  {%- endif -%}

  {%- set largest = none -%}
  {%- if resolved['gain'] == 'mapping' -%}
    {%- set gains = resolved['gain_mapping'] | map(attribute='1') | list -%}
    {%- set fractional = [] -%}
    {%- for g in gains if g != (g | int) -%}{%- do fractional.append(g) -%}{%- endfor -%}
    {%- if not fractional -%}{%- set largest = gains | map('abs') | max -%}{%- endif -%}
  {%- elif known -%}
    {%- set lowest, highest = labels['lowest'] | float, labels['highest'] | float -%}
    {%- if resolved['negative_labels'] in ('zero', 'unjudged') -%}
      {%- set lowest, highest = [lowest, 0.0] | max, [highest, 0.0] | max -%}
    {%- endif -%}
    {%- if resolved['gain'] == 'linear' -%}
      {%- set largest = [lowest | abs, highest | abs] | max -%}
    {%- elif lowest >= 0 and highest <= 52 -%}
      {%- set largest = 2.0 ** highest -%}
    {%- endif -%}
  {%- endif -%}
  {%- set exact_gains = resolved['ties'] == 'average' and longest is not none and largest is not none
                        and ([1, longest] | max) * largest <= table['exact_whole'] -%}
  {#- the top positions found by the engine's top-N aggregate (sql/top_items.sql.j2): every cutoff a
      number, a list longer than the largest, sums of gains exact, and the ranked items those of
      the run (a condensed list ranks only its judged items); the head is then the largest cutoff -#}
  {%- set top_items = ndcg_sql._engine()['top_n'] and exact_gains and finite | length > 0 and none not in resolved['cutoffs']
                      and (finite | max) <= table['head_length']['max'] and longest > (finite | max)
                      and resolved['unjudged'] != 'condense' -%}
  {%- if top_items -%}
    {%- set head, tail_cutoffs = finite | max, [] -%}
  {%- endif -%}
  {#- every term past the head is at most the largest gain times the largest discount (ln(b)/ln(2) < 1025
      for any finite double b) and every list's gains add up to at most 2^53, so each sum fits a
      DECIMAL(38, 18) (below 10^20) -#}
  {%- set tail_sums = ndcg_sql._engine()['position_lists'] and exact_gains and ideal_labels is not none
                      and tail_cutoffs | length > 0
                      and (longest + 1) * ([1, ideal_labels | length] | max) <= table['max_prefix_entries'] -%}

  {#- how the convention reads labels (ndcg_sql/vocabulary/conventions.py): 'atol' counts a label's whole
      part, as trec_eval reads a relevance level -#}
  {%- set reading = ndcg_sql._convention_table()['conventions'].get(resolved['convention'] or '', {}) -%}
  {#- the column names as _resolve_options quoted them; a label expression (Python's label=): SQL
      written by sqlglot from a checked parse, names quoted (ndcg_sql/building/labels.py), takes the label
      column's place. dbt models compute such labels in SQL of their own, so dbt passes none. -#}
  {%- set quoted = decided['names']['quoted'] -%}
  {#- how ids are compared (sql/options/id_forms.sql): the forms the Python runner found, or the
      rule applied to the id columns' types as the engine writes them (to_sql's id_types=, the
      types dbt's adapter read); neither: as stored. Known item ids' type decides the tie-break. -#}
  {%- set names = decided['names']['written'] -%}
  {%- set id_forms, item_type = hints.get('id_forms') or {}, hints.get('item_type') or resolved['item_type'] -%}
  {%- if not id_forms and hints.get('id_types') -%}
    {%- set found = ndcg_sql._id_forms(ndcg_sql._id_sides(hints['id_types'], names, judged),
                                       reading.get('ids') == 'text') -%}
    {%- set id_forms, item_type = found['forms'], found['item_type'] or item_type -%}
  {%- endif -%}
  {%- set byte_order = decided['item_type_matters'] and item_type == 'text' -%}
  {%- set context = {
      'run_relation': relation,
      'judgments_relation': judgments,
      'judgments': judged,
      'query_col': quoted['query_col'],
      'item_col': quoted['item_col'],
      'order_col': quoted['order_col'],
      'label_col': quoted['label_col'],
      'j_query_col': quoted['j_query_col'],
      'j_item_col': quoted['j_item_col'],
      'j_label_col': quoted['j_label_col'],
      'output_query_col': quoted['query_col'],
      'item_order': ndcg_sql.item_byte_order() if byte_order else 'item',
      'input_kind': resolved['input_kind'],
      'gain': resolved['gain'],
      'gain_mapping': resolved['gain_mapping'],
      'discount': resolved['discount'],
      'log_base': resolved['log_base'] | float | string,
      'ties': resolved['ties'],
      'row_col': quoted['row_col'],
      'weight_col': quoted['weight_col'],
      'score_precision': resolved['score_precision'],
      'negative_labels': resolved['negative_labels'],
      'no_relevant': resolved['no_relevant'],
      'missing_queries': resolved['missing_queries'],
      'unjudged': resolved['unjudged'],
      'cutoffs': cutoffs,
      'head_length': head,
      'ideal_labels': ideal_labels,
      'tail_cutoffs': tail_cutoffs,
      'exact_gains': exact_gains,
      'top_items': top_items,
      'tail_sums': tail_sums,
      'positions': longest if tail_sums else none,
      'id_forms': id_forms,
      'whole_labels': reading.get('label_reading') == 'atol',
      'ap_reading': reading.get('ap_reading'),
      'p_reading': reading.get('p_reading')} -%}
  {%- do context.update(decided['context']) -%}
  {%- set segmented = hints['segmented_judgments'] if 'segmented_judgments' in hints else resolved['segmented_judgments'] -%}
  {#- read_input_once: each input table named once per statement (a warehouse's; set by the plan) -#}
  {%- do context.update({'segmented_judgments': (segmented and judged) if resolved['segments'] else false,
                         'read_input_once': false}) -%}
  {{ return(context) }}
{%- endmacro %}
