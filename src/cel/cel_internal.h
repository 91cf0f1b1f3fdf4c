/* cel_internal.h: the CEL engine's private model shared by its files: types,
 * runtime values, the syntax tree, function overload tables, the evaluation
 * state and the scratch arena. Nothing outside src/cel and its tests uses it. */
#ifndef DRA_CEL_INTERNAL_H
#define DRA_CEL_INTERNAL_H
#include "cel/cel.h"
#include "cel/cel_device.h"
#include "util/arena.h"
#include "util/strbuf.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- types ---- */
typedef enum {
  TY_DYN, TY_ANY, TY_ERROR, TY_NULL, TY_BOOL, TY_INT, TY_UINT, TY_DOUBLE, TY_STRING, TY_BYTES,
  TY_DURATION, TY_TIMESTAMP, TY_LIST, TY_MAP, TY_TYPE, TY_OPT, TY_PARAM, TY_OPAQUE, TY_OBJECT,
} cel_tkind;

typedef struct cel_type {
  cel_tkind kind;
  int var;                     /* TY_PARAM: checker variable number, -1 for a declared name */
  const char *name;            /* TY_PARAM / TY_OPAQUE / TY_OBJECT */
  const struct cel_type *p[2]; /* list elem; map key, value; type(T); optional T */
} cel_type;

extern const cel_type cel_t_dyn, cel_t_any, cel_t_error, cel_t_null, cel_t_bool, cel_t_int, cel_t_uint,
    cel_t_double, cel_t_string, cel_t_bytes, cel_t_duration, cel_t_timestamp, cel_t_semver, cel_t_quantity,
    cel_t_ip, cel_t_cidr, cel_t_url, cel_t_format, cel_t_list_dyn, cel_t_map_dyn, cel_t_type_dyn, cel_t_device;

const cel_type *cel_type_list(arena *a, const cel_type *elem);
const cel_type *cel_type_map(arena *a, const cel_type *k, const cel_type *v);
const cel_type *cel_type_opt(arena *a, const cel_type *t);
const cel_type *cel_type_type(arena *a, const cel_type *t);
/* Parses "list(int)", "map(string, A)", "kubernetes.Semver", ...; NULL if unknown. */
const cel_type *cel_type_parse(arena *a, const char **s);
bool cel_type_equal(const cel_type *a, const cel_type *b);
void cel_type_print(strbuf *sb, const cel_type *t);
void cel_type_print_checker(strbuf *sb, const cel_type *t); /* null as "null" */
bool cel_type_is_dynlike(const cel_type *t); /* dyn, any or error */

/* ---- values ---- */
typedef enum {
  V_ERR, V_NULL, V_BOOL, V_INT, V_UINT, V_DOUBLE, V_STRING, V_BYTES, V_LIST, V_MAP, V_TYPE, V_OPT,
  V_SEMVER, V_QUANTITY, V_IP, V_CIDR, V_URL, V_FORMAT, V_DURATION, V_TIMESTAMP,
} cel_vkind;

/* How a list or map stores its elements. Device-backed forms read the
 * caller's cel_device directly so evaluation copies nothing. */
typedef enum {
  LS_VALS, LS_INTS, LS_BOOLS, LS_STRS, LS_VERS, /* lists */
  MS_VALS, MS_DEVICE, MS_DEV_DOMAINS, MS_DEV_ATTRS, MS_EMPTY, /* maps */
} cel_store;

typedef struct cel_val {
  uint8_t kind;  /* cel_vkind */
  uint8_t store; /* cel_store for lists and maps; for MS_DEV_*: 0 attributes, 1 capacity in `sub` */
  uint8_t sub;
  uint32_t len;  /* bytes of strings, elements of lists and maps */
  union {
    bool b;
    int64_t i;
    uint64_t u;
    double d;
    const char *s;
    const struct cel_val *items; /* LS_VALS; MS_VALS as key,value pairs */
    const int64_t *ints;
    const bool *bools;
    const cel_str *strs;
    const semver *vers;
    const cel_type *t;
    const struct cel_val *opt; /* NULL: optional.none() */
    const quantity *q;
    const void *p;
  };
  const void *aux; /* device for MS_DEV_*; domain atom for MS_DEV_ATTRS */
} cel_val;

/* ---- scratch memory of one evaluation (thread-local, reused) ---- */
void *cel_scratch_alloc(size_t n);
void cel_scratch_release(void); /* frees overflow chunks, rewinds the fixed block */
extern _Thread_local bool cel_scratch_dirty;
static inline void cel_scratch_reset(void) {
  if (cel_scratch_dirty) cel_scratch_release();
}
char *cel_scratch_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

