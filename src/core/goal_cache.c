/*
 * goal_cache.c -- the planner's goal cache (used by prepare() in planner.c).
 *
 * Invariants:
 *  - What prepare() derives from a goal alone -- its compiled tests (goal_ft, goal_mask/val),
 *    the relevance analysis and action selection (active, act2idx, aflag, acost, var_best),
 *    the numbers of the cheap heuristics and the small-mode tables -- lives in one of a few
 *    slots, keyed by the goal's content: the selection flags, the conditions (compared in
 *    full; the hash only screens) and, for a request with a cost array, the stamp of that
 *    array's content. A request whose key is in a slot points the planner's arrays at that
 *    slot and restores a few numbers: no analysis, no copy. A miss refills the least recently
 *    used slot.
 *  - Each selection gets its own serial (goal_serial), so the structures built lazily per
 *    selection (successor index, LM-cut compilation, recheck fan-out) are rebuilt exactly when
 *    the request's selection is not the one they were built for.
 *  - Domains with callbacks: a check or a dynamic cost may answer differently on every
 *    request (it reads the host), so only the goal's compiled form is reused as such; the
 *    callbacks are asked again on every request (once per action, as before). When the slot's
 *    selection was made with every callback accepting and they all accept again with the same
 *    costs, the selection stands (planner.c, reselect_fast); otherwise it is made again.
 *  - gslot_map, indexed by a key hash's low bits, names the slot found last with such a hash: a
 *    hint, checked like any slot, so a stale one costs only the scan it would have saved.
 *    gslot_hint (goal_cache.h), indexed by bits of the request's want array's address, names
 *    the slot found last for a request with its goal there: a hint checked by content (every
 *    part of the key compared, not the hash), which spares hashing the key when the caller
 *    keeps its goal arrays (as a game keeps one per goal); the key is never the address.
 *  - The slots' arrays are carved from one block allocated at creation; a request allocates
 *    only when its goal is longer than any its slot held (more than GSLOT_WANT conditions).
 */
#include <string.h>

#include "goal_cache.h"

#define GSLOT_WANT 8         /* conditions each slot holds without an allocation of its own */
#define GSLOT_MAX 256
#define GSLOT_BUDGET 65536   /* default: slots whose arrays take about this many bytes, */
#define GSLOT_DEFAULT 16     /* at most this many */

static size_t al8(size_t n) { return (n + 7) & ~(size_t)7; }

/* The bytes of one slot's arrays; with base, points g's arrays into base. */
static size_t gslot_carve(const goap_planner *p, goap__gslot *g, unsigned char *base) {
  size_t A = (size_t)p->d->nactions, V = (size_t)p->d->nvars, W = p->W;
  size_t S = p->quick ? (A < 64 ? A : 64) : 0, T = (size_t)p->small_nib * 32, off = 0;
#define CARVE(field, n, type)                                                                 \
  do {                                                                                        \
    if (base) g->field = (type *)(void *)(base + off);                                        \
    off += al8(((n) ? (n) : 1) * sizeof(type));                                               \
  } while (0)
  CARVE(acost, A, double);
  CARVE(var_best, V, double);
  CARVE(goal_mask, W, goap_word);
  CARVE(goal_val, W, goap_word);
  CARVE(goal_best, GSLOT_WANT, double);
  CARVE(goal_ft, GSLOT_WANT, goap__ftest);
  CARVE(small_aff, S, uint64_t);
  CARVE(small_q, S, goap__quick);
  CARVE(small_tab, T, uint64_t);
  CARVE(want, GSLOT_WANT, goap_cond);
  CARVE(active, A, int32_t);
  CARVE(act2idx, A, int32_t);
  CARVE(aflag, A, uint8_t);
#undef CARVE
  if (base) {
    g->cap_want = GSLOT_WANT;
    if (!S) {
      g->small_q = NULL;
      g->small_aff = NULL;
    }
    if (!p->small_nib) g->small_tab = NULL;
  }
  return off;
}

/* The planner's numbers of the selection just made into slot g. */
void goap__gslot_save(const goap_planner *p, goap__gslot *g) {
  g->nwant = p->nwant;
  g->goal_never = p->goal_never;
  g->nactive = p->nactive;
  g->max_achieve = p->max_achieve;
  g->max_eff_active = p->max_eff_active;
  g->small = p->small;
  g->cmin = p->cmin;
  g->gc_scale = p->gc_scale;
  g->req_costs = p->req_costs;
  g->cb_all = p->cb_rejects == 0;
  g->fan_ok = 0;
  g->serial = p->goal_serial;
}

goap_status goap__gcache_create(goap_planner *p, uint32_t want_slots) {
  size_t per = gslot_carve(p, NULL, NULL);
  size_t n = want_slots;
  if (n == 0) {
    n = GSLOT_BUDGET / per;
    if (n > GSLOT_DEFAULT) n = GSLOT_DEFAULT;
    if (n < 1) n = 1;
  }
  if (n > GSLOT_MAX) n = GSLOT_MAX;
  p->gslots = (goap__gslot *)goap__alloc(&p->alloc, n * sizeof *p->gslots);
  p->gslot_block = goap__alloc(&p->alloc, n * per);
  p->gslot_block_bytes = n * per; /* the sizes gcache_free gives back, also after a failure */
  p->ngslots = (int)n;
  if (!p->gslots || !p->gslot_block) return GOAP_OUT_OF_MEMORY;
  p->memory += n * (per + sizeof *p->gslots);
  memset(p->gslots, 0, n * sizeof *p->gslots);
  memset(p->gslot_block, 0, n * per);
  for (size_t i = 0; i < n; ++i)
    (void)gslot_carve(p, &p->gslots[i], (unsigned char *)p->gslot_block + i * per);
  p->gslot_current = -1;
  goap__gslot_use(p, 0); /* the arrays are never NULL */
  return GOAP_OK;
}

