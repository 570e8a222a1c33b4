/*
 * blackboard.c -- named integer slots shared by agents.
 *
 * Invariants:
 *  - Slots are never removed, so an index handed out stays valid while the blackboard lives.
 *  - Names are unique; lookups are linear (they happen when agents are created, never per
 *    update: agents keep slot indices).
 *  - version counts the writes that changed a value.
 *  - A resource's held count is never above its capacity: acquire refuses a full resource and
 *    set_capacity refuses to go below what is held.
 *  - held = anon + the entries of who: who[0..held - anon) names the holder of each unit, in
 *    the order the units were taken (an agent holding two units appears twice); release
 *    removes the agent's oldest entry. The array only grows (doubling), so a warm blackboard
 *    takes and releases without allocating. anon counts a restored blackboard's units whose
 *    holders are not known yet: the restored agents that hold them claim them
 *    (goap__bb_claim, from goap_agent_restore). Nothing is allocated per anonymous unit, so a
 *    damaged snapshot's held count cannot make a restore allocate without bound.
 */
#include <string.h>

#include "runtime.h"

typedef struct slot {
  char *name;
  size_t name_size;
  int32_t value;
} slot;

typedef struct resource {
  char *name;
  size_t name_size;
  int capacity, held;
  int anon;                /* units held by holders not known yet (a restore): <= held */
  goap_agent **who;        /* held - anon entries */
  size_t cwho;
} resource;

struct goap_blackboard {
  goap_allocator alloc;
  slot *slots;
  size_t n, cap;
  resource *res;
  size_t nres, cres;
  uint64_t version;
  int attached;
};

goap_status goap_blackboard_create(const goap_allocator *alloc, goap_blackboard **out) {
  if (!out) return GOAP_INVALID_ARGUMENT;
  goap_allocator a = goap__rt_resolve(alloc);
  goap_blackboard *bb = (goap_blackboard *)goap__rt_alloc(&a, sizeof *bb);
  *out = bb;
  if (!bb) return GOAP_OUT_OF_MEMORY;
  bb->alloc = a;
  return GOAP_OK;
}

void goap_blackboard_destroy(goap_blackboard *bb) {
  if (!bb) return;
  goap_allocator a = bb->alloc;
  for (size_t i = 0; i < bb->n; ++i) goap__rt_free(&a, bb->slots[i].name, bb->slots[i].name_size);
  goap__rt_free(&a, bb->slots, bb->cap * sizeof *bb->slots);
  for (size_t i = 0; i < bb->nres; ++i) {
    goap__rt_free(&a, bb->res[i].name, bb->res[i].name_size);
    goap__rt_free(&a, bb->res[i].who, bb->res[i].cwho * sizeof *bb->res[i].who);
  }
  goap__rt_free(&a, bb->res, bb->cres * sizeof *bb->res);
  goap__rt_free(&a, bb, sizeof *bb);
}

static int find(const goap_blackboard *bb, const char *name) {
  for (size_t i = 0; i < bb->n; ++i)
    if (strcmp(bb->slots[i].name, name) == 0) return (int)i;
  return -1;
}

int goap__bb_slot(goap_blackboard *bb, const char *name, int32_t value, int *created) {
  if (created) *created = 0;
  int i = find(bb, name);
  if (i >= 0) return i;
  if (bb->n >= 0x7fffffff) return -1;
  if (!goap__grow_zero(&bb->alloc, (void **)&bb->slots, &bb->cap, bb->n + 1, sizeof *bb->slots))
    return -1;
  slot *s = &bb->slots[bb->n];
  s->name = goap__rt_strdup(&bb->alloc, name, &s->name_size);
  if (!s->name) return -1;
  s->value = value;
  if (created) *created = 1;
  return (int)bb->n++;
}

int32_t goap__bb_read(const goap_blackboard *bb, int slot_index) {
  return bb->slots[slot_index].value;
}

void goap__bb_write(goap_blackboard *bb, int slot_index, int32_t value) {
  if (bb->slots[slot_index].value == value) return;
  bb->slots[slot_index].value = value;
  bb->version++;
}

void goap__bb_attach(goap_blackboard *bb, int delta) { bb->attached += delta; }

goap_status goap_blackboard_set(goap_blackboard *bb, const char *name, int32_t value) {
  if (!bb || !name) return GOAP_INVALID_ARGUMENT;
  int created = 0;
  int i = goap__bb_slot(bb, name, value, &created);
  if (i < 0) return GOAP_OUT_OF_MEMORY;
  if (created) bb->version++;
  else goap__bb_write(bb, i, value);
  return GOAP_OK;
}

goap_status goap_blackboard_get(const goap_blackboard *bb, const char *name, int32_t *value) {
  if (!bb || !name || !value) return GOAP_INVALID_ARGUMENT;
  int i = find(bb, name);
  if (i < 0) return GOAP_NOT_FOUND;
  *value = bb->slots[i].value;
  return GOAP_OK;
}

uint64_t goap_blackboard_version(const goap_blackboard *bb) { return bb ? bb->version : 0; }

/* ---- reservations ------------------------------------------------------------------------- */

static int find_res(const goap_blackboard *bb, const char *name) {
  for (size_t i = 0; i < bb->nres; ++i)
    if (strcmp(bb->res[i].name, name) == 0) return (int)i;
  return -1;
}

static int new_res(goap_blackboard *bb, const char *name, int capacity) {
  if (bb->nres >= 0x7fffffff) return -1;
  if (!goap__grow_zero(&bb->alloc, (void **)&bb->res, &bb->cres, bb->nres + 1, sizeof *bb->res))
    return -1;
  resource *r = &bb->res[bb->nres];
  r->name = goap__rt_strdup(&bb->alloc, name, &r->name_size);
  if (!r->name) return -1;
  r->capacity = capacity;
  r->held = 0;
  r->anon = 0;
  r->who = NULL;
  r->cwho = 0;
  return (int)bb->nres++;
}

