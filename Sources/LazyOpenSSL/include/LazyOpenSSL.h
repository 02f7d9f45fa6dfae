#ifndef LAZY_OPENSSL_H
#define LAZY_OPENSSL_H

// LazyOpenSSL declares nothing to call: linking it into an executable with the linker scripts in
// link/ is what it takes (Sources/LazyOpenSSL/LazyOpenSSL.c, Package.swift's lazyOpenSSLLinkerSettings).

#endif
