
  // mongen {{ version }}: the checkers of the concurrent assertions of {{ module }},
  // instantiated here in their place (Yosys reads no SVA and honours no bind).
  /* verilator lint_off PINCONNECTEMPTY */
{%- for c in checkers %}
  // {{ c.formula }}
  {{ c.module }} {{ c.instance }} ({{ c.connections }});
{%- endfor %}
  /* verilator lint_on PINCONNECTEMPTY */
