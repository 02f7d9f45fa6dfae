#ifndef LAZY_LIBCURL_H
#define LAZY_LIBCURL_H

#include <stdbool.h>

/// Whether libcurl has been loaded by the forwarders of this target (the first libcurl call of
/// the process loads it). See Sources/LazyLibcurl/LazyLibcurl.c.
bool lazy_libcurl_is_loaded(void);

#endif
