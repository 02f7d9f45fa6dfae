#ifndef LAZY_EMULATOR_H
#define LAZY_EMULATOR_H

// LazyEmulator declares nothing to call: linking it into an executable together with
// NativeAuthEmulator and the linker wrapper of Sources/LazySecretService/linker is what it takes
// (Sources/LazyEmulator/LazyEmulator.c).

#endif
