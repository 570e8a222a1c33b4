/*
 * test_cxx_core.cpp -- <goap/goap.h> alone, compiled as C++11: the core header is complete by
 * itself (no other public header included here), so a C++ user reads the builder's goap_error
 * (status, message) and formats it with nothing but goap.h.
 */
#include <goap/goap.h>

#include <cstring>

#include "test.h"

TEST(builder_error) {
  goap_builder *b = NULL;
  REQUIRE(goap_builder_create(NULL, &b) == GOAP_OK);
  goap_var_desc v = goap_var_desc();
  v.name = "ammo";
  v.type = GOAP_INT;
  v.lo = 3;
  v.hi = 1;
  CHECK_EQ_INT(goap_builder_add_var(b, &v, NULL), GOAP_INVALID_ARGUMENT);
  const goap_error *e = goap_builder_error(b);
  REQUIRE(e != NULL);
  CHECK_EQ_INT(e->status, GOAP_INVALID_ARGUMENT);
  CHECK_STR(e->message, "variable 'ammo': empty range 3..1");
  CHECK(e->severity == GOAP_SEVERITY_ERROR);
  char buf[80];
  CHECK_EQ_INT(goap_error_format(e, buf, sizeof buf),
               std::strlen("error: variable 'ammo': empty range 3..1\n"));
  CHECK_STR(buf, "error: variable 'ammo': empty range 3..1\n");
  /* a call that succeeds clears it */
  v.hi = 5;
  CHECK_EQ_INT(goap_builder_add_var(b, &v, NULL), GOAP_OK);
  CHECK_EQ_INT(goap_builder_error(b)->status, GOAP_OK);
  CHECK_STR(goap_builder_error(b)->message, "");
  goap_builder_destroy(b);
}

TEST_MAIN(TEST_ENTRY(builder_error))