int goap__bb_resource(goap_blackboard *bb, const char *name) {
  int i = find_res(bb, name);
  return i >= 0 ? i : new_res(bb, name, 1);
}

int goap__bb_acquire(goap_blackboard *bb, int res, goap_agent *agent) {
  resource *r = &bb->res[res];
  GOAP_ASSERT(r->anon >= 0 && r->anon <= r->held && r->held <= r->capacity);
  if (r->held >= r->capacity) return 0;
  int n = r->held - r->anon;
  if (!goap__grow_zero(&bb->alloc, (void **)&r->who, &r->cwho, (size_t)n + 1, sizeof *r->who))
    return -1;
  r->who[n] = agent;
  r->held++;
  return 1;
}

const char *goap__bb_resource_name(const goap_blackboard *bb, int res) {
  return bb->res[res].name;
}

void goap__bb_release(goap_blackboard *bb, int res, const goap_agent *agent) {
  resource *r = &bb->res[res];
  int n = r->held - r->anon;
  GOAP_ASSERT(n >= 0 && (size_t)n <= r->cwho);
  for (int i = 0; i < n; ++i) {
    if (r->who[i] != agent) continue;
    memmove(r->who + i, r->who + i + 1, (size_t)(n - i - 1) * sizeof *r->who);
    r->held--;
    return;
  }
}

goap_status goap_blackboard_add_resource(goap_blackboard *bb, const char *name, int capacity) {
  if (!bb || !name || !name[0] || capacity < 0) return GOAP_INVALID_ARGUMENT;
  if (find_res(bb, name) >= 0) return GOAP_DUPLICATE;
  return new_res(bb, name, capacity) >= 0 ? GOAP_OK : GOAP_OUT_OF_MEMORY;
}

goap_status goap_blackboard_set_capacity(goap_blackboard *bb, const char *name, int capacity) {
  if (!bb || !name || capacity < 0) return GOAP_INVALID_ARGUMENT;
  int i = find_res(bb, name);
  if (i < 0) return GOAP_NOT_FOUND;
  if (capacity < bb->res[i].held) return GOAP_INVALID_OPERATION; /* nothing changes */
  bb->res[i].capacity = capacity;
  return GOAP_OK;
}

goap_status goap_blackboard_resource(const goap_blackboard *bb, const char *name, int *held,
                                     int *capacity) {
  if (!bb || !name) return GOAP_INVALID_ARGUMENT;
  int i = find_res(bb, name);
  if (i < 0) return GOAP_NOT_FOUND;
  if (held) *held = bb->res[i].held;
  if (capacity) *capacity = bb->res[i].capacity;
  return GOAP_OK;
}

goap_status goap_blackboard_holders(const goap_blackboard *bb, const char *name,
                                    goap_agent **out, int cap, int *count) {
  if (count) *count = 0;
  if (!bb || !name || cap < 0 || (!out && cap > 0)) return GOAP_INVALID_ARGUMENT;
  int i = find_res(bb, name);
  if (i < 0) return GOAP_NOT_FOUND;
  const resource *r = &bb->res[i];
  if (count) *count = r->held;
  int n = r->held < cap ? r->held : cap;
  for (int k = 0; k < n; ++k) out[k] = k < r->anon ? NULL : r->who[k - r->anon];
  return r->held > cap ? GOAP_BUFFER_TOO_SMALL : GOAP_OK;
}

/* ---- save.c's access ---------------------------------------------------------------------- */

size_t goap__bb_slot_count(const goap_blackboard *bb) { return bb->n; }
const char *goap__bb_slot_name(const goap_blackboard *bb, size_t i) { return bb->slots[i].name; }
size_t goap__bb_resource_count(const goap_blackboard *bb) { return bb->nres; }

void goap__bb_resource_get(const goap_blackboard *bb, size_t i, int *capacity, int *held) {
  *capacity = bb->res[i].capacity;
  *held = bb->res[i].held;
}

void goap__bb_resource_set_held(goap_blackboard *bb, size_t i, int held) {
  resource *r = &bb->res[i];
  r->held = r->anon = held; /* holders unknown until agents claim them */
}

int goap__bb_prepare_claims(goap_blackboard *bb, int res, int units) {
  resource *r = &bb->res[res];
  if (units > r->anon) return 0;
  size_t n = (size_t)(r->held - r->anon) + (size_t)units;
  return goap__grow_zero(&bb->alloc, (void **)&r->who, &r->cwho, n, sizeof *r->who) ? 1 : -1;
}

int goap__bb_claim(goap_blackboard *bb, int res, goap_agent *agent) {
  resource *r = &bb->res[res];
  if (r->anon == 0) return 0;
  int n = r->held - r->anon;
  if ((size_t)n >= r->cwho) return 0; /* goap__bb_prepare_claims was not called */
  r->who[n] = agent; /* the claimed unit joins the known holders, newest last */
  r->anon--;
  return 1;
}
int goap__bb_attached(const goap_blackboard *bb) { return bb->attached; }
void goap__bb_set_version(goap_blackboard *bb, uint64_t version) { bb->version = version; }
const goap_allocator *goap__bb_allocator(const goap_blackboard *bb) { return &bb->alloc; }

void goap__bb_swap(goap_blackboard *a, goap_blackboard *b) {
  goap_blackboard t = *a;
  *a = *b;
  *b = t;
  b->alloc = a->alloc; /* both have the same allocator: keep each its own, and its count */
  a->alloc = t.alloc;
  b->attached = a->attached;
  a->attached = t.attached;
}