cel_val cel_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
cel_val cel_no_overload(void);
static inline cel_val cel_bool(bool b) { cel_val v = {.kind = V_BOOL}; v.b = b; return v; }
static inline cel_val cel_int(int64_t i) { cel_val v = {.kind = V_INT}; v.i = i; return v; }
static inline cel_val cel_uint(uint64_t u) { cel_val v = {.kind = V_UINT}; v.u = u; return v; }
static inline cel_val cel_double(double d) { cel_val v = {.kind = V_DOUBLE}; v.d = d; return v; }
static inline cel_val cel_string(const char *s, size_t n) { cel_val v = {.kind = V_STRING, .len = (uint32_t)n}; v.s = s; return v; }
static inline cel_val cel_bytes(const char *s, size_t n) { cel_val v = {.kind = V_BYTES, .len = (uint32_t)n}; v.s = s; return v; }
static inline cel_val cel_null(void) { cel_val v = {.kind = V_NULL}; return v; }
static inline cel_val cel_typeval(const cel_type *t) { cel_val v = {.kind = V_TYPE}; v.t = t; return v; }
static inline bool cel_is_err(cel_val v) { return v.kind == V_ERR; }
cel_val cel_list(const cel_val *items, size_t n);
cel_val cel_map(const cel_val *pairs, size_t n);
cel_val cel_opt(const cel_val *inner); /* inner NULL: none; copies *inner into scratch */
cel_val cel_string_dup(const char *s, size_t n);

cel_val cel_attr_to_val(const cel_attr_value *a);
size_t cel_list_len(const cel_val *l);
cel_val cel_list_at(const cel_val *l, size_t i);
size_t cel_map_len(const cel_val *m);
bool cel_map_find(const cel_val *m, const cel_val *key, cel_val *out);
cel_val cel_map_key_at(const cel_val *m, size_t i);
cel_val cel_map_value_at(const cel_val *m, size_t i);

/* CEL equality: true/false, or an error for Kubernetes types on the left. */
cel_val cel_equals(const cel_val *a, const cel_val *b);
bool cel_equal_bool(const cel_val *a, const cel_val *b);
/* a != b as cel-go's interpreter has it (evalNe: Equal(a, b) != True):
 * equality's own error, e.g. no such overload between a semver or
 * quantity and another type, makes the values unequal, not an error. */
cel_val cel_not_equals(const cel_val *a, const cel_val *b);
/* Ordering for <, <=, >, >= with cross-type numbers; *ok false: no overload. */
int cel_compare(const cel_val *a, const cel_val *b, bool *ok);
const cel_type *cel_val_type(const cel_val *v);
const char *cel_val_type_name(const cel_val *v);  /* "int", "list", "kubernetes.Semver" */
const char *cel_val_go_type(const cel_val *v);    /* "types.Int", "cel.Semver" */
/* string(double): Go's strconv.FormatFloat(d, 'g', -1, 64), as cel-go prints doubles. */
size_t cel_format_double(double d, char *buf, size_t n);
/* string(duration) of nanos, as cel-go writes it ("1.5s"). */
size_t cel_duration_text(int64_t nanos, char *buf, size_t n);
/* string(timestamp) of seconds and nanoseconds ("2020-01-01T00:00:00Z"). */
size_t cel_timestamp_text(int64_t sec, uint32_t nanos, char *buf, size_t n);
/* Go's %q (strconv.Quote) of s[0..n). */
void cel_go_quote(strbuf *sb, const char *s, size_t n);
size_t cel_val_size(const cel_val *v);            /* size in cost units */
size_t cel_utf8_len(const char *s, size_t n);
bool cel_utf8_valid(const char *s, size_t n);

/* ---- syntax tree ---- */
typedef enum { N_CONST, N_IDENT, N_SELECT, N_CALL, N_LIST, N_MAP, N_STRUCT, N_COMPR } cel_nkind;

/* Fast paths chosen after checking (cel_plan, in cel_eval.c). */
typedef enum { F_NONE, F_DEVICE_DRIVER, F_DEVICE_MULTI, F_DEVICE_ATTR, F_DEVICE_CAP, F_EQ_STRING_CONST } cel_fast;

