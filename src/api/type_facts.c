/* type_facts.c: see type_facts.h. */
#include "api/type_facts.h"

unsigned type_facts_work_out(const type_desc *td) {
  if (td->facts) __atomic_store_n(td->facts, TYPE_FACTS_KNOWN | TYPE_FACTS_ALL, __ATOMIC_RELAXED);
  unsigned facts = td->flags & T_OPEN ? TYPE_HOLDS_JSON : 0;
  for (size_t i = 0; i < td->nfields && facts != TYPE_FACTS_ALL; i++)
    facts |= value_facts(td->fields[i].kind, td->fields[i].elem);
  if (td->facts) __atomic_store_n(td->facts, TYPE_FACTS_KNOWN | facts, __ATOMIC_RELAXED);
  return facts;
}
