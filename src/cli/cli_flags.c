/* cli_flags.c: see cli_flags.h. Accepts "--flag value", "--flag=value",
 * "-f value" and "-fvalue". */
#include "cli_flags.h"
#include "util/die.h"
#include "util/go_duration.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void strings_add(cli_strings *s, const char *v) {
  s->v = xrealloc(s->v, (s->n + 1) * sizeof *s->v);
  s->v[s->n++] = xstrdup(v);
}

void cli_strings_free(cli_strings *s) {
  for (size_t i = 0; i < s->n; i++) free(s->v[i]);
  free(s->v);
  s->v = NULL;
  s->n = 0;
}

/* Unix seconds of an RFC 3339 time ("2026-01-02T15:04:05Z", fractions
 * and "+02:00" offsets too); false when s is not one. */
static bool parse_rfc3339(const char *s, int64_t *out) {
  struct tm tm;
  memset(&tm, 0, sizeof tm);
  const char *end = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
  if (!end) return false;
  if (*end == '.')
    for (end++; *end >= '0' && *end <= '9'; end++) {}
  int64_t offset = 0;
  if (strcmp(end, "Z")) {
    int h, m;
    if ((end[0] != '+' && end[0] != '-') || strlen(end) != 6 || sscanf(end + 1, "%2d:%2d", &h, &m) != 2) return false;
    offset = (end[0] == '-' ? -1 : 1) * (int64_t)(h * 3600 + m * 60);
  }
  *out = (int64_t)timegm(&tm) - offset;
  return true;
}

static bool apply(const char *command, cli_common *o, const cli_flag *extra, const char *name, char short_name,
                  const char *value, bool *used_value) {
  *used_value = true;
  if (short_name == 'f' || (name && !strcmp(name, "filename"))) {
    if (!value) goto missing;
    o->files = xrealloc(o->files, (o->n_files + 1) * sizeof *o->files);
    o->files[o->n_files++] = xstrdup(value);
    return true;
  }
  if (short_name == 'o' || (name && !strcmp(name, "output"))) {
    if (!value) goto missing;
    if (strcmp(value, "yaml") && strcmp(value, "json") && strcmp(value, "table")) {
      fprintf(stderr, "error: unable to match a printer suitable for the output format \"%s\", allowed formats are: json,table,yaml\n", value);
      return false;
    }
    o->output = value;
    return true;
  }
  if (name && !strcmp(name, "feature-gates")) {
    if (!value) goto missing;
    char err[256];
    if (!gates_parse(&o->gates, value, err, sizeof err)) {
      fprintf(stderr, "error: %s\n", err);
      return false;
    }
    return true;
  }
  if (name && !strcmp(name, "now")) {
    if (!value) goto missing;
    if (!parse_rfc3339(value, &o->now)) {
      fprintf(stderr, "error: --now: %s is not an RFC 3339 time (e.g. 2026-01-02T15:04:05Z)\n", value);
      return false;
    }
    return true;
  }
  *used_value = false;
  if (short_name == 'R' || (name && !strcmp(name, "recursive"))) {
    o->recursive = true;
    return true;
  }
  if (short_name == 'h' || (name && !strcmp(name, "help"))) {
    o->help = true;
    return true;
  }
  for (const cli_flag *f = extra; f && (f->long_name || f->short_name); f++) {
    bool match = (name && f->long_name && !strcmp(name, f->long_name)) || (short_name && short_name == f->short_name);
    if (!match) continue;
    if (f->type == CLI_FLAG_BOOL) {
      *(bool *)f->dst = true;
      return true;
    }
    *used_value = true;
    if (!value) goto missing;
    if (f->type == CLI_FLAG_STRING) *(const char **)f->dst = value;
    else strings_add(f->dst, value);
    return true;
  }
  if (name) fprintf(stderr, "error: unknown flag: --%s\nSee 'dra %s --help' for usage.\n", name, command);
  else fprintf(stderr, "error: unknown shorthand flag: '%c'\nSee 'dra %s --help' for usage.\n", short_name, command);
  return false;
missing:
  if (name) fprintf(stderr, "error: flag needs an argument: --%s\n", name);
  else fprintf(stderr, "error: flag needs an argument: '%c' in -%c\n", short_name, short_name);
  return false;
}

