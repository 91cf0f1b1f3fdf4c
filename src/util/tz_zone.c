/* tz_zone.c: see tz_zone.h. The zone before the first transition is
 * chosen as Go's lookupFirstZone chooses it. */
#include "util/tz_zone.h"
#include "util/die.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ZONEINFO "/usr/share/zoneinfo/"
#define MAX_TZIF (1u << 20)

typedef struct reader {
  const unsigned char *p, *end;
} reader;

static bool take(reader *r, size_t n, const unsigned char **at) {
  if ((size_t)(r->end - r->p) < n) return false;
  *at = r->p;
  r->p += n;
  return true;
}

static uint32_t be32(const unsigned char *b) {
  return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static int64_t be64(const unsigned char *b) { return (int64_t)((uint64_t)be32(b) << 32 | be32(b + 4)); }

typedef struct header {
  uint32_t isut, isstd, leap, time, type, chars;
  char version;
} header;

static bool read_header(reader *r, header *h) {
  const unsigned char *b;
  if (!take(r, 44, &b) || memcmp(b, "TZif", 4)) return false;
  h->version = (char)b[4];
  h->isut = be32(b + 20);
  h->isstd = be32(b + 24);
  h->leap = be32(b + 28);
  h->time = be32(b + 32);
  h->type = be32(b + 36);
  h->chars = be32(b + 40);
  /* RFC 8536: at least one type; the indicator counts are 0 or typecnt */
  return h->type >= 1 && h->type <= 256 && (!h->isut || h->isut == h->type) && (!h->isstd || h->isstd == h->type) &&
         h->time <= MAX_TZIF && h->leap <= MAX_TZIF && h->chars <= MAX_TZIF;
}

/* The data block after h, its times tsize bytes wide. */
static bool read_block(reader *r, const header *h, size_t tsize, tz_zone *z) {
  const unsigned char *times, *idx, *types, *skip;
  if (!take(r, (size_t)h->time * tsize, &times) || !take(r, h->time, &idx) || !take(r, (size_t)h->type * 6, &types) ||
      !take(r, h->chars, &skip) || !take(r, (size_t)h->leap * (tsize + 4), &skip) || !take(r, h->isstd, &skip) ||
      !take(r, h->isut, &skip))
    return false;
  z->n = h->time;
  z->n_types = h->type;
  z->when = xcalloc(z->n + 1, sizeof *z->when);
  z->to = xcalloc(z->n + 1, sizeof *z->to);
  z->offset = xcalloc(z->n_types, sizeof *z->offset);
  z->dst = xcalloc(z->n_types, sizeof *z->dst);
  for (size_t i = 0; i < z->n; i++) {
    z->when[i] = tsize == 8 ? be64(times + 8 * i) : (int32_t)be32(times + 4 * i);
    z->to[i] = idx[i];
    if (idx[i] >= h->type || (i && z->when[i] <= z->when[i - 1])) return false;
  }
  for (size_t i = 0; i < z->n_types; i++) {
    z->offset[i] = (int32_t)be32(types + 6 * i);
    z->dst[i] = types[6 * i + 4] != 0;
    /* no real zone is a week off UTC: kept out so that sums cannot overflow */
    if (z->offset[i] < -86400 * 7 || z->offset[i] > 86400 * 7) return false;
  }
  return true;
}

bool tz_zone_parse(const unsigned char *data, size_t n, tz_zone *out) {
  reader r = {data, data + n};
  header h;
  *out = (tz_zone){0};
  if (!read_header(&r, &h)) return false;
  bool ok;
  if (h.version >= '2') {
    tz_zone v1 = {0};
    ok = read_block(&r, &h, 4, &v1) && read_header(&r, &h) && read_block(&r, &h, 8, out);
    tz_zone_free(&v1);
  } else ok = read_block(&r, &h, 4, out);
  if (!ok) tz_zone_free(out);
  return ok;
}

static bool fail(strbuf *err, const char *a, const char *b) {
  sb_puts(err, a);
  sb_puts(err, b);
  return false;
}

bool tz_zone_load(const char *name, tz_zone *out, strbuf *err) {
  *out = (tz_zone){0};
  if (!*name || !strcmp(name, "UTC") || !strcmp(name, "Local")) return true;
  if (strstr(name, "..") || *name == '/' || *name == '\\') return fail(err, "time: invalid location name", "");
  char *path = xmalloc(strlen(ZONEINFO) + strlen(name) + 1);
  strcpy(path, ZONEINFO);
  strcat(path, name);
  FILE *f = fopen(path, "rb");
  free(path);
  if (!f) return fail(err, "unknown time zone ", name);
  unsigned char *buf = xmalloc(MAX_TZIF);
  size_t n = fread(buf, 1, MAX_TZIF, f);
  int read_errno = ferror(f) ? errno : 0;
  fclose(f);
  bool ok = !read_errno && tz_zone_parse(buf, n, out);
  free(buf);
  if (read_errno == EISDIR) return fail(err, "is a directory", "");
  if (!ok) return fail(err, read_errno ? "unknown time zone " : "malformed time zone information", read_errno ? name : "");
  return true;
}

/* lookupFirstZone: the type in force before the first transition. */
static size_t first_type(const tz_zone *z) {
  bool used = false;
  for (size_t i = 0; i < z->n && !used; i++) used = z->to[i] == 0;
  if (!used) return 0;
  if (z->n && z->dst[z->to[0]])
    for (size_t t = z->to[0]; t-- > 0;)
      if (!z->dst[t]) return t;
  for (size_t t = 0; t < z->n_types; t++)
    if (!z->dst[t]) return t;
  return 0;
}

int32_t tz_zone_lookup(const tz_zone *z, int64_t t, int64_t *start, int64_t *end) {
  *start = INT64_MIN;
  *end = INT64_MAX;
  if (!z->n_types) return 0;
  if (!z->n || t < z->when[0]) {
    if (z->n) *end = z->when[0];
    return z->offset[first_type(z)];
  }
  size_t lo = 0, hi = z->n; /* the last transition at or before t */
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (z->when[mid] <= t) lo = mid;
    else hi = mid;
  }
  *start = z->when[lo];
  if (lo + 1 < z->n) *end = z->when[lo + 1];
  return z->offset[z->to[lo]];
}

void tz_zone_free(tz_zone *z) {
  free(z->when);
  free(z->to);
  free(z->offset);
  free(z->dst);
  *z = (tz_zone){0};
}
