/* names.h: the names and identities the control loop makes up, all derived
 * deterministically so the same input gives the same output:
 * generateName bases (with the resourceclaim controller's proportional
 * truncation), the 5-character suffix the API server would append (here a
 * hash of namespace, owner and entry instead of randomness). UIDs of objects
 * that come without one are the store's (store/uid.h). */
#ifndef DRA_SCHED_NAMES_H
#define DRA_SCHED_NAMES_H
#include <stddef.h>

/* Kubernetes' generateName alphabet (no vowels, no confusable digits). */
#define SCHED_NAME_ALPHABET "bcdfghjklmnpqrstvwxz2456789"
#define SCHED_NAME_SUFFIX_LEN 5

/* "<owner>-<entry>-", truncated proportionally when owner-entry is longer
 * than 57 characters (the resourceclaim controller's
 * generateName rule): owner[0:len*57/base] "-" entry[...] "-".
 * buf needs 64 bytes. */
const char *sched_generate_name_base(const char *owner, const char *entry, char buf[64]);
/* 5 suffix characters from a hash of (namespace, owner, entry, attempt);
 * attempt > 0 picks another suffix after a name collision. */
void sched_name_suffix(const char *ns, const char *owner, const char *entry, unsigned attempt,
                       char out[SCHED_NAME_SUFFIX_LEN + 1]);

#endif
