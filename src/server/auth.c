/* auth.c: authentication for auth.h, after
 * kube-apiserver (k8s.io/apiserver):
 * - authentication/token/tokenfile/tokenfile.go: the token file is read as
 *   CSV by Go's encoding/csv (quoted fields, CRLF line ends, blank lines
 *   skipped, no comments); a record needs 3 columns; an empty token is
 *   skipped with a warning; a duplicate token replaces the earlier one;
 * - authentication/request/bearertoken/bearertoken.go: the header is
 *   trimmed and split on spaces into at most 3 parts; the scheme is matched
 *   case-insensitively; a missing or empty token is no credential (the
 *   request is anonymous), a wrong token is an error (401), which
 *   kube-apiserver never turns into anonymous (union.NewFailOnError);
 * Tokens are kept as SHA-256 digests and every one is compared, in constant
 * time, so neither a token nor its length shows in the response time. */
#include "server/auth.h"
#include "util/die.h"
#include "util/log.h"
#include <errno.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define DIGEST_LEN 32

typedef struct token_entry {
  unsigned char digest[DIGEST_LEN];
  srv_user *user; /* with its groups, system:authenticated added */
} token_entry;

struct srv_tokens {
  token_entry *entries;
  size_t n;
  char *first; /* the first token, for the kubeconfig */
};

static void sha256(const char *s, size_t len, unsigned char out[DIGEST_LEN]) {
  unsigned int n = 0;
  if (!EVP_Digest(s, len, out, &n, EVP_sha256(), NULL) || n != DIGEST_LEN) die_bug("SHA-256 failed");
}

/* ---- the token file, read as Go's encoding/csv reads it ---- */

typedef struct csv_reader {
  const char *p, *end;
  int line;
} csv_reader;

typedef struct csv_record {
  char **fields;
  size_t n;
} csv_record;

static void record_free(csv_record *r) {
  for (size_t i = 0; i < r->n; i++) free(r->fields[i]);
  free(r->fields);
  r->fields = NULL;
  r->n = 0;
}

/* One record into r; false at the end of the input or on an error (err
 * set). \r\n ends a line like \n (Go drops the \r). */
static bool csv_next(csv_reader *c, csv_record *r, strbuf *err) {
  record_free(r);
  while (c->p < c->end && (*c->p == '\n' || (*c->p == '\r' && c->p + 1 < c->end && c->p[1] == '\n'))) {
    c->p += *c->p == '\r' ? 2 : 1; /* blank lines are skipped */
    c->line++;
  }
  if (c->p >= c->end) return false;
  for (;;) {
    strbuf f = STRBUF_INIT;
    if (*c->p == '"') {
      c->p++;
      for (;;) {
        if (c->p >= c->end) {
          sb_printf(err, "record on line %d: extraneous or missing \" in quoted-field", c->line);
          sb_free(&f);
          return false;
        }
        if (*c->p == '"' && c->p + 1 < c->end && c->p[1] == '"') {
          sb_putc(&f, '"');
          c->p += 2;
        } else if (*c->p == '"') {
          c->p++;
          break;
        } else if (*c->p == '\r' && c->p + 1 < c->end && c->p[1] == '\n') {
          sb_putc(&f, '\n');
          c->p += 2;
          c->line++;
        } else {
          if (*c->p == '\n') c->line++;
          sb_putc(&f, *c->p++);
        }
      }
      if (c->p < c->end && *c->p != ',' && *c->p != '\n' && !(*c->p == '\r' && c->p + 1 < c->end && c->p[1] == '\n') &&
          !(*c->p == '\r' && c->p + 1 == c->end)) {
        sb_printf(err, "parse error on line %d: extraneous or missing \" in quoted-field", c->line);
        sb_free(&f);
        return false;
      }
    } else {
      while (c->p < c->end && *c->p != ',' && *c->p != '\n') {
        if (*c->p == '\r' && (c->p + 1 == c->end || c->p[1] == '\n')) {
          c->p++; /* \r before the line end (or the file end) is dropped */
          continue;
        }
        if (*c->p == '"') {
          sb_printf(err, "parse error on line %d: bare \" in non-quoted-field", c->line);
          sb_free(&f);
          return false;
        }
        sb_putc(&f, *c->p++);
      }
    }
    r->fields = xrealloc(r->fields, (r->n + 1) * sizeof *r->fields);
    r->fields[r->n++] = sb_detach(&f);
    if (c->p < c->end && *c->p == '\r') c->p++;
    if (c->p >= c->end) return true;
    if (*c->p == '\n') {
      c->p++;
      c->line++;
      return true;
    }
    c->p++; /* ',' */
  }
}

