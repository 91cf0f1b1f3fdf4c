/* commands.h: the kubectl dra subcommands, one file each; each takes the
 * arguments after its name and returns the exit code. */
#ifndef KDRA_COMMANDS_H
#define KDRA_COMMANDS_H

int cmd_capacity(int argc, char **argv);
int cmd_claims(int argc, char **argv);
int cmd_devices(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_whatif(int argc, char **argv);
int cmd_taint(int argc, char **argv);
int cmd_untaint(int argc, char **argv);

#endif
