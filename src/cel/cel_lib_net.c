/* cel_lib_net.c: Kubernetes' ip and cidr libraries: parsing (IPv4-mapped
 * IPv6 and zones rejected), canonical form, family and class tests,
 * containment, masking. */
#include "cel/cel_internal.h"
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct ipaddr {
  uint8_t b[16];
  uint8_t family; /* 4 or 6 */
  uint8_t prefix; /* CIDR only */
} ipaddr;

#define FN(name) static cel_val name(cel_eval *ev, const cel_val *a, uint32_t n)
#define UNUSED (void)ev, (void)n

/* ---- parsing, as Go's net/netip does it ----
 * k8s.io/apiserver's library/ip.go and cidr.go parse with netip.ParseAddr
 * and netip.ParsePrefix and put Go's error text into theirs, so the parser
 * below follows netip's grammar and words its failures the same way
 * ("ParseAddr(\"1.2.3\"): IPv4 address too short"). */

/* Appends `ParseAddr("<in>"): <msg>[ (at "<at>")]` to err; returns false. */
static bool addr_fail(strbuf *err, const char *in, size_t n, const char *msg, const char *at, size_t at_len) {
  sb_puts(err, "ParseAddr(");
  cel_go_quote(err, in, n);
  sb_printf(err, "): %s", msg);
  if (at && at_len) {
    sb_puts(err, " (at ");
    cel_go_quote(err, at, at_len);
    sb_putc(err, ')');
  }
  return false;
}

/* Dotted quad in[off..end) into dst[0..4). */
static bool parse_v4(const char *in, size_t n, size_t off, size_t end, uint8_t *dst, strbuf *err) {
  const char *f = in + off;
  size_t len = end - off;
  int field = 0, val = 0, digits = 0;
  for (size_t i = 0; i < len; i++) {
    char c = f[i];
    if (c >= '0' && c <= '9') {
      if (digits == 1 && val == 0) return addr_fail(err, in, n, "IPv4 field has octet with leading zero", NULL, 0);
      val = val * 10 + (c - '0');
      digits++;
      if (val > 255) return addr_fail(err, in, n, "IPv4 field has value >255", NULL, 0);
    } else if (c == '.') {
      if (i == 0 || i == len - 1 || f[i - 1] == '.')
        return addr_fail(err, in, n, "IPv4 field must have at least one digit", f + i, len - i);
      if (field == 3) return addr_fail(err, in, n, "IPv4 address too long", NULL, 0);
      dst[field++] = (uint8_t)val;
      val = digits = 0;
    } else {
      return addr_fail(err, in, n, "unexpected character", f + i, len - i);
    }
  }
  if (field < 3) return addr_fail(err, in, n, "IPv4 address too short", NULL, 0);
  dst[3] = (uint8_t)val;
  return true;
}