struct cel_overload;
struct cel_eval;
struct cel_node;
typedef struct cel_val (*cel_evalfn)(struct cel_eval *ev, const struct cel_node *n);
/* Boolean evaluation without building values: 1, 0, or -1 with *err set. */
typedef int (*cel_testfn)(struct cel_eval *ev, const struct cel_node *n, struct cel_val *err);
typedef struct cel_node {
  cel_evalfn eval; /* set by cel_plan */
  cel_testfn test; /* set by cel_plan for &&, || and fused comparisons; NULL otherwise */
  bool fused;      /* this test and all below it only read the device */
  uint64_t max_cost; /* fused: the most runtime cost the test can charge */
  /* Runtime cost cel-go charges beyond the node's own: a folded call it
   * still evaluates (semver()/quantity() of a literal), or 1 for the
   * relative attribute a select or index on a value that is not an
   * attribute (a literal, a call, a comprehension) starts. */
  uint64_t extra_cost;
  bool uncharged;       /* a call cel-go plans to cost nothing (`in` a constant list: a set lookup) */
  bool base_free;       /* an attribute a conditional resolves: its base cost (the 1 of its root) is not charged */
  bool stops_at_error;  /* a call cel-go plans as evalVarArgs: arguments in order, none after the first error (cel_eval.c) */
  uint8_t kind;
  uint8_t test_only; /* has() */
  uint8_t fast;
  uint8_t member;    /* call with receiver in args[0] */
  uint32_t nargs;
  int32_t pos;       /* byte offset in the source */
  uint32_t id;
  const cel_type *type;
  cel_val cval;          /* N_CONST */
  const char *name;      /* ident, select field, function */
  struct cel_node *target;
  struct cel_node **args; /* call args (receiver first when member), list elems, map key/value pairs */
  uint8_t *optional;      /* list/map entries marked with '?' */
  /* comprehension */
  const char *iter_var, *iter_var2, *accu_var;
  struct cel_node *range, *init, *cond, *step, *result;
  int slot, slot2, accu_slot; /* variable slots (ident: its slot; -1 global) */
  /* resolved */
  const struct cel_overload **ovs;
  uint32_t novs;
  const atom *fast_domain, *fast_name; /* F_DEVICE_ATTR/CAP */
  _Atomic uint32_t attr_hint;           /* F_DEVICE_ATTR: where the last device had it (relaxed; speed only) */
  uint32_t const_cp;                    /* F_EQ_STRING_CONST: code points of the constant */
  const cel_val *const_val;             /* F_EQ_STRING_CONST: the constant */
  const struct cel_node *other;         /* F_EQ_STRING_CONST: the non-constant operand */
  const atom *const_atom;               /* F_EQ_STRING_CONST on device.driver: the constant interned */
} cel_node;

/* ---- functions ---- */
typedef struct cel_eval cel_eval;
typedef cel_val (*cel_fn)(cel_eval *ev, const cel_val *args, uint32_t n);

#define CEL_INCLUDES_MAX 48 /* includes() refuses longer lists */

/* How a function is costed (estimate and runtime); see cel_cost.c. */
typedef enum {
  K_ONE, K_EQ, K_STR_ORDER, K_IN_LIST, K_MATCHES, K_CONTAINS, K_ARG_TRAVERSE, K_TARGET_TRAVERSE,
  K_TARGET_02, K_ADD_STR, K_ADD_LIST, K_TO_BYTES, K_TO_STRING, K_QUOTE, K_LIST_TRAVERSE, K_FIND, K_JOIN, K_INCLUDES,
  K_IP_CANON, K_FORMAT, K_SEM_PARSE, K_LOGIC, K_COND, K_CIDR_CONTAINS,
} cel_costkind;

typedef struct cel_overload {
  const char *id;  /* cel-go / Kubernetes overload id */
  const char *sig; /* "string.indexOf(string, int) -> int"; type params are single capitals */
  cel_fn fn;
  cel_costkind cost;
  /* filled by cel_env_init from sig */
  const char *name;
  bool member;
  uint32_t nparams; /* including receiver */
  const cel_type *params[4];
  const cel_type *result;
  uint32_t feature; /* CEL_FEAT_* bit required, 0 = always */
} cel_overload;

#define CEL_FEAT_INCLUDES 1u

typedef struct cel_lib {
  const char *name;
  cel_overload *ovs;
  size_t n;
} cel_lib;

extern cel_lib cel_lib_std, cel_lib_strings, cel_lib_lists, cel_lib_regex, cel_lib_net, cel_lib_semver,
    cel_lib_quantity, cel_lib_dra, cel_lib_optional, cel_lib_sets, cel_lib_time, cel_lib_url, cel_lib_format;

void cel_env_init(void); /* parses all signatures once (thread-safe) */
/* Overloads of `name` (member or global); NULL when none. */
const cel_overload *const *cel_env_lookup(const char *name, size_t *n);
const cel_overload *cel_env_by_id(const char *id);

