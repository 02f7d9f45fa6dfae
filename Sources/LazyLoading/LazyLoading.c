// The loader of Sources/LazyLoading/include/LazyLoading.h: opening a library, looking a function up,
// and the one failure rule of every Lazy* target.
//
// A library or a function that cannot be loaded is a machine without a package (or with an older
// one): one line on standard error naming the program, the library, why (dlerror's text) and the
// package to install, then _exit with the program's status. _exit, not exit or abort: the failure
// can come in any thread, in the middle of any call, and is the dynamic loader's failure at start
// moved to the first call, which neither runs atexit handlers nor leaves a core file.
//
// The status is the program's (lazy_loading_set_exit_status): native-auth's ExitCode.configuration,
// 3 (docs/cli.md#exit-codes), or 1 when it runs as native-auth-emulator (the emulator's "the server
// cannot start"), set in Sources/native-auth/main.swift. A program that never sets it (the benchmark
// Benchmarks/msal-fresh-token) ends with 127, the status the dynamic loader ends a program with
// when a library it needs is missing: no program's own status is claimed for it
// (docs/decisions.md, "A library loaded at its first call cannot be loaded").

#define _GNU_SOURCE
#include "LazyLoading.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

static _Atomic int exitStatus = 127;

void lazy_loading_set_exit_status(int status) { atomic_store_explicit(&exitStatus, status, memory_order_relaxed); }

static _Noreturn void fail(const struct lazy_library *library, const char *why) {
    fprintf(stderr, "%s: cannot load %s (%s); install %s: on Debian and Ubuntu, apt install %s\n", program_invocation_short_name,
            library->soname, why != NULL ? why : "unknown error", library->what, library->package);
    _exit(atomic_load_explicit(&exitStatus, memory_order_relaxed));
}

void lazy_loading_open(struct lazy_library *library) {
    library->handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
    if (library->handle == NULL) fail(library, dlerror());
}

void *lazy_loading_symbol(struct lazy_library *library, const char *name) {
    (void)dlerror();
    void *function = dlsym(library->handle, name);
    if (function == NULL) {
        // dlerror names the library's file and the symbol ("…/libcurl.so.4: undefined symbol: …").
        const char *why = dlerror();
        char missing[256];
        if (why == NULL) {
            snprintf(missing, sizeof missing, "no %s", name);
            why = missing;
        }
        fail(library, why);
    }
    return function;
}