static int hexdig(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static bool parse_v6(const char *in, size_t n, ipaddr *out, bool *zoned, strbuf *err) {
  const char *pct = memchr(in, '%', n);
  size_t len = pct ? (size_t)(pct - in) : n; /* the address before any zone */
  if (pct && pct + 1 == in + n) return addr_fail(err, in, n, "zone must be a non-empty string", NULL, 0);
  *zoned = pct != NULL;
  uint8_t *b = out->b;
  size_t at = 0; /* next unread byte of in */
  int filled = 0, gap = -1; /* bytes written; where "::" stands */
  if (len >= 2 && in[0] == ':' && in[1] == ':') {
    gap = 0;
    at = 2;
    if (at == len) return true; /* "::" */
  }
  while (filled < 16) {
    const char *rest = in + at;
    size_t rest_len = len - at;
    unsigned acc = 0;
    size_t d = 0;
    for (; d < rest_len && hexdig(rest[d]) >= 0; d++) {
      acc = acc * 16 + (unsigned)hexdig(rest[d]);
      if (d > 3) return addr_fail(err, in, n, "each group must have 4 or less digits", rest, rest_len);
      if (acc > 0xffff) return addr_fail(err, in, n, "IPv6 field has value >=2^16", rest, rest_len);
    }
    if (d == 0) return addr_fail(err, in, n, "each colon-separated field must have at least one digit", rest, rest_len);
    if (d < rest_len && rest[d] == '.') {
      if (gap < 0 && filled != 12)
        return addr_fail(err, in, n, "embedded IPv4 address must replace the final 2 fields of the address", rest, rest_len);
      if (filled + 4 > 16)
        return addr_fail(err, in, n, "too many hex fields to fit an embedded IPv4 at the end of the address", rest, rest_len);
      if (!parse_v4(in, n, at, len, b + filled, err)) return false;
      filled += 4;
      at = len;
      break;
    }
    b[filled++] = (uint8_t)(acc >> 8);
    b[filled++] = (uint8_t)acc;
    at += d;
    if (at == len) break;
    if (in[at] != ':') return addr_fail(err, in, n, "unexpected character, want colon", in + at, len - at);
    if (at + 1 == len) return addr_fail(err, in, n, "colon must be followed by more characters", in + at, len - at);
    at++;
    if (in[at] == ':') {
      if (gap >= 0) return addr_fail(err, in, n, "multiple :: in address", in + at, len - at);
      gap = filled;
      if (++at == len) break;
    }
  }
  if (at != len) return addr_fail(err, in, n, "trailing garbage after address", in + at, len - at);
  if (filled < 16) {
    if (gap < 0) return addr_fail(err, in, n, "address string too short", NULL, 0);
    int shift = 16 - filled;
    memmove(b + gap + shift, b + gap, (size_t)(filled - gap));
    memset(b + gap, 0, (size_t)shift);
  } else if (gap >= 0) {
    return addr_fail(err, in, n, "the :: must expand to at least one field of zeros", NULL, 0);
  }
  return true;
}

/* netip.ParseAddr; on failure err gets its message. */
static bool go_parse_addr(const char *s, size_t n, ipaddr *out, bool *zoned, strbuf *err) {
  memset(out, 0, sizeof *out);
  *zoned = false;
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '.') {
      out->family = 4;
      return parse_v4(s, n, 0, n, out->b, err);
    }
    if (s[i] == ':') {
      out->family = 6;
      return parse_v6(s, n, out, zoned, err);
    }
    if (s[i] == '%') return addr_fail(err, s, n, "missing IPv6 address", NULL, 0);
  }
  return addr_fail(err, s, n, "unable to parse IP", NULL, 0);
}

static bool is_4in6(const ipaddr *ip) {
  static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  return ip->family == 6 && !memcmp(ip->b, mapped, sizeof mapped);
}

/* library/ip.go parseIPAddr: Go's parse, then no zone and no IPv4-mapped
 * IPv6 address. On failure err holds the library's message. */
static bool parse_ip_err(const char *s, size_t len, ipaddr *out, strbuf *err) {
  strbuf why = STRBUF_INIT;
  bool zoned, ok = go_parse_addr(s, len, out, &zoned, &why);
  if (err && !ok) {
    sb_puts(err, "IP Address ");
    cel_go_quote(err, s, len);
    sb_printf(err, " parse error during conversion from string: %s", sb_str(&why));
  } else if (ok && zoned) {
    ok = false;
    if (err) {
      sb_puts(err, "IP address ");
      cel_go_quote(err, s, len);
      sb_puts(err, " with zone value is not allowed");
    }
  } else if (ok && is_4in6(out)) {
    ok = false;
    if (err) {
      sb_puts(err, "IPv4-mapped IPv6 address ");
      cel_go_quote(err, s, len);
      sb_puts(err, " is not allowed");
    }
  }
  sb_free(&why);
  return ok;
}

static bool parse_ip(const char *s, size_t len, ipaddr *out) { return parse_ip_err(s, len, out, NULL); }

/* library/cidr.go parseCIDR over netip.ParsePrefix; on failure err holds
 * the message stringToCIDR returns (it adds its own prefix again). */
