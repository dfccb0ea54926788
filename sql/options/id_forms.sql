{#- How query and item ids are compared: the one rule for the types ids arrive in, rendered by the
    Python runner (ndcg_sql/building/id_types.py: where the types come from), to_sql (id_types=) and the dbt
    macros (the types dbt's adapter reads) alike. Ids are compared, grouped and ordered in the
    normalised rows (sql/normalised_rows.sql.j2), read in the form chosen here for each id column
    (sql/ids.sql.j2 writes each form), never through an engine's implicit cast:

    * both sides of a role (the ranking's and the judgments' query ids; their item ids) of one
      kind, whole numbers ('integer'), 'text' or 'fraction': compared as stored ('native');
    * otherwise every side as text in the form a TREC file holds it, as trec_eval reads every id
      as a string (get_qrels.c, get_trec_results.c): whole numbers, categories/ENUM, dates, times,
      UUIDs as their text ('text'), a fraction as a number's canonical text ('number_text': 1.0 is
      '1'), JSON as its string or number ('json_text'), text as it is ('native');
    * a convention whose ids are text (trec_eval: docnos are strings) compares every id as text,
      whatever the kinds, unless both sides are text already;
    * a kind not known (none: a type the engine's table does not list) leaves that role as stored;
    * 'other' (lists, structs, maps, blobs: no text form) is an input error naming both columns. -#}

{#- The kind of a column type as the engine writes it ("NUMBER(38,0)", "character varying(256)",
    "array<int>", "INT64"): 'integer', 'text', 'fraction', 'enum', 'json', 'text_like', 'other', or
    none when the engine's table (ndcg_sql/vocabulary/dialects.py type_names, through ndcg_sql._id_type_names())
    does not list it. A fixed-point number is whole at scale 0, a fraction at any other or unknown scale. -#}
{% macro _id_kind(type_name) -%}
  {%- set text = type_name | string | trim -%}
  {%- set base = text.split('(')[0].split('<')[0] | trim | upper -%}
  {%- set found = namespace(kind=none) -%}
  {%- if text.endswith(']') -%}
    {%- set found.kind = 'other' -%}
  {%- else -%}
    {%- for kind, names in ndcg_sql._id_type_names() if found.kind is none and (base in names or '*' in names) -%}
      {%- if kind == 'decimal' -%}
        {%- set parameters = modules.re.findall('[0-9]+', text.split('(', 1)[1]) if '(' in text else [] -%}
        {%- set found.kind = 'integer' if parameters | length == 2 and parameters[1] | int == 0 else 'fraction' -%}
      {%- else -%}
        {%- set found.kind = kind -%}
      {%- endif -%}
    {%- endfor -%}
  {%- endif -%}
  {{ return(found.kind) }}
{%- endmacro %}

{#- The forms of id columns by the rule above.
      sides    {'query': [side, ...], 'item': [side, ...]}: a side per column compared (the
               ranking's, and the judgments' when given), each {'key': 'run_query', 'run_item',
               'j_query' or 'j_item', 'where': 'ranking' or 'judgments', 'name': the column as
               the user named it, 'type': its type as shown, 'kind': from _id_kind or the
               runner's inspection, none when not known}
      as_text  the convention compares every id as text
    Returns {'forms': {key: form}, 'item_type': 'number' or 'text' as the SQL then reads the
    ranking's item ids (the byte-order tie-break), none when their kind is not known}. -#}
{% macro _id_forms(sides, as_text=false) -%}
  {%- set as_text_form = {'integer': 'text', 'text': 'native', 'fraction': 'number_text', 'enum': 'text',
                          'json': 'json_text', 'text_like': 'text'} -%}
  {%- set forms = {} -%}
  {%- for role in ['query', 'item'] if role in sides -%}
    {%- set columns = sides[role] -%}
    {%- for side in columns if side['kind'] == 'other' -%}
      {%- set described = [] -%}
      {%- for each in columns -%}
        {%- do described.append('the ' ~ each['where'] ~ ("' " if each['where'].endswith('s') else "'s ")
                                ~ ndcg_sql._shown(each['name']) ~ ' is ' ~ each['type']) -%}
      {%- endfor -%}
      {{ ndcg_sql._input_error(role ~ ' ids must be numbers or text: ' ~ described | join(' and ') ~ '; column '
                               ~ ndcg_sql._shown(side['name']) ~ ' of the ' ~ side['where'] ~ ' has no text form to compare') }}
    {%- endfor -%}
    {%- set kinds = columns | map(attribute='kind') | list -%}
    {%- set same = kinds | unique | list | length == 1
                   and kinds[0] in (['text'] if as_text else ['integer', 'text', 'fraction']) -%}
    {%- for side in columns -%}
      {%- do forms.update({side['key']: 'native' if none in kinds or same else as_text_form.get(side['kind'], 'text')}) -%}
    {%- endfor -%}
  {%- endfor -%}
  {%- set item_kind = (sides.get('item') or [{'kind': none}])[0]['kind'] -%}
  {%- set item_type = none if item_kind is none
                      else 'number' if forms.get('run_item') == 'native' and item_kind in ['integer', 'fraction']
                      else 'text' -%}
  {{ return({'forms': forms, 'item_type': item_type}) }}
{%- endmacro %}

{#- The sides of _id_forms from the id columns' types as the engine writes them (to_sql's id_types=,
    the types dbt's adapter reads): {'query', 'item', 'judgments_query', 'judgments_item': type name};
    a column not given is not known. names: the same keys, the columns as the user named them. -#}
{% macro _id_sides(types, names, judged) -%}
  {%- set sides = {'query': [], 'item': []} -%}
  {%- for role in ['query', 'item'] -%}
    {%- for key, where, given in [('run_' ~ role, 'ranking', role), ('j_' ~ role, 'judgments', 'judgments_' ~ role)]
        if where == 'ranking' or judged -%}
      {%- set type_name = types.get(given) -%}
      {%- do sides[role].append({'key': key, 'where': where, 'name': names[given],
                                 'type': type_name if type_name is not none else 'not known',
                                 'kind': ndcg_sql._id_kind(type_name) if type_name is not none else none}) -%}
    {%- endfor -%}
  {%- endfor -%}
  {{ return(sides) }}
{%- endmacro %}
