/* warning.c: Warning header values for warning.h. The agent is "-" and the
 * code 299, as kube-apiserver writes them; client-go's ParseWarningHeader
 * (apimachinery pkg/util/net/http.go) drops a value whose text is not a
 * well-formed quoted string, which is why the text must be quoted. */
#include "server/warning.h"
#include "util/utf8.h"
#include <string.h>

static bool valid_utf8(const char *s) {
  const unsigned char *p = (const unsigned char *)s, *end = p + strlen(s);
  while (p < end) {
    unsigned cp;
    size_t n = utf8_decode(p, (size_t)(end - p), &cp);
    if (!n) return false;
    p += n;
  }
  return true;
}

static bool already_warned(const strbuf *lines, const char *value, size_t len) {
  for (const char *p = lines->buf; p && *p;) {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    if (n == len && !memcmp(p, value, len)) return true;
    p += n + (nl ? 1 : 0);
  }
  return false;
}

void srv_warn(http_response *resp, const char *text) {
  if (!text || !*text || !valid_utf8(text)) return;
  strbuf value = STRBUF_INIT;
  sb_puts(&value, "299 - ");
  sb_go_quote(&value, text);
  if (!already_warned(&resp->warnings, value.buf, value.len)) {
    sb_add(&resp->warnings, value.buf, value.len);
    sb_putc(&resp->warnings, '\n');
  }
  sb_free(&value);
}