static bool is_value_flag(const char *name, char short_name, const cli_flag *extra) {
  static const char *const common_long[] = {"filename", "output", "feature-gates", "now", NULL};
  if (short_name == 'f' || short_name == 'o') return true;
  for (size_t i = 0; name && common_long[i]; i++)
    if (!strcmp(name, common_long[i])) return true;
  for (const cli_flag *f = extra; f && (f->long_name || f->short_name); f++) {
    bool match = (name && f->long_name && !strcmp(name, f->long_name)) || (short_name && short_name == f->short_name);
    if (match) return f->type != CLI_FLAG_BOOL;
  }
  return false;
}

bool cli_parse(int argc, char **argv, const char *command, cli_common *o, const cli_flag *extra) {
  memset(o, 0, sizeof *o);
  gates_default(&o->gates);
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    const char *name = NULL, *value = NULL;
    char short_name = 0;
    char namebuf[64];
    if (arg[0] == '-' && arg[1] == '-' && arg[2]) {
      const char *eq = strchr(arg + 2, '=');
      size_t len = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
      if (len >= sizeof namebuf) len = sizeof namebuf - 1;
      memcpy(namebuf, arg + 2, len);
      namebuf[len] = 0;
      name = namebuf;
      if (eq) value = eq + 1;
    } else if (arg[0] == '-' && arg[1] && arg[1] != '-') {
      short_name = arg[1];
      if (arg[2]) value = arg[2] == '=' ? arg + 3 : arg + 2;
    } else {
      fprintf(stderr, "error: unexpected argument \"%s\"\nSee 'dra %s --help' for usage.\n", arg, command);
      cli_common_free(o);
      return false;
    }
    if (!value && is_value_flag(name, short_name, extra) && i + 1 < argc) value = argv[++i];
    bool used;
    if (!apply(command, o, extra, name, short_name, value, &used)) {
      cli_common_free(o);
      return false;
    }
  }
  return true;
}

int cli_parse_own(int argc, char **argv, const char *command, const cli_flag *flags, const char *usage) {
  cli_common opts;
  if (!cli_parse(argc, argv, command, &opts, flags)) return 2;
  cli_common_free(&opts);
  if (!opts.help) return -1;
  fputs(usage, stdout);
  return 0;
}

bool cli_require_files(cli_common *o) {
  if (o->help || o->n_files) return true;
  fprintf(stderr, "error: must specify -f FILE|DIR|-\n");
  cli_common_free(o);
  return false;
}

void cli_common_free(cli_common *o) {
  for (size_t i = 0; i < o->n_files; i++) free(o->files[i]);
  free(o->files);
  o->files = NULL;
  o->n_files = 0;
}

/* A positive duration as kubectl's --request-timeout takes it: a bare
 * number is seconds, anything else Go's time.ParseDuration ("1m40s",
 * "500ms"), as Go's Duration.String() writes it. */
static bool parse_seconds(const char *s, double *out) {
  char *end;
  *out = strtod(s, &end);
  if (end != s && !*end) return *out > 0;
  int64_t ns;
  if (!go_parse_duration(s, strlen(s), &ns, NULL)) return false;
  *out = (double)ns / 1e9;
  return ns > 0;
}

bool cli_parse_budget(const char *prefix, const char *max_steps, const char *timeout, uint64_t *steps,
                      double *seconds) {
  if (max_steps) {
    char *end;
    *steps = strtoull(max_steps, &end, 10);
    if (*end || !*steps || *max_steps == '-') {
      fprintf(stderr, "error: --%smax-steps: want a positive integer, got \"%s\"\n", prefix, max_steps);
      return false;
    }
  }
  if (timeout && !parse_seconds(timeout, seconds)) {
    fprintf(stderr, "error: --%stimeout: want a duration such as 10s, got \"%s\"\n", prefix, timeout);
    return false;
  }
  return true;
}

bool cli_parse_gang_placement(const char *value, bool *upstream) {
  if (!value || !strcmp(value, "joint")) *upstream = false;
  else if (!strcmp(value, "upstream")) *upstream = true;
  else {
    fprintf(stderr, "error: --gang-placement: want joint or upstream, got \"%s\"\n", value);
    return false;
  }
  return true;
}
