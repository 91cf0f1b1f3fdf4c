/* httplog.c: the request line of httplog.h, with Go's text forms of its
 * values (a Duration as time.Duration.String prints it, strings quoted as
 * strconv.Quote does) since log readers know them. */
#include "server/httplog.h"
#include "util/log.h"
#include "util/strbuf.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* time.Duration.String: "0s", "750ns", "1.5µs", "12.3ms", "1m2.5s". */
static void go_duration(strbuf *sb, int64_t ns) {
  if (ns == 0) {
    sb_puts(sb, "0s");
    return;
  }
  if (ns < 0) {
    sb_putc(sb, '-');
    ns = -ns;
  }
  static const struct {
    int64_t unit;
    int digits;
    const char *suffix;
  } small[] = {{1, 0, "ns"}, {1000, 3, "µs"}, {1000000, 6, "ms"}};
  int64_t whole, frac;
  int digits;
  const char *suffix = "s";
  if (ns < 1000000000) {
    int i = ns < 1000 ? 0 : ns < 1000000 ? 1 : 2;
    whole = ns / small[i].unit;
    frac = ns % small[i].unit;
    digits = small[i].digits;
    suffix = small[i].suffix;
  } else {
    int64_t secs = ns / 1000000000, hours = secs / 3600, minutes = secs / 60 % 60;
    if (hours) sb_printf(sb, "%" PRId64 "h", hours);
    if (hours || minutes) sb_printf(sb, "%" PRId64 "m", minutes);
    whole = secs % 60;
    frac = ns % 1000000000;
    digits = 9;
  }
  sb_printf(sb, "%" PRId64, whole);
  if (frac) {
    char f[16];
    snprintf(f, sizeof f, "%0*" PRId64, digits, frac);
    size_t n = strlen(f);
    while (n && f[n - 1] == '0') n--;
    sb_putc(sb, '.');
    sb_add(sb, f, n);
  }
  sb_puts(sb, suffix);
}

const char *srv_normalized_verb(const srv_request_log *l) {
  const char *m = l->method;
  if (l->watch) return "WATCH";
  if ((!strcmp(m, "GET") || !strcmp(m, "HEAD")) && l->resource && !l->named) return "LIST";
  if (!strcmp(m, "PATCH") && l->content_type && !strcmp(l->content_type, "application/apply-patch+yaml"))
    return "APPLY";
  return m;
}

static void quoted(strbuf *sb, const char *key, const char *value) {
  sb_printf(sb, " %s=", key);
  sb_go_quote(sb, value ? value : "");
}

void srv_httplog(const srv_request_log *l) {
  if (!log_enabled(3)) return;
  strbuf line = STRBUF_INIT;
  sb_puts(&line, "\"HTTP\"");
  quoted(&line, "verb", srv_normalized_verb(l));
  quoted(&line, "URI", l->uri);
  strbuf latency = STRBUF_INIT;
  go_duration(&latency, l->latency_ns);
  quoted(&line, "latency", sb_str(&latency));
  sb_free(&latency);
  quoted(&line, "userAgent", l->user_agent);
  quoted(&line, "contentType", l->content_type);
  quoted(&line, "audit-ID", "");
  quoted(&line, "srcIP", l->src);
  sb_printf(&line, " resp=%d", l->status);
  log_info("%s", sb_str(&line));
  sb_free(&line);
}
