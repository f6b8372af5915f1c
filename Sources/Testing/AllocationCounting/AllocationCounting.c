#include "AllocationCounting.h"
#include <stddef.h>

/* glibc's allocator under its internal names: the definitions below interpose the public ones
   (the executable's symbols win over libc's), count, and forward. */
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);

/* Initial-exec TLS of the executable: usable from the first allocation, no allocation itself. */
static __thread int counting;
static __thread uint64_t counted;

void *malloc(size_t size) {
    if (counting) counted++;
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    if (counting) counted++;
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    if (counting) counted++;
    return __libc_realloc(pointer, size);
}

void allocation_counting_start(void) {
    counted = 0;
    counting = 1;
}

uint64_t allocation_counting_stop(void) {
    counting = 0;
    return counted;
}
