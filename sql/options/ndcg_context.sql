{#- The one place where options become the SQL templates' context, for every entry point:
    the Python runner, to_sql and the warehouse runner (ndcg_sql/building/context.py renders these macros)
    and the dbt macros (the same file, copied into dbt_macros/macros/_internal/). Two steps:
    _resolve_options checks and resolves the options (once per computation: nothing there
    depends on the data), _ranking_context (sql/options/ranking_context.sql) renders the
    templates' context from the resolved options, the relations and what the data shows.

      options   dict of every option of ndcg_sql/vocabulary/parameters.py METRIC (as given; the Python
                runner replaces label by label_sql, the expression as sqlglot wrote it back
                from a checked parse), plus
                item_type and segmented_judgments, and in dbt judgments_query_col,
                judgments_item_col, judgments_label_col (other names of the judgments' columns)
      relation  the ranking: quoted table name, CTE name or table function (SQL text)
      judgments the judgments' relation (SQL text) or none
      hints     none, or what the Python runner found while checking the data:
                longest_list (most items of a list or judged query) and labels ({'lowest',
                'highest', 'not_whole': how many are not whole numbers} of the labels the
                ideal ranking comes from); they let the SQL skip work, and change no number. And how ids are
                compared: id_forms (the runner's) or id_types (type names; see _ranking_context);
                item_type and segmented_judgments when the data decides them.

    Returns {'options': the resolved options (reported with every result), 'context': the
    templates' context, every key always present: the fields of TemplateContext in
    ndcg_sql/building/context.py (a test fails when they differ)}. Names are quoted by ndcg_sql.quote_identifier, numbers written by
    Jinja from checked numbers; nothing a user wrote is pasted into SQL. An option outside its
    domain or contradicting another raises an option error (dbt: a compiler error). -#}
{% macro _ndcg_context(options, relation, judgments=none, hints=none) -%}
  {%- if relation is none -%}{{ ndcg_sql._option_error("give the ranking relation (a table name, ref(), source() or CTE name)") }}{%- endif -%}
  {%- set decided = ndcg_sql._resolve_options(options, judgments is not none) -%}
  {{ return({'options': decided['options'], 'context': ndcg_sql._ranking_context(decided, relation, judgments, hints)}) }}
{%- endmacro %}

{#- The options of one computation (as _ndcg_context takes them) checked and resolved; judged:
    judgments are given. Returns {'options': the resolved options, 'names': the columns as the
    user named them and as quoted for the templates, 'context': the part of the templates'
    context that only the options decide (the summary's and the measures'), 'item_type_matters':
    whether the item ids' type changes the SQL}. -#}
{% macro _resolve_options(options, judged) -%}
  {%- set fail = ndcg_sql._option_error -%}
  {%- set table = ndcg_sql._option_table() -%}
  {%- set choices = table['choices'] -%}
  {%- if options.get('label_sql') is not none and options['label_col'] != table['defaults']['label_col'] -%}
    {{ fail("give " ~ ndcg_sql._spelled('label') ~ " (an expression) or " ~ ndcg_sql._spelled('label_col') ~ " (a column), not both") }}
  {%- endif -%}
  {%- if options['score_col'] is not none and options['rank_col'] is not none -%}
    {{ fail("give " ~ ndcg_sql._spelled('score_col') ~ " or " ~ ndcg_sql._spelled('rank_col') ~ ", not both") }}
  {%- endif -%}

  {#- the discount's log base: a finite number > 1 (the SQL writes it as Jinja writes a float) -#}
  {%- set log_base = options['log_base'] -%}
  {%- if log_base is string and modules.re.fullmatch('\\s*[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?\\s*', log_base) -%}
    {%- set log_base = log_base | trim | float -%}
  {%- endif -%}
  {%- if log_base is not number or log_base is boolean or not (1.0 < log_base <= 1.7976931348623157e308) -%}
    {{ fail("log_base must be a finite number greater than 1; got " ~ ndcg_sql._shown(options['log_base'])) }}
  {%- endif -%}

  {#- conventions: the options a peer tool decides (ndcg_sql/vocabulary/conventions.py) -#}
  {%- set given = {
      'discount': ndcg_sql._option_choice('discount', options['discount'], choices['discount']),
      'log_base': log_base | float,
      'gain': options['gain'] if options['gain'] is mapping else ndcg_sql._option_choice('gain', options['gain'], table['gains']),
      'ties': ndcg_sql._option_choice('ties', options['ties'], choices['ties']),
      'no_relevant': ndcg_sql._option_choice('no_relevant', options['no_relevant'], choices['no_relevant']),
      'score_precision': ndcg_sql._option_choice('score_precision', options['score_precision'], choices['score_precision']),
      'negative_labels': ndcg_sql._option_choice('negative_labels', options['negative_labels'], choices['negative_labels'])} -%}
  {%- set chosen = ndcg_sql._resolve_convention(options['convention'], given, judged) -%}
  {#- what the convention combines with (query weights, measures), refused before other checks of them -#}
  {%- set scope = ndcg_sql._convention_scope(chosen.get('convention'), options['weight_col'] is not none,
                                             none if options['measures'] is none else ndcg_sql._parse_measures(options['measures'])) -%}
  {#- the measures its tool computes on labels 0 and 1 only (XGBoost's map@k, pre@k): the input checks refuse other labels -#}
  {%- set binary_labels = [] -%}
  {%- if scope is not none and options['measures'] is not none -%}
    {%- for m in ndcg_sql._parse_measures(options['measures']) if m['family'] in scope['preset'].get('binary_labels', []) -%}
      {%- do binary_labels.append(m['name']) -%}
    {%- endfor -%}
  {%- endif -%}
  {#- the measures its tool computes on whole labels only (LightGBM's and XGBoost's ndcg; the NDCG rows
      when no measure is named): the input checks refuse a fractional label -#}
  {%- set integer_labels = [] -%}
  {%- if scope is not none and scope['preset'].get('integer_labels') -%}
    {%- if options['measures'] is none -%}
      {%- do integer_labels.append('nDCG') -%}
    {%- else -%}
      {%- for m in ndcg_sql._parse_measures(options['measures']) if m['family'] in scope['preset']['integer_labels'] -%}
        {%- do integer_labels.append(m['name']) -%}
      {%- endfor -%}
    {%- endif -%}
  {%- endif -%}
  {%- set gain = ndcg_sql._parse_gain(chosen['gain']) -%}
  {%- set ties = chosen['ties'] -%}
  {%- set missing_queries = ndcg_sql._option_choice('missing_queries', options['missing_queries'], choices['missing_queries']) -%}
  {%- set item_type = ndcg_sql._option_choice('item_type', options['item_type'], table['item_types']) -%}
  {%- set unjudged = ndcg_sql._option_choice('unjudged', options['unjudged'], choices['unjudged']) -%}
  {%- if unjudged == 'condense' and not judged -%}
    {{ fail("unjudged='condense'" ~ ndcg_sql._flag('unjudged', 'condense') ~ " needs judgments" ~ ndcg_sql._flag('judgments') ~ ": without them every ranked item has its label") }}
  {%- endif -%}
  {%- if missing_queries == 'zero' and not judged -%}
    {{ fail("missing_queries='zero'" ~ ndcg_sql._flag('missing_queries', 'zero') ~ " needs judgments" ~ ndcg_sql._flag('judgments') ~ ": only judged queries can be missing from the run") }}
  {%- endif -%}

  {#- what the summary and the measures need: cutoffs, measures, segments, intervals -#}
  {%- set summary = ndcg_sql._summary_context({
      'k': options['k'], 'measures': options['measures'], 'segments': options['segments'],
      'intervals': options['intervals'], 'bootstrap': options['bootstrap'], 'seed': options['seed'],
      'sample': options.get('sample'),
      'query_col': options['query_col'], 'ties': ties,
      'relevant_from': scope['preset'].get('relevant_from') if scope is not none else none,
      'max_grade': options.get('max_grade', table['defaults']['max_grade'])}) -%}
  {%- set segmented = options['segmented_judgments'] -%}
  {%- if segmented is not boolean -%}
    {{ fail("segmented_judgments must be true or false; got " ~ ndcg_sql._shown(segmented)) }}
  {%- endif -%}
  {%- if summary['segments'] and judged and missing_queries == 'zero' and not segmented -%}
    {{ fail(ndcg_sql._spelled('segments') ~ " with missing_queries='zero' need judgments per (segment, query) (segmented_judgments=True"
            ~ ndcg_sql._flag('segmented_judgments') ~ ": the judgments carry the segment columns)") }}
  {%- endif -%}

  {#- a sample of the queries (sql/query_sample.sql.j2), drawn from the run's queries -#}
  {%- if summary['sample'] is not none and summary['bootstrap'] -%}
    {{ fail(ndcg_sql._spelled('sample') ~ " with " ~ ndcg_sql._spelled('bootstrap') ~ ": the bootstrap interval has no finite-population correction; the summary's interval (intervals) has") }}
  {%- endif -%}
  {%- if summary['sample'] is not none and missing_queries == 'zero' -%}
    {{ fail(ndcg_sql._spelled('sample') ~ " with missing_queries='zero': the sample is drawn from the run's queries, which a judged query absent from the run is not") }}
  {%- endif -%}

  {#- query weights: a column of the ranking; every query of the run has one -#}
  {%- set weight_col = options['weight_col'] -%}
  {%- if weight_col is not none and (weight_col is not string or not weight_col) -%}
    {{ fail("weight_col must be a column name; got " ~ ndcg_sql._shown(weight_col)) }}
  {%- endif -%}
  {%- if weight_col is not none and missing_queries == 'zero' -%}
    {{ fail(ndcg_sql._spelled('weight_col') ~ " with missing_queries='zero': a judged query absent from the run has no weight") }}
  {%- endif -%}
  {%- if weight_col is not none and summary['bootstrap'] -%}
    {{ fail(ndcg_sql._spelled('weight_col') ~ " with " ~ ndcg_sql._spelled('bootstrap') ~ ": the bootstrap of a weighted mean is not implemented") }}
  {%- endif -%}

  {#- what the convention refuses with weights or measures, and the rule of LightGBM and XGBoost: a query
      with no relevant item adds 1 to the weighted sum, not its weight (sql/options/weight_rule.sql,
      which dbt's summary macros call too) -#}
  {%- set unweighted_no_relevant = ndcg_sql._unweighted_no_relevant(
      chosen.get('convention'), weight_col is not none, summary['parsed_measures']) -%}

  {#- the row order of ties='input-order' -#}
  {%- if ties == 'input-order' and options['row_col'] is none -%}
    {{ fail("ties='input-order' needs " ~ ndcg_sql._spelled('row_col') ~ ": the column of input row positions that orders tied items") }}
  {%- endif -%}
  {%- if ties != 'input-order' and options['row_col'] is not none -%}
    {{ fail(ndcg_sql._spelled('row_col') ~ " is only used with ties='input-order' (ties is '" ~ ties
            ~ "'): give ties='input-order'" ~ ndcg_sql._flag('ties', 'input-order') ~ " or leave row_col out") }}
  {%- endif -%}
  {%- if options['query_col'] is string and options['query_col'] | lower in table['output_columns'] -%}
    {{ ndcg_sql._input_error("the query column may not be named '" ~ options['query_col'] ~ "': the output has a column of that name") }}
  {%- endif -%}
  {%- set engine = ndcg_sql._engine() -%}
  {%- if chosen['score_precision'] == 'float32' and not engine['float32'] -%}
    {{ ndcg_sql._engine_error("score_precision='float32' (convention " ~ ndcg_sql._shown(chosen.get('convention')) ~ "): "
       ~ engine['name'] ~ " has no 32-bit float type to round scores to; compute it in DuckDB, Spark or Postgres") }}
  {%- endif -%}

  {%- set order_col = options['rank_col'] if options['rank_col'] is not none else (options['score_col'] or 'score') -%}
  {%- set resolved = {
      'cutoffs': summary['cutoffs'] | map(attribute='k') | list,
      'gain': gain['kind'],
      'gain_mapping': gain['mapping'],
      'discount': chosen['discount'],
      'log_base': chosen['log_base'],
      'ties': ties,
      'no_relevant': chosen['no_relevant'],
      'missing_queries': missing_queries,
      'unjudged': unjudged,
      'judgments': judged,
      'input_kind': 'rank' if options['rank_col'] is not none else 'score',
      'score_precision': chosen['score_precision'],
      'negative_labels': chosen['negative_labels'],
      'convention': chosen.get('convention'),
      'measures': summary['parsed_measures'],
      'segments': summary['segments'],
      'intervals': summary['intervals'],
      'bootstrap': summary['bootstrap'],
      'seed': summary['seed'],
      'max_grade': summary['max_grade'],
      'sample': summary['sample']['fraction'] if summary['sample'] is not none else none,
      'binary_labels': (scope['preset']['peer'] ~ "'s " ~ binary_labels | join(', ')) if binary_labels else none,
      'integer_labels': (scope['preset']['peer'] ~ "'s " ~ integer_labels | join(', ')) if integer_labels else none,
      'order_col': order_col,
      'item_type': item_type,
      'segmented_judgments': segmented and judged,
      'weight_col': weight_col} -%}
  {#- the column names, quoted (an option error for a name that is not a non-empty string) -#}
  {%- set q = ndcg_sql.quote_identifier -%}
  {%- set label_sql = options.get('label_sql') -%}
  {%- set written = {'query': options['query_col'], 'item': options['item_col'],
                     'judgments_query': options.get('judgments_query_col') or options['query_col'],
                     'judgments_item': options.get('judgments_item_col') or options['item_col']} -%}
  {%- set quoted = {
      'query_col': q(options['query_col']),
      'item_col': q(options['item_col']),
      'order_col': q(order_col),
      'label_col': none if judged else (label_sql or q(options['label_col'])),
      'j_query_col': q(written['judgments_query']) if judged else none,
      'j_item_col': q(written['judgments_item']) if judged else none,
      'j_label_col': (label_sql or q(options.get('judgments_label_col') or options['label_col'])) if judged else none,
      'row_col': q(options['row_col']) if options['row_col'] is not none else none,
      'weight_col': q(options['weight_col']) if options['weight_col'] is not none else none} -%}

  {%- set context = {'intervals': summary['intervals'], 'ndcg_value_range': summary['ndcg_value_range'],
                     'sample': summary['sample'], 'sample_seed_state': summary['seed'] % 2147483647,
                     'weighted': weight_col is not none, 'unweighted_no_relevant': unweighted_no_relevant,
                     'segment_cols': summary['segment_cols']} -%}
  {#- the measures' part: every key always present (ndcg_sql/building/context.py's TemplateContext has a
      field each), empty without measures (NDCG rows) -#}
  {%- set without_measures = {'measures': none, 'graded_measures': [], 'binary_measures': [], 'thresholds': [],
                              'unbounded_measures': [], 'judged_needed': false, 'pool_thresholds': [],
                              'geometric_measures': [], 'gm_floor': none, 'infap_epsilon': none} -%}
  {%- for key, empty in without_measures.items() -%}
    {%- do context.update({key: summary[key] if summary['parsed_measures'] is not none else empty}) -%}
  {%- endfor -%}
  {#- the SQL differs by the item ids' type: an item-id tie-break on an engine whose byte order of
      text is not its own order (ndcg_sql.item_byte_order); the data, or the item_type option, tells it -#}
  {%- set item_type_matters = ties in ['item-asc', 'item-desc', 'input-order'] and ndcg_sql.item_byte_order() != 'item' -%}
  {{ return({'options': resolved, 'names': {'written': written, 'quoted': quoted}, 'context': context,
             'item_type_matters': item_type_matters}) }}
{%- endmacro %}
