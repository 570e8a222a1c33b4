/*
 * hugepage_alloc.h -- the `goap` tool's allocator for one-shot runs (a goap_allocator).
 *
 * Why: a short `goap pddl` run touches a few hundred fresh 4 KB pages (parsing, grounding,
 * the planner's pools), and on a virtual machine each first touch costs 7-16 us, more than the
 * search itself on small tasks. This allocator takes its memory from 2 MB-aligned mappings
 * advised for transparent huge pages (madvise MADV_HUGEPAGE), so the same run faults in one
 * or two huge pages instead. Where the kernel gives no huge pages it still works, with 4 KB
 * pages.
 *
 * How: each block carries a 16-byte header with its class or mapping length, so the old size
 * the library passes back is not needed to free it.
 *  - Blocks up to CLI_HUGEPAGE_SMALL_MAX bytes (header included) come from size classes (four per
 *    power of two, so at most 25% slack) carved from 8 MB chunks; freed blocks go on their
 *    class's free list and are reused; chunks are never returned before cli_hugepage_fini.
 *  - Larger blocks get a mapping of their own, rounded up to 2 MB, returned on free; growing
 *    one moves its pages with mremap instead of copying them.
 *
 * Not thread-safe: one allocator serves one thread's objects (the tool's commands are
 * single-threaded). Not for the library itself, which stays C11 and allocation-agnostic.
 */
#ifndef GOAP_CLI_HUGEPAGE_H
#define GOAP_CLI_HUGEPAGE_H

#include <stddef.h>

#include "goap/goap.h"

#define CLI_HUGEPAGE_SMALL_MAX ((size_t)256 * 1024)
#define CLI_HUGEPAGE_CLASSES 52

typedef struct cli_hugepage {
  void *free_list[CLI_HUGEPAGE_CLASSES]; /* freed small blocks (headers), by class */
  char *bump, *end;                   /* the unused rest of the current chunk */
  void *chunks;                       /* the chunk list (linked through each chunk's start) */
  size_t mapped;                      /* bytes mapped now (chunks and large blocks) */
  size_t huge_advised;                /* bytes madvise(MADV_HUGEPAGE) accepted (a running total) */
  unsigned long maps;                 /* mmap calls so far */
} cli_hugepage;

/* Starts an empty allocator (maps nothing yet). */
void cli_hugepage_init(cli_hugepage *a);

/* Unmaps everything the allocator holds; every block from it becomes invalid. */
void cli_hugepage_fini(cli_hugepage *a);

/* The allocator as a goap_allocator (fn = cli_hugepage_realloc, ctx = a); the zero allocator (the
 * C library) in builds that define GOAP_CLI_NO_ARENA: sanitizer builds, so that
 * AddressSanitizer sees the library's blocks one by one. */
goap_allocator cli_hugepage_allocator(cli_hugepage *a);

/* A goap_realloc_fn: new_size 0 frees ptr (NULL is fine) and returns NULL; ptr NULL allocates;
 * otherwise resizes, keeping min(old, new) bytes. Returns NULL when the system refuses memory
 * (ptr then stays valid). Blocks are 16-byte aligned. old_size is ignored (see above). */
void *cli_hugepage_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size);

/* Size class of a small block of `total` bytes (header included, 1..CLI_HUGEPAGE_SMALL_MAX) and
 * the bytes that class holds (for tests). */
int cli_hugepage_class(size_t total);
size_t cli_hugepage_class_size(int cls);

#endif
