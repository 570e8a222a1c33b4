/*
 * text.c -- conditions and effects back to `.goap` text, for messages and tools.
 *
 * Invariants: the output parses back (with goap_parse_conds / goap_parse_assignments) to the
 * same condition or effect, for every id the domain knows; nothing is allocated.
 */
#include <stdio.h>

#include "goap/file.h"

static const char *op_text(goap_op op) {
  switch (op) {
    case GOAP_EQ: return "==";
    case GOAP_NE: return "!=";
    case GOAP_LT: return "<";
    case GOAP_LE: return "<=";
    case GOAP_GT: return ">";
    case GOAP_GE: return ">=";
  }
  return "?";
}

static size_t out(int n) { return n < 0 ? 0 : (size_t)n; }

/* A value by name for bools and enums, as a number for ints. */
static size_t value_text(const goap_domain *d, const goap_var_info *vi, int var, int32_t v,
                         const char *prefix, char *buf, size_t cap) {
  const char *name = vi->type == GOAP_INT ? NULL : goap_domain_value_name(d, var, v);
  if (name) return out(snprintf(buf, cap, "%s%s", prefix, name));
  return out(snprintf(buf, cap, "%s%ld", prefix, (long)v));
}

size_t goap_format_cond(const goap_domain *d, const goap_cond *c, char *buf, size_t cap) {
  goap_var_info vi;
  if (!c || goap_domain_var_info(d, c->var, &vi) != GOAP_OK)
    return out(snprintf(buf, cap, "?"));
  if (vi.type == GOAP_BOOL && (c->op == GOAP_EQ || c->op == GOAP_NE) &&
      (c->value == 0 || c->value == 1)) {
    int want_true = (c->op == GOAP_EQ) == (c->value == 1);
    return out(snprintf(buf, cap, "%s%s", want_true ? "" : "!", vi.name));
  }
  char prefix[300];
  snprintf(prefix, sizeof prefix, "%s %s ", vi.name, op_text(c->op));
  return value_text(d, &vi, c->var, c->value, prefix, buf, cap);
}

size_t goap_format_effect(const goap_domain *d, const goap_effect *e, char *buf, size_t cap) {
  goap_var_info vi;
  if (!e || goap_domain_var_info(d, e->var, &vi) != GOAP_OK)
    return out(snprintf(buf, cap, "?"));
  if (e->op == GOAP_ADD || e->op == GOAP_ADD_CLAMP) {
    const char *sat = e->op == GOAP_ADD_CLAMP ? " clamp" : "";
    if (e->value < 0)
      return out(snprintf(buf, cap, "%s -= %lld%s", vi.name, -(long long)e->value, sat));
    return out(snprintf(buf, cap, "%s += %ld%s", vi.name, (long)e->value, sat));
  }
  if (vi.type == GOAP_BOOL && (e->value == 0 || e->value == 1))
    return out(snprintf(buf, cap, "%s%s", e->value ? "" : "!", vi.name));
  char prefix[300];
  snprintf(prefix, sizeof prefix, "%s = ", vi.name);
  return value_text(d, &vi, e->var, e->value, prefix, buf, cap);
}