static bool parse_cidr_err(const char *s, size_t len, ipaddr *out, strbuf *err) {
  const char *pre = "network address parse error during conversion from string: ";
  strbuf why = STRBUF_INIT;
  const char *slash = NULL;
  for (size_t i = len; i-- > 0;)
    if (s[i] == '/') {
      slash = s + i;
      break;
    }
  bool zoned = false, ok = false;
  if (!slash) sb_puts(&why, "no '/'");
  else if (!go_parse_addr(s, (size_t)(slash - s), out, &zoned, &why)) {
  } else if (zoned) sb_puts(&why, "IPv6 zones cannot be present in a prefix");
  else {
    const char *bits = slash + 1;
    size_t bl = len - (size_t)(bits - s);
    /* strconv.Atoi after refusing a sign or leading zero: digits that fit
     * an int64 */
    bool digits = bl > 0 && bl <= 19;
    uint64_t p = 0;
    for (size_t i = 0; i < bl && digits; i++) {
      digits = bits[i] >= '0' && bits[i] <= '9';
      p = p * 10 + (uint64_t)(bits[i] - '0');
    }
    if (!digits || (bl > 1 && bits[0] == '0') || p > INT64_MAX) {
      sb_puts(&why, "bad bits after slash: ");
      cel_go_quote(&why, bits, bl);
    } else {
      if (p > (out->family == 4 ? 32u : 128u)) sb_puts(&why, "prefix length out of range");
      else {
        out->prefix = (uint8_t)p;
        ok = true;
      }
    }
  }
  if (!ok) {
    if (err) {
      sb_printf(err, "%s%snetip.ParsePrefix(", pre, pre);
      cel_go_quote(err, s, len);
      sb_printf(err, "): %s", sb_str(&why));
    }
  } else if (is_4in6(out)) {
    ok = false;
    if (err) {
      sb_printf(err, "%sIPv4-mapped IPv6 address ", pre);
      cel_go_quote(err, s, len);
      sb_puts(err, " is not allowed");
    }
  }
  sb_free(&why);
  return ok;
}

static bool parse_cidr(const char *s, size_t len, ipaddr *out) { return parse_cidr_err(s, len, out, NULL); }

static cel_val err_from(strbuf *sb) {
  cel_val e = cel_err("%s", sb_str(sb));
  sb_free(sb);
  return e;
}

static cel_val wrap(const ipaddr *ip, cel_vkind k) {
  ipaddr *p = cel_scratch_alloc(sizeof *p);
  *p = *ip;
  cel_val v = {.kind = (uint8_t)k};
  v.p = p;
  return v;
}

static const ipaddr *ipv(const cel_val *v) { return v->p; }
static size_t nbytes(const ipaddr *ip) { return ip->family == 4 ? 4 : 16; }

bool cel_ip_equal(const cel_val *a, const cel_val *b) {
  const ipaddr *x = ipv(a), *y = ipv(b);
  return x->family == y->family && !memcmp(x->b, y->b, nbytes(x)) && (a->kind == V_IP || x->prefix == y->prefix);
}

/* netip.Addr.String(): dotted quad, or RFC 5952 (lowercase hex without
 * leading zeros, the longest run of two or more zero fields, the first
 * on a tie, as "::"); IPv4-mapped addresses never reach here. */
static size_t ip_text(const ipaddr *ip, char *buf, size_t n) {
  if (ip->family == 4) return (size_t)snprintf(buf, n, "%u.%u.%u.%u", ip->b[0], ip->b[1], ip->b[2], ip->b[3]);
  unsigned g[8];
  for (int i = 0; i < 8; i++) g[i] = (unsigned)ip->b[2 * i] << 8 | ip->b[2 * i + 1];
  int best = -1, best_len = 1;
  for (int i = 0; i < 8;) {
    int j = i;
    while (j < 8 && g[j] == 0) j++;
    if (j - i > best_len) best = i, best_len = j - i;
    i = j > i ? j : i + 1;
  }
  size_t len = 0;
  for (int i = 0; i < 8; i++) {
    if (i == best) {
      len += (size_t)snprintf(buf + len, n - len, "::");
      i += best_len - 1;
      continue;
    }
    if (i && i != best + best_len) len += (size_t)snprintf(buf + len, n - len, ":");
    len += (size_t)snprintf(buf + len, n - len, "%x", g[i]);
  }
  return len;
}

