/*
 * cmd_why.c -- `goap why`: placeholder.
 */
#include "cli.h"

int cli_cmd_why(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fputs("goap why: not implemented yet\n", stderr);
  return CLI_EXIT_USAGE;
}
