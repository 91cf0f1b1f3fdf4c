/* commands.h: one entry point per dra subcommand, each in its own file. */
#ifndef DRA_CLI_COMMANDS_H
#define DRA_CLI_COMMANDS_H

int cmd_validate(int argc, char **argv);
int cmd_allocate(int argc, char **argv);
int cmd_schedule(int argc, char **argv);
int cmd_cel(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_migrate(int argc, char **argv);
int cmd_backup(int argc, char **argv);
int cmd_restore(int argc, char **argv);
int cmd_version(int argc, char **argv);

#endif