srv_tokens *srv_tokens_load(const char *path, strbuf *err) {
  size_t len = 0;
  char *text = sb_read_file(path, &len);
  if (!text) {
    sb_printf(err, "cannot read token file %s: %s", path, strerror(errno));
    return NULL;
  }
  srv_tokens *t = xcalloc(1, sizeof *t);
  csv_reader c = {.p = text, .end = text + len, .line = 1};
  csv_record r = {0};
  strbuf perr = STRBUF_INIT;
  int record_num = 0;
  bool ok = true;
  while (csv_next(&c, &r, &perr)) {
    if (r.n < 3) {
      sb_printf(err, "token file '%s' must have at least 3 columns (token, user name, user uid), found %zu", path, r.n);
      ok = false;
      break;
    }
    record_num++;
    if (!r.fields[0][0]) {
      log_warning("empty token has been found in token file '%s', record number '%d'", path, record_num);
      continue;
    }
    unsigned char digest[DIGEST_LEN];
    sha256(r.fields[0], strlen(r.fields[0]), digest);
    size_t i = 0;
    while (i < t->n && memcmp(t->entries[i].digest, digest, DIGEST_LEN)) i++;
    if (i < t->n) {
      log_warning("duplicate token has been found in token file '%s', record number '%d'", path, record_num);
      srv_user_free(t->entries[i].user);
    } else {
      t->entries = xrealloc(t->entries, (t->n + 1) * sizeof *t->entries);
      t->n++;
    }
    memcpy(t->entries[i].digest, digest, DIGEST_LEN);
    srv_user *u = t->entries[i].user = srv_user_new(r.fields[1], r.fields[2]);
    /* strings.Split(record[3], ","), as tokenfile.go splits the groups */
    for (const char *g = r.n >= 4 ? r.fields[3] : NULL, *comma; g; g = comma ? comma + 1 : NULL) {
      comma = strchr(g, ',');
      char *group = xstrndup(g, comma ? (size_t)(comma - g) : strlen(g));
      srv_user_add_group(u, group);
      free(group);
    }
    srv_user_add_implicit_group(u);
    if (!t->first) t->first = xstrdup(r.fields[0]);
  }
  if (ok && perr.len) {
    sb_printf(err, "cannot read token file %s: %s", path, sb_str(&perr));
    ok = false;
  }
  sb_free(&perr);
  record_free(&r);
  OPENSSL_cleanse(text, len);
  free(text);
  if (!ok) {
    srv_tokens_free(t);
    return NULL;
  }
  return t;
}

void srv_tokens_free(srv_tokens *t) {
  if (!t) return;
  for (size_t i = 0; i < t->n; i++) srv_user_free(t->entries[i].user);
  free(t->entries);
  if (t->first) OPENSSL_cleanse(t->first, strlen(t->first));
  free(t->first);
  free(t);
}

const char *srv_tokens_first(const srv_tokens *t) { return t ? t->first : NULL; }

/* ---- authentication ---- */

static const char *const space_warning =
    "the provided Authorization header contains extra space before the bearer token, and is ignored";

auth_outcome srv_authenticate(const srv_tokens *t, const char *authorization, const srv_user **user,
                              const char **warning) {
  *user = NULL;
  if (warning) *warning = NULL;
  if (!authorization) return AUTH_ANONYMOUS;
  /* strings.TrimSpace, then SplitN(auth, " ", 3) */
  const char *a = authorization, *e = a + strlen(a);
  while (a < e && strchr(" \t\n\r\v\f", *a)) a++;
  while (e > a && strchr(" \t\n\r\v\f", e[-1])) e--;
  const char *sp = memchr(a, ' ', (size_t)(e - a));
  if (!sp || sp - a != 6 || strncasecmp(a, "bearer", 6)) return AUTH_ANONYMOUS;
  const char *tok = sp + 1, *tok_end = memchr(tok, ' ', (size_t)(e - tok));
  if (!tok_end) tok_end = e;
  if (tok_end == tok) {
    if (warning && tok_end < e) *warning = space_warning;
    return AUTH_ANONYMOUS;
  }
  unsigned char digest[DIGEST_LEN];
  sha256(tok, (size_t)(tok_end - tok), digest);
  size_t found = 0; /* index + 1 */
  for (size_t i = 0; t && i < t->n; i++) {
    size_t hit = (size_t)(CRYPTO_memcmp(t->entries[i].digest, digest, DIGEST_LEN) == 0);
    found = hit * (i + 1) + (1 - hit) * found; /* no branch on the outcome */
  }
  if (!found) return AUTH_INVALID;
  *user = t->entries[found - 1].user;
  return AUTH_USER;
}
