/* cel_lib_net.c: Kubernetes' ip and cidr libraries: parsing (IPv4-mapped
 * IPv6 and zones rejected), canonical form, family and class tests,
 * containment, masking. */
#include "cel/cel_internal.h"
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

typedef struct ipaddr {
  uint8_t b[16];
  uint8_t family; /* 4 or 6 */
  uint8_t prefix; /* CIDR only */
} ipaddr;

#define FN(name) static cel_val name(cel_eval *ev, const cel_val *a, uint32_t n)
#define UNUSED (void)ev, (void)n

/* How a text fails as an address: k8s.io/apiserver's library/ip.go
 * (parseIPAddr) refuses zones and IPv4-mapped IPv6 addresses after Go's
 * netip.ParseAddr accepted them, each with its own message. */
typedef enum { IP_OK, IP_BAD, IP_ZONE, IP_MAPPED } ip_status;

static ip_status parse_ip_status(const char *s, size_t len, ipaddr *out) {
  char buf[64];
  if (len == 0 || len >= sizeof buf || memchr(s, 0, len)) return IP_BAD;
  memcpy(buf, s, len);
  buf[len] = 0;
  memset(out, 0, sizeof *out);
  if (strchr(buf, ':')) {
    char *zone = strchr(buf, '%');
    bool zoned = zone != NULL;
    if (zone) {
      if (!zone[1]) return IP_BAD; /* netip: zone must be a non-empty string */
      *zone = 0;
    }
    const char *dot = strchr(buf, '.');
    if (dot) {
      /* an embedded dotted quad ends the address, with no leading zeros */
      const char *q = strrchr(buf, ':') + 1;
      for (const char *p = q; *p; p++)
        if (*p == '0' && (p == q || p[-1] == '.') && p[1] >= '0' && p[1] <= '9') return IP_BAD;
    }
    if (inet_pton(AF_INET6, buf, out->b) != 1) return IP_BAD;
    out->family = 6;
    if (zoned) return IP_ZONE;
    static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (!memcmp(out->b, mapped, sizeof mapped)) return IP_MAPPED;
    return IP_OK;
  }
  /* reject leading zeros as Go's netip does */
  for (const char *p = buf; *p; p++)
    if (*p == '0' && (p == buf || p[-1] == '.') && p[1] >= '0' && p[1] <= '9') return IP_BAD;
  if (inet_pton(AF_INET, buf, out->b) != 1) return IP_BAD;
  out->family = 4;
  return IP_OK;
}

static bool parse_ip(const char *s, size_t len, ipaddr *out) { return parse_ip_status(s, len, out) == IP_OK; }

/* library/ip.go's messages; the text is quoted as Go's %q does. The detail
 * after ParseAddr(...) is Go's netip.ParseAddr's own, which dra does not
 * reproduce: it always says "unable to parse IP". */
static cel_val ip_error(ip_status st, const char *s, size_t len) {
  strbuf q = STRBUF_INIT;
  cel_go_quote(&q, s, len);
  cel_val e = st == IP_ZONE     ? cel_err("IP address %s with zone value is not allowed", sb_str(&q))
              : st == IP_MAPPED ? cel_err("IPv4-mapped IPv6 address %s is not allowed", sb_str(&q))
                                : cel_err("IP Address %s parse error during conversion from string: ParseAddr(%s): unable to parse IP",
                                          sb_str(&q), sb_str(&q));
  sb_free(&q);
  return e;
}

static ip_status parse_cidr_status(const char *s, size_t len, ipaddr *out) {
  const char *slash = memchr(s, '/', len);
  if (!slash) return IP_BAD;
  ip_status st = parse_ip_status(s, (size_t)(slash - s), out);
  if (st != IP_OK && st != IP_MAPPED) return st;
  size_t pl = len - (size_t)(slash - s) - 1;
  if (pl == 0 || pl > 3) return IP_BAD;
  int p = 0;
  for (size_t i = 0; i < pl; i++) {
    char c = slash[1 + i];
    if (c < '0' || c > '9' || (i == 0 && c == '0' && pl > 1)) return IP_BAD;
    p = p * 10 + (c - '0');
  }
  if (p > (out->family == 4 ? 32 : 128)) return IP_BAD;
  out->prefix = (uint8_t)p;
  return st;
}

static bool parse_cidr(const char *s, size_t len, ipaddr *out) { return parse_cidr_status(s, len, out) == IP_OK; }

/* library/cidr.go's messages (parseCIDR, then stringToCIDR adds its own
 * prefix); netip.ParsePrefix's detail is not reproduced except for zones. */
static cel_val cidr_error(ip_status st, const char *s, size_t len) {
  strbuf q = STRBUF_INIT;
  cel_go_quote(&q, s, len);
  const char *pre = "network address parse error during conversion from string: ";
  cel_val e = st == IP_MAPPED ? cel_err("%sIPv4-mapped IPv6 address %s is not allowed", pre, sb_str(&q))
              : st == IP_ZONE ? cel_err("%s%snetip.ParsePrefix(%s): IPv6 zones cannot be present in a prefix", pre, pre, sb_str(&q))
                              : cel_err("%s%snetip.ParsePrefix(%s): bad prefix", pre, pre, sb_str(&q));
  sb_free(&q);
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

static size_t ip_text(const ipaddr *ip, char *buf, size_t n) {
  inet_ntop(ip->family == 4 ? AF_INET : AF_INET6, ip->b, buf, (socklen_t)n);
  return strlen(buf);
}

FN(f_ip) {
  UNUSED;
  ipaddr ip;
  ip_status st = parse_ip_status(a[0].s, a[0].len, &ip);
  if (st != IP_OK) return ip_error(st, a[0].s, a[0].len);
  return wrap(&ip, V_IP);
}
FN(f_is_ip) { UNUSED; ipaddr ip; return cel_bool(parse_ip(a[0].s, a[0].len, &ip)); }
FN(f_is_canonical) {
  UNUSED;
  ipaddr ip;
  ip_status st = parse_ip_status(a[0].s, a[0].len, &ip);
  if (st != IP_OK) return ip_error(st, a[0].s, a[0].len);
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
  ip_status st = parse_cidr_status(a[0].s, a[0].len, &ip);
  if (st != IP_OK) return cidr_error(st, a[0].s, a[0].len);
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
    ip_status st = parse_ip_status(a[1].s, a[1].len, &tmp);
    if (st != IP_OK) return ip_error(st, a[1].s, a[1].len);
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
    ip_status st = parse_cidr_status(a[1].s, a[1].len, &tmp);
    if (st != IP_OK) return cidr_error(st, a[1].s, a[1].len);
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
