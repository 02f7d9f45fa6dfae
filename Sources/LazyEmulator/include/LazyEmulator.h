#ifndef LAZY_EMULATOR_H
#define LAZY_EMULATOR_H

// LazyEmulator declares nothing to call: linking it into an executable together with
// NativeAuthEmulator, LazyOpenSSL (the emulator's libcrypto functions) and Package.swift's
// lazyLinkerSettings is what it takes (Sources/LazyEmulator/LazyEmulator.c).

#endif
