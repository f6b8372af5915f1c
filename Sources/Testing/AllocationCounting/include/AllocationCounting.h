#ifndef ALLOCATION_COUNTING_H
#define ALLOCATION_COUNTING_H
#include <stdint.h>

/* Counts the heap allocations (malloc, calloc, realloc) the calling thread makes between start
   and stop. Test support only: linked into the test executable, it defines malloc, calloc and
   realloc, which forward to glibc's own (__libc_malloc, …), so every allocation of the process
   passes through it; only a thread that called start counts, in a thread-local counter. */
void allocation_counting_start(void);
uint64_t allocation_counting_stop(void);

#endif
