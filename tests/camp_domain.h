/*
 * camp_domain.h -- the soak test's camp: hunger, food, wood, a fire, threats and a breaking axe
 * (ints, bools, four goals of different priorities). Shared by test_soak.c and
 * test_save_sim.c, which saves and restores the soak's world.
 */
#ifndef GOAP_TESTS_CAMP_DOMAIN_H
#define GOAP_TESTS_CAMP_DOMAIN_H

static const char *const camp_text =
    "domain camp\n"
    "var hunger: int 0..10\n"
    "var food: int 0..4 = 1\n"
    "var wood: int 0..6\n"
    "var fire: bool\n"
    "var threat: bool\n"
    "var at_home: bool = true\n"
    "var axe_broken: bool\n"
    "action go_out\n  cost 1\n  pre at_home\n  eff !at_home\n"
    "action go_home\n  cost 1\n  pre !at_home\n  eff at_home\n"
    "action forage\n  cost 2\n  pre !at_home, food < 4\n  eff food += 1\n"
    "action eat\n  cost 1\n  pre food >= 1, hunger >= 1\n  eff hunger = 0, food -= 1\n"
    "action chop\n  cost 2\n  pre !at_home, !axe_broken, wood <= 4\n  eff wood += 2\n"
    "action mend_axe\n  cost 4\n  pre at_home, axe_broken\n  eff !axe_broken\n"
    "action light_fire\n  cost 1\n  pre at_home, wood >= 3, !fire\n  eff fire, wood -= 3\n"
    "action fight\n  cost 3\n  pre threat\n  eff !threat\n"
    "goal defend\n  priority 30\n  want !threat\n"
    "goal feed\n  priority 10\n  want hunger <= 2\n"
    "goal warm\n  priority 5\n  want fire\n"
    "goal roam\n  priority 1\n  want !at_home\n";

#endif /* GOAP_TESTS_CAMP_DOMAIN_H */
