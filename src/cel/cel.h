/* cel.h: the CEL engine as libdra uses it: compile a device selector (or a
 * derived-attribute expression) once, share the immutable program between
 * threads, evaluate it over cel_device views without heap allocation. */
#ifndef DRA_CEL_H
#define DRA_CEL_H
#include "cel/cel_device.h"
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CEL_MAX_EXPRESSION_BYTES 10240u
#define CEL_MAX_ESTIMATED_COST 1000000u
#define CEL_MAX_RUNTIME_COST 1000000u
/* dra's own choice: derived attributes of one claim together may not exceed
 * this estimated cost (each one also obeys the per-expression limits). */
#define CEL_MAX_DERIVED_COST_PER_CLAIM 10000000u

typedef enum {
  CEL_ENV_NEW_EXPRESSIONS,    /* API validation: feature gates matter */
  CEL_ENV_STORED_EXPRESSIONS, /* allocation time: everything on */
} cel_env_kind;

typedef struct cel_options {
  cel_env_kind env;
  bool consumable_capacity;  /* DRAConsumableCapacity: device.allowMultipleAllocations */
  bool list_type_attributes; /* DRAListTypeAttributes: includes(), dyn attribute values */
  bool derived;              /* derived attribute: int/bool/string/semver (or a list of one) */
  const char *derived_name;  /* the attribute's name, for refusals of derived expressions */
  bool validate;             /* API validation: length and estimated-cost limits */
} cel_options;

typedef struct cel_compile_result {
  uint64_t estimated_cost; /* UINT64_MAX when not estimated */
  char result_type[64];    /* checked type, e.g. "bool", "dyn" */
  char *error;             /* NULL on success; heap text, free with cel_compile_result_free */
  bool too_long;           /* refused before compiling: Too long */
  bool too_complex;        /* refused: too complex, exceeds cost limit */
} cel_compile_result;

typedef struct cel_program cel_program;

/* Compiles expr. Returns NULL and sets res->error on refusal. res may be NULL. */
cel_program *cel_compile(const char *expr, size_t len, const cel_options *opts, cel_compile_result *res);
void cel_program_free(cel_program *p);
void cel_compile_result_free(cel_compile_result *res);
uint64_t cel_program_cost(const cel_program *p);

/* Process-wide cache keyed by expression text and options (cel_cache.c).
 * A successful get holds a reference to the program, given back with
 * cel_cache_release; a held program is never freed, so its address is a
 * stable key while held. Of the programs nobody holds, the
 * CEL_CACHE_IDLE_MAX most recently released stay cached. Failed
 * compilations are not cached. */
#define CEL_CACHE_IDLE_MAX 1024
const cel_program *cel_cache_get(const char *expr, size_t len, const cel_options *opts, cel_compile_result *res);
void cel_cache_release(const cel_program *p); /* NULL is fine */
size_t cel_cache_size(void);                    /* programs cached, held or not */
/* Frees every cached program, held or not (tests and shutdown). */
void cel_cache_clear(void);

typedef struct cel_eval_opts {
  uint64_t cost_limit;         /* 0: CEL_MAX_RUNTIME_COST */
  const atomic_bool *cancel;   /* set by another thread: stop with "operation interrupted: <cause>" */
  const char *cancel_cause;    /* "context canceled", "context deadline exceeded" */
  int64_t deadline_ns;         /* CLOCK_MONOTONIC; 0: none */
  uint64_t *actual_cost;       /* set: receives the runtime cost charged, as cel-go's EvalDetails.ActualCost */
} cel_eval_opts;

typedef struct cel_error {
  char msg[512];
  bool cost_exceeded;
} cel_error;

/* Selector: 1 true, 0 false, -1 error (err filled). An error is never false. */
int cel_eval_selector(const cel_program *p, const cel_device *dev, const cel_eval_opts *opts, cel_error *err);
/* Derived attribute: the typed result; list payloads stay valid until the next
 * evaluation or compilation on this thread. Returns false with err filled on failure. */
bool cel_eval_device(const cel_program *p, const cel_device *dev, const cel_eval_opts *opts, cel_attr_value *out,
                     cel_error *err);
/* Releases the calling thread's evaluation scratch memory and compiled
 * regular expressions; it also runs by itself when a thread that kept any
 * exits. */
void cel_thread_release(void);

#endif
