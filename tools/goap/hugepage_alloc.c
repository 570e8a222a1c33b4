/*
 * hugepage_alloc.c -- the `goap` tool's huge-page allocator for one-shot runs (see hugepage_alloc.h).
 *
 * Invariants:
 *  - Every block is preceded by a 16-byte header: word 0 is the caller's size, word 1 is the
 *    small class (< CLI_HUGEPAGE_CLASSES) or, for a large block, the length of its own mapping
 *    (always >= 2 MB, so the two never collide). The caller's pointer is header + 16.
 *  - A small block of class c spans cli_hugepage_class_size(c) bytes, header included, inside a
 *    chunk; a freed one is pushed on free_list[c] with its link in the header's word 0.
 *  - Chunks and large mappings start on a 2 MB boundary and span whole 2 MB units, so the
 *    kernel can back them with huge pages; a chunk's first 16 bytes link it to the next chunk.
 *  - `mapped` counts the bytes of every live chunk and large mapping.
 */
#if !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* mremap, MAP_ANONYMOUS */
#endif
#include "hugepage_alloc.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE ((size_t)2 * 1024 * 1024)
#define CHUNK ((size_t)8 * 1024 * 1024)
#define HDR ((size_t)16)

/* blocks sit 16 bytes past a 16-byte boundary: aligned for any object, as malloc's */
_Static_assert(_Alignof(max_align_t) <= 16, "the header keeps 16-byte alignment only");

typedef struct hdr {
  size_t size; /* the caller's size (or, when free, the next free block) */
  size_t kind; /* class, or mapping length for a large block */
} hdr;

int cli_hugepage_class(size_t total) {
  if (total <= 64) return (int)((total + 15) / 16) - 1;
  int k = 0;
  for (size_t v = total - 1; v > 1; v >>= 1) k++; /* total in (2^k, 2^(k+1)] */
  size_t step = (size_t)1 << (k - 2);
  size_t q = (total + step - 1) / step; /* 5..8 */
  return 4 + (k - 6) * 4 + (int)(q - 5);
}

size_t cli_hugepage_class_size(int cls) {
  if (cls < 4) return (size_t)(cls + 1) * 16;
  int j = cls - 4;
  return (size_t)(5 + j % 4) << (6 + j / 4 - 2);
}

/* A 2 MB-aligned anonymous mapping of len bytes (a multiple of 2 MB), advised for huge pages. */
static char *map_aligned(cli_hugepage *a, size_t len) {
  char *raw = mmap(NULL, len + HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return NULL;
  uintptr_t at = ((uintptr_t)raw + HUGE - 1) & ~(uintptr_t)(HUGE - 1);
  char *p = (char *)at;
  size_t head = (size_t)(p - raw), tail = HUGE - head;
  if (head) munmap(raw, head);
  if (tail) munmap(p + len, tail);
  a->maps++;
  a->mapped += len;
#if defined(MADV_HUGEPAGE)
  if (madvise(p, len, MADV_HUGEPAGE) == 0) a->huge_advised += len;
#endif
  return p;
}

static void unmap(cli_hugepage *a, void *p, size_t len) {
  munmap(p, len);
  a->mapped -= len;
}

void cli_hugepage_init(cli_hugepage *a) { memset(a, 0, sizeof *a); }

void cli_hugepage_fini(cli_hugepage *a) {
  while (a->chunks) {
    void *next;
    memcpy(&next, a->chunks, sizeof next);
    unmap(a, a->chunks, CHUNK);
    a->chunks = next;
  }
  /* large blocks still live are the caller's leak; they go with the process */
  memset(a->free_list, 0, sizeof a->free_list);
  a->bump = a->end = NULL;
}

goap_allocator cli_hugepage_allocator(cli_hugepage *a) {
  goap_allocator al;
#if defined(GOAP_CLI_NO_ARENA)
  (void)a;
  al.fn = NULL;
  al.ctx = NULL;
#else
  al.fn = cli_hugepage_realloc;
  al.ctx = a;
#endif
  return al;
}

static hdr *small_alloc(cli_hugepage *a, int cls) {
  hdr *h = a->free_list[cls];
  if (h) {
    a->free_list[cls] = (void *)h->size;
    return h;
  }
  size_t span = cli_hugepage_class_size(cls);
  if ((size_t)(a->end - a->bump) < span) {
    char *c = map_aligned(a, CHUNK);
    if (!c) return NULL;
    memcpy(c, &a->chunks, sizeof a->chunks);
    a->chunks = c;
    a->bump = c + HDR; /* the chunk link; keeps blocks 16-byte aligned */
    a->end = c + CHUNK;
  }
  h = (hdr *)(void *)a->bump;
  a->bump += span;
  h->kind = (size_t)cls;
  return h;
}

static hdr *large_alloc(cli_hugepage *a, size_t total) {
  size_t len = (total + HUGE - 1) & ~(HUGE - 1);
  hdr *h = (hdr *)(void *)map_aligned(a, len);
  if (h) h->kind = len;
  return h;
}

static void release(cli_hugepage *a, hdr *h) {
  if (h->kind < CLI_HUGEPAGE_CLASSES) {
    h->size = (size_t)a->free_list[h->kind];
    a->free_list[h->kind] = h;
  } else {
    unmap(a, h, h->kind);
  }
}

void *cli_hugepage_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
  cli_hugepage *a = ctx;
  (void)old_size;
  hdr *h = ptr ? (hdr *)(void *)((char *)ptr - HDR) : NULL;
  if (new_size == 0) {
    if (h) release(a, h);
    return NULL;
  }
  if (new_size > SIZE_MAX - HUGE - HDR) return NULL;
  size_t total = new_size + HDR;
  if (h) {
    int small = h->kind < CLI_HUGEPAGE_CLASSES;
    /* in place: a small block whose class fits the new size exactly, or a large block whose
     * mapping still holds the new (large) size */
    if (small ? total <= CLI_HUGEPAGE_SMALL_MAX && cli_hugepage_class(total) == (int)h->kind
              : total > CLI_HUGEPAGE_SMALL_MAX && total <= h->kind) {
      h->size = new_size;
      return ptr;
    }
    if (!small && total > CLI_HUGEPAGE_SMALL_MAX) {
      /* large to larger: move the pages to a fresh aligned range */
      size_t len = (total + HUGE - 1) & ~(HUGE - 1);
      char *dst = map_aligned(a, len);
      if (!dst) return NULL;
      size_t old_len = h->kind;
#if defined(__linux__)
      void *moved = mremap(h, old_len, len, MREMAP_MAYMOVE | MREMAP_FIXED, dst);
#else
      void *moved = MAP_FAILED; /* no mremap: copy */
#endif
      if (moved == MAP_FAILED) {
        memcpy(dst, h, HDR + h->size);
        unmap(a, h, old_len);
      } else {
        a->mapped -= old_len; /* the old range is gone; dst's length was counted */
      }
      hdr *nh = (hdr *)(void *)dst;
      nh->kind = len;
      nh->size = new_size;
      return dst + HDR;
    }
  }
  hdr *nh = total <= CLI_HUGEPAGE_SMALL_MAX ? small_alloc(a, cli_hugepage_class(total))
                                         : large_alloc(a, total);
  if (!nh) return NULL;
  nh->size = new_size;
  if (h) {
    memcpy((char *)nh + HDR, ptr, h->size < new_size ? h->size : new_size);
    release(a, h);
  }
  return (char *)nh + HDR;
}
