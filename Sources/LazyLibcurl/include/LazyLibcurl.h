#ifndef LAZY_LIBCURL_H
#define LAZY_LIBCURL_H

// LazyLibcurl declares nothing to call: linking it into an executable built with
// --static-swift-stdlib is what it takes (Sources/LazyLibcurl/LazyLibcurl.c, Package.swift's
// lazyLinkerSettings).

#endif
