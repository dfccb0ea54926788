{#-
  equals_expected: the model holds exactly the rows of an expected-value seed
  (seeds/expected/, written by make_expected.py from the numpy reference).

  Rows are matched on key_columns (NULL keys match NULL keys, e.g. k for the whole
  list); value_columns are compared as numbers within an absolute `tolerance`, NULL
  equal to NULL only. Other columns of the model are not looked at. A failing row per:
    - key in the model, not in the seed           (problem 'not in expected')
    - key in the seed, not in the model           (problem 'missing from model')
    - key listed more than once on either side    (problem 'duplicate key')
    - any value column differing                  (problem 'different values')
  with the key columns and each value column as <column>__model, <column>__expected.

  The outer join is made of left joins from the union of both sides' keys: Postgres
  cannot FULL JOIN on IS NOT DISTINCT FROM conditions. The union is UNION ALL then
  DISTINCT: BigQuery refuses a bare UNION, Snowflake and Redshift UNION DISTINCT.

    data_tests:
      - equals_expected:
          arguments:
            expected: "{{ ref('expected_lambdarank_summary') }}"
            key_columns: [k]
            value_columns: [ndcg, queries]
-#}
{% test equals_expected(model, expected, key_columns, value_columns, tolerance=1e-9) %}
{%- set keys = [] -%}
{%- for column in key_columns %}{% do keys.append(adapter.quote(column)) %}{% endfor -%}
{%- set values = [] -%}
{%- for column in value_columns %}{% do values.append(adapter.quote(column)) %}{% endfor -%}
with model_rows as (
  select {{ (keys + values) | join(', ') }} from {{ model }}
),
expected_rows as (
  select {{ (keys + values) | join(', ') }} from {{ expected }}
),
model_keys as (
  select {{ keys | join(', ') }}, count(*) as copies from model_rows group by {{ keys | join(', ') }}
),
expected_keys as (
  select {{ keys | join(', ') }}, count(*) as copies from expected_rows group by {{ keys | join(', ') }}
),
all_keys as (
  select distinct {{ keys | join(', ') }} from (
    select {{ keys | join(', ') }} from model_keys
    union all
    select {{ keys | join(', ') }} from expected_keys
  ) as both_sides
),
compared as (
  select
    {%- for key in keys %}
    k.{{ key }},
    {%- endfor %}
    case
      when mk.copies is null then 'missing from model'
      when ek.copies is null then 'not in expected'
      when mk.copies > 1 or ek.copies > 1 then 'duplicate key'
      {%- if values %}
      when 0
        {%- for value in values %}
        + case
            when m.{{ value }} is null and e.{{ value }} is null then 0
            when m.{{ value }} is null or e.{{ value }} is null then 1
            when abs(m.{{ value }} - e.{{ value }}) <= {{ tolerance }} then 0
            else 1
          end
        {%- endfor %} > 0 then 'different values'
      {%- endif %}
    end as problem
    {%- for column in value_columns %}
    , m.{{ values[loop.index0] }} as {{ adapter.quote(column ~ '__model') }}
    , e.{{ values[loop.index0] }} as {{ adapter.quote(column ~ '__expected') }}
    {%- endfor %}
  from all_keys as k
  left join model_keys as mk on {{ equals_expected_same_keys('k', 'mk', keys) }}
  left join expected_keys as ek on {{ equals_expected_same_keys('k', 'ek', keys) }}
  left join model_rows as m on {{ equals_expected_same_keys('k', 'm', keys) }}
  left join expected_rows as e on {{ equals_expected_same_keys('k', 'e', keys) }}
)
select * from compared where problem is not null
{% endtest %}

{#- left.key1 is not distinct from right.key1 and ... (keys: quoted column names) -#}
{% macro equals_expected_same_keys(left, right, keys) -%}
  {%- for key in keys %}{% if not loop.first %} and {% endif %}{{ left }}.{{ key }} is not distinct from {{ right }}.{{ key }}{% endfor -%}
{%- endmacro %}
