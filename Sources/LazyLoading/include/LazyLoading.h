#ifndef LAZY_LOADING_H
#define LAZY_LOADING_H

// The loader of the Lazy* targets (Sources/LazyLibcurl, Sources/LazyOpenSSL,
// Sources/LazySecretService, Sources/LazyEmulator): functions a program calls from a shared library,
// defined as forwarders that load the library with dlopen at the first call of any of them and then
// pass every call on unchanged, so that a program built with `--static-swift-stdlib` does not load
// the library when it starts (docs/architecture.md, "Libraries loaded at their first call").
//
// A Lazy* target is its library declarations and its forwarders:
//
//     LAZY_LIBRARY(libcurl, "libcurl.so.4", "libcurl", "libcurl4")
//     LAZY_FORWARD(libcurl, int, curl_global_init, (long flags), (flags))
//     LAZY_FORWARD_VOID(libcurl, curl_free, (void *pointer), (pointer))
//
// each forwarder declared before by the library's own header (or a prototype of the target's own),
// so a parameter list that drifts from it does not compile, and the real function is called through
// a pointer of `__typeof__` that prototype. The library is opened once (pthread_once, whatever the
// thread), each function looked up once (an atomic slot per function).
//
// A library or a function that cannot be loaded ends the process: one line on standard error (the
// program, the library, why, and the Debian package to install), then _exit with the status the
// program chose with lazy_loading_set_exit_status (Sources/LazyLoading/LazyLoading.c).

#include <pthread.h>
#include <stdatomic.h>

#pragma GCC visibility push(hidden)

/// The status a program ends with when a library or one of its functions cannot be loaded. Called
/// once at the start, before any thread (native-auth: ExitCode.configuration, 3; as
/// native-auth-emulator: 1, "the server cannot start"). A program that never calls it ends with
/// 127, the dynamic loader's own status for a library it cannot load at start.
void lazy_loading_set_exit_status(int status);

/// One shared library, opened at the first call of any of its forwarders (LAZY_LIBRARY).
struct lazy_library {
    const char *soname;
    /// What to install, in words ("libcurl", "OpenSSL 3"), and its Debian package.
    const char *what;
    const char *package;
    void (*open)(void);
    pthread_once_t once;
    void *handle;
};

/// Opens `library` or ends the process (the open function of LAZY_LIBRARY, under its pthread_once).
void lazy_loading_open(struct lazy_library *library);

/// The address of `name` in the opened `library` (and the libraries it needs), or the process ends.
void *lazy_loading_symbol(struct lazy_library *library, const char *name);

/// The real function behind a forwarder, looked up at its first call and kept in `slot`.
static inline void *lazy_loading_function(_Atomic(void *) *slot, struct lazy_library *library, const char *name) {
    void *function = atomic_load_explicit(slot, memory_order_acquire);
    if (__builtin_expect(function == NULL, 0)) {
        pthread_once(&library->once, library->open);
        function = lazy_loading_symbol(library, name);
        atomic_store_explicit(slot, function, memory_order_release);
    }
    return function;
}

#pragma GCC visibility pop

/// Declares `library` (a static variable of the file): its soname, what to install in words, and
/// the Debian package that has it.
#define LAZY_LIBRARY(library, soname, what, package)                                                                       \
    static void library##_open(void);                                                                                       \
    static struct lazy_library library = {soname, what, package, library##_open, PTHREAD_ONCE_INIT, NULL};                \
    static void library##_open(void) { lazy_loading_open(&library); }

/// The slot of a forwarder that is written by hand (a variadic function passed on through its
/// va_list form): LAZY_SLOT(name) at file scope, then LAZY_REAL(library, name) in the function.
#define LAZY_SLOT(name) static _Atomic(void *) lazy_real_##name;

/// The real function, typed by its prototype. The name is in parentheses so that a header that also
/// defines it as a macro (as newer GLib does for g_strdup and g_str_equal) does not expand it.
#define LAZY_REAL(library, name) ((__typeof__(&(name)))lazy_loading_function(&lazy_real_##name, &library, #name))

/// One forwarder of a function returning a value: `parameters` as the prototype declares them (a
/// mismatch does not compile), `arguments` the same names.
#define LAZY_FORWARD(library, result, name, parameters, arguments)                                                         \
    LAZY_SLOT(name)                                                                                                         \
    result(name) parameters { return LAZY_REAL(library, name) arguments; }

/// One forwarder of a void function.
#define LAZY_FORWARD_VOID(library, name, parameters, arguments)                                                            \
    LAZY_SLOT(name)                                                                                                         \
    void(name) parameters { LAZY_REAL(library, name) arguments; }

#endif
