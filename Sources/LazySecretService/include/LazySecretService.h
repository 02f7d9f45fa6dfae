#ifndef LAZY_SECRET_SERVICE_H
#define LAZY_SECRET_SERVICE_H

// LazySecretService declares nothing to call: linking it into an executable together with
// MSALSecretService and Package.swift's lazyLinkerSettings is what it takes
// (Sources/LazySecretService/LazySecretService.c).

#endif