/* ---- evaluation state ---- */
struct cel_eval {
  const cel_device *device;
  const cel_val *globals; /* spec tests: bound variables by slot */
  cel_val *slots;
  uint64_t cost, cost_limit;
  const cel_eval_opts *opts;
  uint32_t iterations;
  bool cost_exceeded; /* or interrupted: evaluation stops, `stop` says why */
  cel_val stop;
};
static inline cel_val cel_eval_node(cel_eval *ev, const cel_node *n) { return n->eval(ev, n); }
/* Adds runtime cost; past the limit evaluation stops (checked by callers). */
static inline void cel_eval_charge(cel_eval *ev, uint64_t c) {
  ev->cost += c;
  if (ev->cost > ev->cost_limit || ev->cost < c) ev->cost_exceeded = true;
}
uint64_t cel_call_runtime_cost(const cel_overload *ov, const cel_val *args, uint32_t n, cel_val result);
/* The runtime cost of node n's call dispatched to ov (see cel_cost.c). */
uint64_t cel_node_runtime_cost(const struct cel_node *n, const cel_overload *ov, const cel_val *args, uint32_t nargs,
                               cel_val result);

/* ---- compilation pipeline ---- */
typedef struct cel_decl {
  const char *name;
  const cel_type *type;
} cel_decl;

typedef struct cel_env_cfg {
  bool device;          /* declare `device` */
  bool multi_alloc;     /* device.allowMultipleAllocations */
  bool attr_dyn;        /* attribute values dyn (else any) */
  bool includes;        /* includes() */
  bool homogeneous;     /* Kubernetes homogeneous aggregate literals */
  bool check;           /* type-check (spec: disableCheck turns it off) */
  bool macros;
  const cel_decl *vars; /* extra variables */
  size_t nvars;
} cel_env_cfg;

typedef struct cel_ast {
  arena *mem;
  const char *src;
  size_t len;
  cel_node *root;
  uint32_t next_id;
  uint32_t nslots;
  strbuf errors; /* "ERROR: <input>:l:c: msg\n | src\n | ..^" lines */
  int nerrors;
} cel_ast;

bool cel_parse(cel_ast *ast, bool macros);
void cel_report(cel_ast *ast, int32_t pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
bool cel_check(cel_ast *ast, const cel_env_cfg *env);
void cel_plan(cel_ast *ast, bool device);
/* A fused test (device comparisons with constants under && and ||) without
 * cost accounting, for when its max_cost fits the limit (UINT64_MAX, e.g. with
 * a list membership test inside, is never run here): 1, 0, or -2 when a
 * comparison needs the general path (attribute missing or not a string). */
int cel_test_fused(const cel_node *n, const cel_device *d);
cel_val cel_index(const cel_val *t, const cel_val *k);
uint64_t cel_estimate(cel_ast *ast);
/* Constant folding of conversions with constant args; false with msg on error. */
/* Folds conversions and Kubernetes parsers with constant arguments; a failed
 * conversion is a program-instantiation error (text into err). */
bool cel_fold(cel_ast *ast, strbuf *err);

struct cel_program {
  cel_ast ast;
  cel_env_cfg env;
  const cel_type *result;
  uint64_t estimated_cost;
  bool derived;
  /* cel_eval_selector's way, chosen at compile time */
  int (*select)(const struct cel_program *p, const cel_device *dev, const cel_eval_opts *opts, cel_error *err);
  void *cache_entry; /* its entry in the program cache (cel_cache.c), NULL when not cached */
};

/* Evaluates a program with globals (by declaration order of env->vars; the
 * device, when declared, comes from dev). */
cel_val cel_program_eval(const cel_program *p, const cel_device *dev, const cel_val *globals,
                         const cel_eval_opts *opts, uint64_t *cost);
cel_program *cel_compile_env(const char *expr, size_t len, const cel_env_cfg *env, bool estimate,
                             cel_compile_result *res);

/* shared helpers */
bool cel_parse_rfc3339(const char *s, size_t n, int64_t *sec, int64_t *nanos);
/* url.ParseRequestURI's verdict; on failure err gets its message. */
bool cel_url_valid(const char *s, size_t n, cel_val *err);
void cel_regex_release(void); /* frees this thread's compiled patterns */
/* Makes sure cel_thread_release runs when the calling thread exits, so
 * threads that come and go (a server's connections) leave nothing behind;
 * called when a thread first keeps memory of its own. */
void cel_thread_release_at_exit(void);
bool cel_regex_match(const char *re, size_t relen, const char *s, size_t slen, cel_val *err);
uint64_t cel_sat_add(uint64_t a, uint64_t b);
uint64_t cel_sat_mul(uint64_t a, uint64_t b);
/* ceil(size * num / den), saturating; Kubernetes' factors are 0.1, 0.2, 0.25. */
uint64_t cel_cost_factor(uint64_t size, uint64_t num, uint64_t den);
/* Code points of s, counting at most up to limit (ASCII runs word-wise). */
size_t cel_utf8_len_upto(const char *s, size_t n, size_t limit);

#endif