FN(f_ip) {
  UNUSED;
  ipaddr ip;
  strbuf e = STRBUF_INIT;
  if (!parse_ip_err(a[0].s, a[0].len, &ip, &e)) return err_from(&e);
  return wrap(&ip, V_IP);
}
FN(f_is_ip) { UNUSED; ipaddr ip; return cel_bool(parse_ip(a[0].s, a[0].len, &ip)); }
FN(f_is_canonical) {
  UNUSED;
  ipaddr ip;
  strbuf e = STRBUF_INIT;
  if (!parse_ip_err(a[0].s, a[0].len, &ip, &e)) return err_from(&e);
  char buf[64];
  size_t l = ip_text(&ip, buf, sizeof buf);
  return cel_bool(l == a[0].len && !memcmp(buf, a[0].s, l));
}
FN(f_ip_string) {
  UNUSED;
  char buf[80];
  size_t l = ip_text(ipv(&a[0]), buf, sizeof buf);
  if (a[0].kind == V_CIDR) l += (size_t)snprintf(buf + l, sizeof buf - l, "/%d", ipv(&a[0])->prefix);
  return cel_string_dup(buf, l);
}
FN(f_family) { UNUSED; return cel_int(ipv(&a[0])->family); }
FN(f_unspecified) {
  UNUSED;
  const ipaddr *ip = ipv(&a[0]);
  for (size_t i = 0; i < nbytes(ip); i++)
    if (ip->b[i]) return cel_bool(false);
  return cel_bool(true);
}
FN(f_loopback) {
  UNUSED;
  const ipaddr *ip = ipv(&a[0]);
  if (ip->family == 4) return cel_bool(ip->b[0] == 127);
  for (int i = 0; i < 15; i++)
    if (ip->b[i]) return cel_bool(false);
  return cel_bool(ip->b[15] == 1);
}
FN(f_ll_multicast) {
  UNUSED;
  const ipaddr *ip = ipv(&a[0]);
  if (ip->family == 4) return cel_bool(ip->b[0] == 224 && ip->b[1] == 0 && ip->b[2] == 0);
  return cel_bool(ip->b[0] == 0xff && (ip->b[1] & 0x0f) == 0x02);
}
FN(f_ll_unicast) {
  UNUSED;
  const ipaddr *ip = ipv(&a[0]);
  if (ip->family == 4) return cel_bool(ip->b[0] == 169 && ip->b[1] == 254);
  return cel_bool(ip->b[0] == 0xfe && (ip->b[1] & 0xc0) == 0x80);
}
FN(f_global_unicast) {
  UNUSED;
  const ipaddr *ip = ipv(&a[0]);
  cel_val v = a[0];
  if (f_unspecified(ev, &v, 1).b || f_loopback(ev, &v, 1).b || f_ll_multicast(ev, &v, 1).b ||
      f_ll_unicast(ev, &v, 1).b)
    return cel_bool(false);
  if (ip->family == 4) return cel_bool(!(ip->b[0] >= 224) && !(ip->b[0] == 255));
  return cel_bool(ip->b[0] != 0xff);
}

FN(f_cidr) {
  UNUSED;
  ipaddr ip;
  strbuf e = STRBUF_INIT;
  if (!parse_cidr_err(a[0].s, a[0].len, &ip, &e)) return err_from(&e);
  return wrap(&ip, V_CIDR);
}
FN(f_is_cidr) { UNUSED; ipaddr ip; return cel_bool(parse_cidr(a[0].s, a[0].len, &ip)); }

static bool prefix_contains(const ipaddr *net, const ipaddr *ip, int bits) {
  if (net->family != ip->family) return false;
  if (bits < net->prefix) return false;
  for (int i = 0; i < net->prefix; i++) {
    int byte = i / 8, bit = 7 - i % 8;
    if (((net->b[byte] >> bit) & 1) != ((ip->b[byte] >> bit) & 1)) return false;
  }
  return true;
}

