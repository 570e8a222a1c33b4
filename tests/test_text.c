/*
 * test_text.c -- goap_format_cond / goap_format_effect: exact text, and round trips through
 * goap_parse_conds / goap_parse_assignments for every condition and effect of a domain.
 */
#include <goap/file.h>

#include "test.h"

static const char domain_text[] =
    "domain text\n"
    "var in_b: bool\n"
    "var stance: enum {standing, crouched, prone} = crouched\n"
    "var ammo: int -5..30 = 3\n"
    "action a\n"
    "  pre in_b, !in_b, stance == prone, stance != standing, ammo >= -2, ammo < 7\n"
    "  eff stance = standing, ammo -= 2\n"
    "action b\n"
    "  pre ammo == 4, ammo != -5, ammo <= 30, ammo > 0\n"
    "  eff !in_b, ammo += 3\n"
    "action c\n"
    "  eff in_b, ammo = -1\n";

TEST(exact_text) {
  goap_file *f = NULL;
  goap_error err;
  REQUIRE(goap_file_parse("text.goap", domain_text, sizeof domain_text - 1, NULL, &f, &err) ==
          GOAP_OK);
  const goap_domain *d = goap_file_domain(f);
  int n = 0;
  const goap_cond *pre = goap_domain_action_pre(d, goap_domain_find_action(d, "a"), &n);
  REQUIRE(n == 6);
  const char *expect[] = {"in_b", "!in_b", "stance == prone", "stance != standing",
                          "ammo >= -2", "ammo < 7"};
  char buf[64];
  for (int i = 0; i < n; ++i) {
    CHECK_EQ_INT(goap_format_cond(d, &pre[i], buf, sizeof buf), strlen(expect[i]));
    CHECK_STR(buf, expect[i]);
  }
  const goap_effect *eff = goap_domain_action_eff(d, goap_domain_find_action(d, "a"), &n);
  REQUIRE(n == 2);
  goap_format_effect(d, &eff[0], buf, sizeof buf);
  CHECK_STR(buf, "stance = standing");
  goap_format_effect(d, &eff[1], buf, sizeof buf);
  CHECK_STR(buf, "ammo -= 2");
  /* truncation follows snprintf: the length needed is returned */
  char small[5];
  CHECK_EQ_INT(goap_format_cond(d, &pre[2], small, sizeof small), strlen("stance == prone"));
  CHECK_STR(small, "stan");
  /* unknown ids */
  goap_cond bad = {99, GOAP_EQ, 1};
  goap_format_cond(d, &bad, buf, sizeof buf);
  CHECK_STR(buf, "?");
  goap_file_destroy(f);
}

TEST(round_trip) {
  goap_file *f = NULL;
  goap_error err;
  REQUIRE(goap_file_parse("text.goap", domain_text, sizeof domain_text - 1, NULL, &f, &err) ==
          GOAP_OK);
  const goap_domain *d = goap_file_domain(f);
  int checked = 0;
  for (int a = 0; a < goap_domain_action_count(d); ++a) {
    int n = 0;
    const goap_cond *pre = goap_domain_action_pre(d, a, &n);
    for (int i = 0; i < n; ++i) {
      char buf[128];
      goap_format_cond(d, &pre[i], buf, sizeof buf);
      goap_cond back[2];
      int count = 0;
      REQUIRE(goap_parse_conds(d, "<test>", buf, back, 2, &count, &err) == GOAP_OK);
      REQUIRE(count == 1);
      /* bool conditions may come back as the equivalent == form */
      goap_word s[4];
      for (int32_t v = -5; v <= 30; ++v) {
        goap_state_init(d, s);
        if (goap_state_set(d, s, pre[i].var, v) != GOAP_OK) continue;
        CHECK_EQ_INT(goap_state_satisfies(d, s, &pre[i], 1), goap_state_satisfies(d, s, back, 1));
      }
      ++checked;
    }
    const goap_effect *eff = goap_domain_action_eff(d, a, &n);
    for (int i = 0; i < n; ++i) {
      char buf[128];
      goap_format_effect(d, &eff[i], buf, sizeof buf);
      if (eff[i].op == GOAP_ADD) continue; /* += is not an assignment for `given` */
      goap_effect back[2];
      int count = 0;
      REQUIRE(goap_parse_assignments(d, "<test>", buf, back, 2, &count, &err) == GOAP_OK);
      REQUIRE(count == 1);
      CHECK_EQ_INT(back[0].var, eff[i].var);
      CHECK_EQ_INT(back[0].value, eff[i].value);
      ++checked;
    }
  }
  CHECK_EQ_INT(checked, 14);
  goap_file_destroy(f);
}

TEST_MAIN(TEST_ENTRY(exact_text), TEST_ENTRY(round_trip))
