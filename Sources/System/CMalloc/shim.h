// glibc's allocator controls (mallopt, malloc_trim, mallinfo2), which Swift's Glibc module does
// not show. Empty where the C library is not glibc.
#if defined(__linux__)
#include <features.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#endif