FN(f_contains_ip) {
  UNUSED;
  ipaddr tmp;
  const ipaddr *ip;
  if (a[1].kind == V_STRING) {
    /* library/cidr.go cidrContainsIP answers a failed ip(string) with
     * MaybeNoSuchOverloadErr of the CIDR, so the parse error is lost */
    if (!parse_ip(a[1].s, a[1].len, &tmp)) return cel_no_overload();
    ip = &tmp;
  } else {
    ip = ipv(&a[1]);
  }
  return cel_bool(prefix_contains(ipv(&a[0]), ip, ip->family == 4 ? 32 : 128));
}
FN(f_contains_cidr) {
  UNUSED;
  ipaddr tmp;
  const ipaddr *c;
  if (a[1].kind == V_STRING) {
    strbuf e = STRBUF_INIT;
    if (!parse_cidr_err(a[1].s, a[1].len, &tmp, &e)) return err_from(&e);
    c = &tmp;
  } else {
    c = ipv(&a[1]);
  }
  return cel_bool(prefix_contains(ipv(&a[0]), c, c->prefix));
}
FN(f_cidr_ip) {
  UNUSED;
  ipaddr ip = *ipv(&a[0]);
  ip.prefix = 0;
  return wrap(&ip, V_IP);
}
FN(f_prefix_length) { UNUSED; return cel_int(ipv(&a[0])->prefix); }
FN(f_masked) {
  UNUSED;
  ipaddr ip = *ipv(&a[0]);
  for (int i = ip.prefix; i < (int)nbytes(&ip) * 8; i++) ip.b[i / 8] &= (uint8_t)~(1u << (7 - i % 8));
  return wrap(&ip, V_CIDR);
}

#define O(id, sig, fn, k) {id, sig, fn, k, 0, 0, 0, {0}, 0, 0}
static cel_overload net_ovs[] = {
    O("string_to_ip", "ip(string) -> net.IP", f_ip, K_TARGET_TRAVERSE),
    O("is_ip", "isIP(string) -> bool", f_is_ip, K_TARGET_TRAVERSE),
    O("ip_is_canonical", "ip.isCanonical(string) -> bool", f_is_canonical, K_IP_CANON),
    O("ip_to_string", "string(net.IP) -> string", f_ip_string, K_ONE),
    O("ip_family", "net.IP.family() -> int", f_family, K_ONE),
    O("ip_is_unspecified", "net.IP.isUnspecified() -> bool", f_unspecified, K_ONE),
    O("ip_is_loopback", "net.IP.isLoopback() -> bool", f_loopback, K_ONE),
    O("ip_is_link_local_multicast", "net.IP.isLinkLocalMulticast() -> bool", f_ll_multicast, K_ONE),
    O("ip_is_link_local_unicast", "net.IP.isLinkLocalUnicast() -> bool", f_ll_unicast, K_ONE),
    O("ip_is_global_unicast", "net.IP.isGlobalUnicast() -> bool", f_global_unicast, K_ONE),
    O("string_to_cidr", "cidr(string) -> net.CIDR", f_cidr, K_TARGET_TRAVERSE),
    O("is_cidr", "isCIDR(string) -> bool", f_is_cidr, K_TARGET_TRAVERSE),
    O("cidr_to_string", "string(net.CIDR) -> string", f_ip_string, K_ONE),
    O("cidr_contains_ip_string", "net.CIDR.containsIP(string) -> bool", f_contains_ip, K_CIDR_CONTAINS),
    O("cidr_contains_ip_ip", "net.CIDR.containsIP(net.IP) -> bool", f_contains_ip, K_CIDR_CONTAINS),
    O("cidr_contains_cidr_string", "net.CIDR.containsCIDR(string) -> bool", f_contains_cidr, K_CIDR_CONTAINS),
    O("cidr_contains_cidr", "net.CIDR.containsCIDR(net.CIDR) -> bool", f_contains_cidr, K_CIDR_CONTAINS),
    O("cidr_ip", "net.CIDR.ip() -> net.IP", f_cidr_ip, K_ONE),
    O("cidr_prefix_length", "net.CIDR.prefixLength() -> int", f_prefix_length, K_ONE),
    O("cidr_masked", "net.CIDR.masked() -> net.CIDR", f_masked, K_ONE),
};

cel_lib cel_lib_net = {"net", net_ovs, sizeof net_ovs / sizeof *net_ovs};