void goap__gcache_free(goap_planner *p) {
  for (int i = 0; p->gslots && p->gslot_block && i < p->ngslots; ++i) {
    goap__gslot *g = &p->gslots[i];
    if (!g->want_own) continue;
    goap__free(&p->alloc, g->want, g->cap_want * sizeof *g->want);
    goap__free(&p->alloc, g->goal_ft, g->cap_want * sizeof *g->goal_ft);
    goap__free(&p->alloc, g->goal_best, g->cap_want * sizeof *g->goal_best);
  }
  if (p->gslot_block) goap__free(&p->alloc, p->gslot_block, p->gslot_block_bytes);
  if (p->gslots) goap__free(&p->alloc, p->gslots, (size_t)p->ngslots * sizeof *p->gslots);
  p->gslots = NULL;
  p->gslot_block = NULL;
}

/* Slot g holds at least nw conditions (a longer goal moves its three arrays out of the block;
 * they then stay its own and only grow). */
goap_status goap__gslot_reserve(goap_planner *p, goap__gslot *g, size_t nw) {
  if (nw <= g->cap_want) return GOAP_OK;
  size_t old = g->cap_want, ncap = old ? old : GSLOT_WANT;
  while (ncap < nw) ncap *= 2;
  goap_cond *wv = (goap_cond *)goap__alloc(&p->alloc, ncap * sizeof *wv);
  goap__ftest *ft = (goap__ftest *)goap__alloc(&p->alloc, ncap * sizeof *ft);
  double *gb = (double *)goap__alloc(&p->alloc, ncap * sizeof *gb);
  if (!wv || !ft || !gb) {
    goap__free(&p->alloc, wv, ncap * sizeof *wv);
    goap__free(&p->alloc, ft, ncap * sizeof *ft);
    goap__free(&p->alloc, gb, ncap * sizeof *gb);
    return GOAP_OUT_OF_MEMORY;
  }
  if (g->want_own) {
    goap__free(&p->alloc, g->want, old * sizeof *g->want);
    goap__free(&p->alloc, g->goal_ft, old * sizeof *g->goal_ft);
    goap__free(&p->alloc, g->goal_best, old * sizeof *g->goal_best);
    p->memory -= old * (sizeof *wv + sizeof *ft + sizeof *gb);
  }
  g->want = wv;
  g->goal_ft = ft;
  g->goal_best = gb;
  g->cap_want = ncap;
  g->want_own = 1;
  p->memory += ncap * (sizeof *wv + sizeof *ft + sizeof *gb);
  return GOAP_OK;
}

uint64_t goap__gkey_hash(const goap_cond *w, int n, unsigned flags, int costs, uint32_t stamp) {
  uint64_t h = 0xcbf29ce484222325ull ^ ((uint64_t)flags << 1) ^ (uint64_t)(costs != 0) ^
               ((uint64_t)(costs ? stamp : 0u) << 32);
  for (int i = 0; i < n; ++i) {
    uint64_t k = (uint64_t)(uint32_t)w[i].var | (uint64_t)(uint32_t)w[i].op << 24 |
                 (uint64_t)(uint32_t)w[i].value << 32;
    h = (h ^ k) * 0x100000001b3ull;
    h ^= h >> 29;
  }
  return h ^ (uint64_t)(uint32_t)n;
}

/* Slot i holds the request's key (the key's hash h is compared first unless hashed is 0). */
static int gslot_is(const goap_planner *p, int i, const goap_request *req, unsigned flags,
                    uint64_t h, int hashed) {
  const goap__gslot *g = &p->gslots[i];
  int n = req->want_count, costs = req->costs != NULL;
  if ((hashed && g->hash != h) || !g->serial || g->nwant != n || g->flags != flags ||
      g->req_costs != costs || (costs && g->cost_stamp != p->cost_stamp))
    return 0;
  for (int j = 0; j < n; ++j)
    if (g->want[j].var != req->want[j].var || g->want[j].op != req->want[j].op ||
        g->want[j].value != req->want[j].value)
      return 0;
  return 1;
}

/* The slot holding the request's key, or -1: the slot gslot_map remembers for the hash's low bits
 * first, then every slot (the one found is remembered). */
int goap__gslot_find(goap_planner *p, const goap_request *req, unsigned flags, uint64_t h) {
  unsigned k = (unsigned)(h & 63u);
  int i = p->gslot_map[k];
  if (i < p->ngslots && gslot_is(p, i, req, flags, h, 1)) return i;
  for (i = 0; i < p->ngslots; ++i) {
    if (p->gslots[i].hash != h || !gslot_is(p, i, req, flags, h, 1)) continue;
    p->gslot_map[k] = (uint8_t)i;
    return i;
  }
  return -1;
}

/* A new serial for the selection about to be made; when the serials wrap, every slot and
 * every structure built for a serial is forgotten. */
void goap__gserial_new(goap_planner *p) {
  if (++p->serial_last == 0) {
    p->serial_last = 1;
    for (int i = 0; i < p->ngslots; ++i) p->gslots[i].serial = p->gslots[i].sg.serial = p->gslots[i].mg.serial = 0;
    p->gslot_current = -1;
    p->succ.serial = 0;
    p->fan_serial = 0;
    p->lm.built = 0;
  }
  p->goal_serial = p->serial_last;
}
