/* admission_priority.c: the Priority admission plugin (admission.h,
 * after k8s.io/kubernetes plugin/pkg/admission/priority): a pod or PodGroup
 * gets its priority from its PriorityClass; a second default class is
 * refused. A pod's priorityClassName and preemptionPolicy are fields dra
 * keeps in the pod spec's open JSON (types.h); priority is typed. */
#include "api/admission.h"
#include "api/codec.h"
#include "api/defaults_memo.h"
#include "api/default_values.h"
#include "util/strbuf.h"
#include <stdlib.h>
#include <string.h>

static const char *extra_string(json_t *extra, const char *key) {
  return json_string_value(json_object_get(extra, key));
}

/* What the class (or, without a name, the default) gives: false with the
 * reason when the named class does not exist. */
typedef struct established {
  const char *class_name; /* "" without a name and default */
  int64_t priority;
  const char *preemption_policy; /* NULL: the class has none */
} established;

static bool establish(const admission_ctx *ctx, const char *name, established *out, strbuf *why) {
  const priority_class *pc = ctx->get_priority_class ? ctx->get_priority_class(ctx->user, name && *name ? name : NULL)
                                                     : NULL;
  if (name && *name) {
    if (!pc) {
      sb_printf(why, "no PriorityClass with name %s was found", name);
      return false;
    }
    *out = (established){name, pc->value, pc->preemption_policy};
    return true;
  }
  if (pc) *out = (established){pc->metadata.name, pc->value, pc->preemption_policy};
  else *out = (established){"", 0, PREEMPT_LOWER_PRIORITY};
  return true;
}

/* spec.preemptionPolicy = policy, a JSON string (a defaults_fn). */
static void put_policy(json_t *spec_extra, const void *policy) {
  put_literal_key(spec_extra, "preemptionPolicy", json_incref((json_t *)policy));
}

/* The class's policy into a pod spec that has none. The two a class may
 * hold (validation allows no other) are shared values that live as long
 * as the process, so they go through defaults_memo: pods take the policy
 * alike, before or after the spec's defaults. */
static void default_policy(arena *a, json_t **spec_extra, const char *policy) {
  bool lower = !strcmp(policy, "PreemptLowerPriority"), never = !strcmp(policy, "Never"), shared = lower || never;
  json_t *v = lower ? default_value(DV_PREEMPT_LOWER_PRIORITY) : never ? default_value(DV_NEVER) : json_string(policy);
  if (shared) defaults_memo_apply(a, spec_extra, put_policy, v);
  else put_policy(codec_extra(a, spec_extra), v);
  json_decref(v);
}

/* The spec's open JSON is written only where the class changes it: it is
 * shared once defaulted (defaults_memo.h), and codec_extra then copies it. */
static void admit_pod_create(const admission_ctx *ctx, api_object *obj, strbuf *why) {
  pod *p = obj->typed;
  established e;
  const char *given_class = extra_string(p->spec._extra, "priorityClassName");
  if (!establish(ctx, given_class, &e, why)) return;
  if (*e.class_name && e.class_name != given_class)
    put_literal_key(codec_extra(obj->arena, &p->spec._extra), "priorityClassName", json_string(e.class_name));
  else if (!*e.class_name && json_object_get(p->spec._extra, "priorityClassName"))
    json_object_del(codec_extra(obj->arena, &p->spec._extra), "priorityClassName");
  if (p->spec.priority_set && p->spec.priority != e.priority) {
    sb_printf(why,
              "the integer value of priority (%lld) must not be provided in pod spec; priority admission controller "
              "computed %lld from the given PriorityClass name",
              (long long)p->spec.priority, (long long)e.priority);
    return;
  }
  p->spec.priority = e.priority, p->spec.priority_set = true;
  if (!e.preemption_policy) return;
  const char *given = extra_string(p->spec._extra, "preemptionPolicy");
  if (given && strcmp(given, e.preemption_policy)) {
    sb_printf(why,
              "the string value of PreemptionPolicy (%s) must not be provided in pod spec; priority admission "
              "controller computed %s from the given PriorityClass name",
              given, e.preemption_policy);
    return;
  }
  if (!given) default_policy(obj->arena, &p->spec._extra, e.preemption_policy);
}

/* An update keeps what the create set (validation refuses other changes). */
static void admit_pod_update(api_object *obj, const api_object *old) {
  pod *p = obj->typed;
  const pod *was = old->typed;
  if (!p->spec.priority_set && was->spec.priority_set)
    p->spec.priority = was->spec.priority, p->spec.priority_set = true;
  const char *policy = extra_string(was->spec._extra, "preemptionPolicy");
  if (policy && !extra_string(p->spec._extra, "preemptionPolicy"))
    default_policy(obj->arena, &p->spec._extra, policy);
}

static void admit_pod_group_create(const admission_ctx *ctx, api_object *obj, strbuf *why) {
  pod_group_spec *s = &((pod_group *)obj->typed)->spec;
  established e;
  if (!establish(ctx, s->priority_class_name, &e, why)) return;
  if (s->priority_set && s->priority != e.priority) {
    sb_printf(why,
              "priority set in the pod group (%lld) must match the priority computed (%lld) based on the priority "
              "class set in the spec",
              (long long)s->priority, (long long)e.priority);
    return;
  }
  s->priority = e.priority, s->priority_set = true;
  s->priority_class_name = *e.class_name ? arena_strdup(obj->arena, e.class_name) : NULL;
  if (!gate_on(&ctx->gates, GATE_POD_GROUP_PREEMPTION_POLICY) || !e.preemption_policy) return;
  if (s->preemption_policy && strcmp(s->preemption_policy, e.preemption_policy)) {
    sb_printf(why,
              "the string value of PreemptionPolicy (%s) must not be provided in pod group spec; priority admission "
              "controller computed %s from the given PriorityClass name",
              s->preemption_policy, e.preemption_policy);
    return;
  }
  s->preemption_policy = arena_strdup(obj->arena, e.preemption_policy);
}

char *admit_priority(const admission_ctx *ctx, admit_op op, api_object *obj, const api_object *old) {
  strbuf why = STRBUF_INIT;
  if (obj->info->kind == KIND_POD && op == ADMIT_CREATE) admit_pod_create(ctx, obj, &why);
  else if (obj->info->kind == KIND_POD && op == ADMIT_UPDATE && old) admit_pod_update(obj, old);
  else if (obj->info->kind == KIND_POD_GROUP && op == ADMIT_CREATE && gate_on(&ctx->gates, GATE_GENERIC_WORKLOAD))
    admit_pod_group_create(ctx, obj, &why);
  if (why.len) return sb_detach(&why);
  sb_free(&why);
  return NULL;
}

char *admit_priority_class_default(const admission_ctx *ctx, admit_op op, const api_object *obj) {
  if (obj->info->kind != KIND_PRIORITY_CLASS || op == ADMIT_STATUS_UPDATE) return NULL;
  const priority_class *pc = obj->typed;
  if (!pc->global_default || !ctx->get_priority_class) return NULL;
  const priority_class *current = ctx->get_priority_class(ctx->user, NULL);
  if (!current || (op == ADMIT_UPDATE && !strcmp(current->metadata.name, pc->metadata.name))) return NULL;
  strbuf why = STRBUF_INIT;
  sb_printf(&why, "PriorityClass %s is already marked as default. Only one default can exist", current->metadata.name);
  return sb_detach(&why);
}
