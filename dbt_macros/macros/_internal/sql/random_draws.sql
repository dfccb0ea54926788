{#- Copied from sql/random_draws.sql.j2 by `python -m tools.dbt_gen`: do not edit. -#}
{#- Portable pseudo-random numbers and number series, the same on every engine
    and version (no HASH, no RANDOM, no range()): integer arithmetic below
    2^63 that every engine's BIGINT holds.
    Generator: the state of draw (seed, a, b) starts as
    ((seed mod P) * 1000003 + a) mod P * 1000003 + b, mod P, with P = 2^31 - 1
    (a prime), then goes through four rounds of x -> (x + c_r)^5 mod P. Since
    gcd(5, P - 1) = 1, x^5 is a permutation of the residues mod P (the round
    function of the MiMC construction, Albrecht et al., ASIACRYPT 2016); four
    rounds give a polynomial of degree 625 in the inputs, so nearby (a, b)
    give unrelated states. A draw of a number below n is the state mod n (bias
    below n / P). tests/test_statistics.py recomputes it in numpy. -#}
{%- macro _random_prime() -%}2147483647{%- endmacro -%}
{%- macro _random_start(seed_state, a, b) -%}
MOD(MOD(CAST({{ seed_state }} AS {{ ndcg_sql.sql_type('BIGINT') }}) * 1000003 + CAST({{ a }} AS {{ ndcg_sql.sql_type('BIGINT') }}), 2147483647) * 1000003 + CAST({{ b }} AS {{ ndcg_sql.sql_type('BIGINT') }}), 2147483647)
{%- endmacro -%}
{#- The starting state of a draw keyed by three integers (seed, a, b, c): the same
    construction carried one step further. -#}
{%- macro _random_start3(seed_state, a, b, c) -%}
MOD(MOD(MOD(CAST({{ seed_state }} AS {{ ndcg_sql.sql_type('BIGINT') }}) * 1000003 + CAST({{ a }} AS {{ ndcg_sql.sql_type('BIGINT') }}), 2147483647) * 1000003 + CAST({{ b }} AS {{ ndcg_sql.sql_type('BIGINT') }}), 2147483647) * 1000003 + CAST({{ c }} AS {{ ndcg_sql.sql_type('BIGINT') }}), 2147483647)
{%- endmacro -%}
{#- CTE `name`: the rows of `source` with `columns` kept and `state` advanced by
    the four rounds (one nested SELECT per round, so that no expression repeats
    another's text). -#}
{%- macro _random_rounds(name, source, columns) -%}
{%- set keep = columns | join(', ') -%}
{{ name }} AS ( -- one row per row of {{ source }}: its random state after four rounds
  SELECT {{ keep }}, MOD(MOD(MOD(y * y, 2147483647) * MOD(y * y, 2147483647), 2147483647) * y, 2147483647) AS state
  FROM (
    SELECT {{ keep }}, MOD(state + 1013904223, 2147483647) AS y
    FROM (
      SELECT {{ keep }}, MOD(MOD(MOD(y * y, 2147483647) * MOD(y * y, 2147483647), 2147483647) * y, 2147483647) AS state
      FROM (
        SELECT {{ keep }}, MOD(state + 1664525, 2147483647) AS y
        FROM (
          SELECT {{ keep }}, MOD(MOD(MOD(y * y, 2147483647) * MOD(y * y, 2147483647), 2147483647) * y, 2147483647) AS state
          FROM (
            SELECT {{ keep }}, MOD(state + 12345, 2147483647) AS y
            FROM (
              SELECT {{ keep }}, MOD(MOD(MOD(y * y, 2147483647) * MOD(y * y, 2147483647), 2147483647) * y, 2147483647) AS state
              FROM (SELECT {{ keep }}, MOD(state + 7, 2147483647) AS y FROM {{ source }}) AS round_1
            ) AS round_1_done
          ) AS round_2
        ) AS round_2_done
      ) AS round_3
    ) AS round_3_done
  ) AS round_4
)
{%- endmacro -%}
{#- CTE `name`: one row per number 0 .. count - 1 (column `number`), from
    cross joins of the ten digits (no number-series function is portable). -#}
{%- macro _random_numbers(name, count) -%}
{%- set places = [] -%}
{%- for p in range(7) if 10 ** p < count -%}{%- set _ = places.append(p) -%}{%- endfor -%}
{%- if not places -%}{%- set _ = places.append(0) -%}{%- endif -%}
{{ name }}_digits AS ( -- one row per decimal digit
  SELECT 0 AS digit{% for d in range(1, 10) %} UNION ALL SELECT {{ d }} AS digit{% endfor %}
),
{{ name }} AS ( -- one row per number 0 .. {{ count - 1 }}
  SELECT number FROM (
    SELECT {% for p in places %}{% if not loop.first %} + {% endif %}{{ 10 ** p }} * d{{ p }}.digit{% endfor %} AS number
    FROM {% for p in places %}{% if not loop.first %} CROSS JOIN {% endif %}{{ name }}_digits AS d{{ p }}{% endfor %}
  ) AS series
  WHERE number < {{ count }}
)
{%- endmacro -%}
