#ifndef LAZY_OPENSSL_H
#define LAZY_OPENSSL_H

// LazyOpenSSL declares nothing to call: linking it into an executable with Package.swift's
// lazyLinkerSettings is what it takes (Sources/LazyOpenSSL/LazyOpenSSL.c).

#endif
