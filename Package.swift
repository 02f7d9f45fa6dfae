// swift-tools-version:6.0
import PackageDescription

// Shared libraries loaded at their first call rather than at start, for executables built with
// `--static-swift-stdlib` that often finish without them (docs/architecture.md, "Libraries loaded at
// their first call"): libcurl (Sources/LazyLibcurl), libssl and libcrypto (Sources/LazyOpenSSL),
// libsecret and GLib (Sources/LazySecretService), libmicrohttpd (Sources/LazyEmulator), each a list
// of forwarders over Sources/LazyLoading. Such a target depends on the Lazy* targets of the
// libraries it would otherwise link and takes these settings: the linker wrapper in
// Sources/LazyLoading/linker (found by clang through -B) links with --as-needed, so a library whose
// every function a forwarder defines is not recorded as a dependency.
let lazyLinkerSettings: [LinkerSetting] = [
    .unsafeFlags(["-Xclang-linker", "-B" + Context.packageDirectory + "/Sources/LazyLoading/linker/"])
]

let package = Package(
    name: "msal-native-auth-linux",
    products: [
        // The SDK. Foundation only: an app that depends on this product alone builds without
        // ncurses, OpenSSL or libmicrohttpd on the machine.
        .library(name: "MSAL", targets: ["MSAL"]),
        // The token cache in the desktop keyring (Secret Service, through libsecret), shared with
        // MSAL for Python's msal-extensions. Optional: only apps that use it need libsecret.
        .library(name: "MSALSecretService", targets: ["MSALSecretService"]),
        // Redis for apps on several machines (docs/redis.md): a synchronous client (TCP, unix
        // sockets, TLS, ACL, Cluster) and saved sign-ins any worker can continue once. Optional:
        // only apps that use it need OpenSSL's libssl.
        .library(name: "MSALRedis", targets: ["MSALRedis"]),
        // Test doubles for apps that embed the SDK: a strict stub transport, recording delegates and a
        // headless browser for acquireToken.
        .library(name: "NativeAuthTesting", targets: ["NativeAuthTesting"]),
        // The local native-auth server, as a library (in-process) and as a command.
        .library(name: "NativeAuthEmulator", targets: ["NativeAuthEmulator"]),
        .executable(name: "native-auth-emulator", targets: ["native-auth-emulator"]),
        // The terminal demo: the "call two protected APIs" screen, emulator embedded by default.
        .executable(name: "multi-api-demo", targets: ["multi-api-demo"]),
        // The Redis example: two worker processes and one Redis share a sign-in and a token cache.
        .executable(name: "redis-workers", targets: ["redis-workers"]),
        // The C interface (Bindings/C/include/msal_native_auth.h) as a shared library,
        // libmsalnativeauth.so. scripts/build-bindings builds it release with the Swift runtime and
        // Foundation linked in; the Python package (Bindings/Python) loads it.
        .library(name: "msalnativeauth", type: .dynamic, targets: ["msalnativeauth"]),
        // The command-line tool (docs/cli.md): sign in, print access tokens for scripts. The keyring
        // store is linked in, libsecret loaded at the first keyring call (docs/cli.md#the-keyring).
        .executable(name: "native-auth", targets: ["native-auth"]),
    ],
    targets: [
        .target(name: "MSAL"),
        // The one option parser of native-auth and native-auth-emulator: the rules, typed options
        // declared once for parsing and help (docs/decisions.md#the-command-line-parser). No
        // dependencies, not even Foundation.
        .target(name: "CommandLineOptions"),
        .target(name: "NativeAuthTesting", dependencies: ["MSAL"]),
        .systemLibrary(name: "CSecretService", pkgConfig: "libsecret-1", providers: [.apt(["libsecret-1-dev"])]),
        .target(name: "MSALSecretService", dependencies: ["MSAL", "CSecretService"]),
        // OpenSSL's libssl and libcrypto for MSALRedis: the TLS client and AES-256-GCM, through a C shim.
        // No pkgConfig: the modulemap's `link` lines and /usr/include are all it needs. native-auth, which
        // links LazyOpenSSL's forwarders and lazyLinkerSettings, then records neither library as needed.
        .systemLibrary(name: "CRedisTLS", providers: [.apt(["libssl-dev"])]),
        // The Redis client and what is built on it; the RESP reader is its own (README.md#dependencies says why).
        .target(name: "MSALRedis", dependencies: ["MSAL", "CRedisTLS"]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // Imports MSAL's public API (for `HTTPTransport`) and one `package` type, the lock box `Locked`
        // (Sources/MSAL/Support/Locked.swift); never MSAL's internals.
        .target(name: "NativeAuthEmulator", dependencies: ["MSAL", "CMicroHTTPD", "CCrypto", "CommandLineOptions"]),
        .executableTarget(name: "native-auth-emulator", dependencies: ["NativeAuthEmulator"]),
        // No pkgConfig: ncursesw's .pc file adds -D flags SwiftPM refuses; the headers are in /usr/include.
        .systemLibrary(name: "CNCurses", providers: [.apt(["libncurses-dev"])]),
        // The demo's screen logic (model, pure update, render into a canvas, the tutorial's
        // controller) apart from the terminal, so that it is tested without one.
        .target(
            name: "MultiAPIDemoKit", dependencies: ["MSAL", "MSALSecretService", "NativeAuthEmulator", "NativeAuthAppConfig"],
            path: "Examples/MultiAPIDemo/Kit"),
        // The configuration file format the demo and the command-line tool share (parsing, and the
        // SDK configuration it describes); its `redis` object is read by MSALRedis's reader, which
        // the C interface shares.
        .target(name: "NativeAuthAppConfig", dependencies: ["MSAL", "MSALRedis"]),
        // The command-line tool's logic (arguments, commands, prompts, files, exit codes), apart
        // from its thin executables so that tests call it in process.
        // MSALRedis for `"token_cache": "redis"` and `"saved_sign_ins": "redis"` (docs/cli.md#redis).
        .target(name: "NativeAuthCLI", dependencies: ["MSAL", "MSALRedis", "NativeAuthAppConfig", "CommandLineOptions"]),
        // Also the emulator when started as native-auth-emulator (docs/cli.md#one-program-three-names).
        .executableTarget(
            name: "native-auth",
            dependencies: [
                "NativeAuthCLI", "MSALSecretService", "NativeAuthEmulator", "LazyLibcurl", "LazyOpenSSL", "LazySecretService",
                "LazyEmulator", "LazyLoading",
            ],
            linkerSettings: lazyLinkerSettings),
        // Writes the tool's manual page and shell completions (NativeAuthCLI's CommandReference) and the
        // emulator's manual page, for scripts/package.
        .executableTarget(name: "native-auth-docs", dependencies: ["NativeAuthCLI", "NativeAuthEmulator"]),
        // `@_cdecl` functions over MSAL's public API, for C, Python (ctypes) and other languages, and three
        // `package` entries besides (Bindings/README.md names them); MSALRedis for "cache": "redis".
        .target(name: "msalnativeauth", dependencies: ["MSAL", "MSALRedis"], path: "Bindings/C/Sources"),
        // The Swift reference of the bindings' cached-token benchmark (scripts/bench-bindings).
        .executableTarget(
            name: "bench-cached-token-swift", dependencies: ["MSAL"], path: "Bindings/Benchmarks/bench-cached-token-swift"),
        .executableTarget(name: "multi-api-demo", dependencies: ["MultiAPIDemoKit", "CNCurses"], path: "Examples/MultiAPIDemo/App"),
        // The Redis example's steps, workers and processes (Examples/RedisWorkers/README.md), apart from its thin executable.
        .target(name: "RedisWorkersKit", dependencies: ["MSAL", "MSALRedis", "NativeAuthEmulator"], path: "Examples/RedisWorkers/Kit"),
        .executableTarget(name: "redis-workers", dependencies: ["RedisWorkersKit"], path: "Examples/RedisWorkers/App"),
        // The benchmark program (run with scripts/bench, release build); NativeAuthTesting's in-memory entry
        // store stands in for a shared server in the shared-cache figures, and a redis-server it starts
        // serves the Redis figures (MSALRedis).
        .executableTarget(
            name: "msal-benchmarks", dependencies: ["MSAL", "MSALRedis", "NativeAuthEmulator", "NativeAuthTesting"],
            path: "Benchmarks/msal-benchmarks"),
        // The loader the Lazy* targets share: the macros of a library and its forwarders, and the one
        // failure rule (lazy_loading_set_exit_status); linker/ holds lazyLinkerSettings' wrapper.
        .target(name: "LazyLoading", exclude: ["linker"]),
        // libcurl's functions that FoundationNetworking calls, loading libcurl at the first call.
        .target(name: "LazyLibcurl", dependencies: ["LazyLoading"]),
        // The libssl and libcrypto functions MSALRedis and NativeAuthEmulator call, loading each library at
        // the first call of one of its functions (one libcrypto handle for both).
        .target(name: "LazyOpenSSL", dependencies: ["LazyLoading"]),
        // libsecret's and GLib's functions that MSALSecretService calls, loading libsecret at the first
        // call; typed by libsecret's headers, hence CSecretService.
        .target(name: "LazySecretService", dependencies: ["LazyLoading", "CSecretService"]),
        // libmicrohttpd's functions that NativeAuthEmulator calls, loading it at the first call, for
        // native-auth, which is also the emulator (its libcrypto functions are LazyOpenSSL's).
        .target(name: "LazyEmulator", dependencies: ["LazyLoading", "CMicroHTTPD"]),
        // A fresh process printing one cached token, and a Foundation program that only prints (its floor):
        // `msal-benchmarks --only fresh-token`, which scripts/bench builds both ways (with and without --static-swift-stdlib).
        .executableTarget(
            name: "msal-fresh-token", dependencies: ["MSAL", "LazyLibcurl"], path: "Benchmarks/msal-fresh-token",
            linkerSettings: lazyLinkerSettings),
        .executableTarget(name: "bare-foundation", path: "Benchmarks/bare-foundation"),
        // libFuzzer targets (scripts/fuzz builds them with --sanitize=fuzzer --sanitize=address).
        .executableTarget(
            name: "msal-fuzz", dependencies: ["MSAL", "NativeAuthEmulator"], path: "Fuzz/msal-fuzz",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
        // Test helper: processes writing one cache file, one killed mid-write (also scripts/bench's memory figure).
        .executableTarget(name: "msal-cache-stress", dependencies: ["MSAL"], path: "Tests/Tools/msal-cache-stress"),
        // Test helper: the second process of the saved-state tests (restores a state from stdin, takes one step).
        .executableTarget(name: "msal-flow-step", dependencies: ["MSAL"], path: "Tests/Tools/msal-flow-step"),
        // Test helper: a second (and third) process for the Redis tests: concurrent writers, a saved
        // sign-in taken in another process.
        .executableTarget(name: "msal-redis-helper", dependencies: ["MSALRedis"], path: "Tests/Tools/msal-redis-helper"),
        // Test helper: keyring processes (several writers, a locked keyring, no Secret Service).
        .executableTarget(
            name: "msal-keyring-helper", dependencies: ["MSAL", "MSALSecretService"], path: "Tests/Tools/msal-keyring-helper"),
        // Helpers the test targets share (browser sign-in turn, own sockets, emulator harness); never a product.
        .target(name: "TestSupport", dependencies: ["MSAL", "NativeAuthEmulator", "NativeAuthTesting"], path: "Tests/TestSupport"),
        .testTarget(
            name: "MSALTests",
            dependencies: ["MSAL", "NativeAuthTesting", "TestSupport"],
            exclude: ["Golden", "Fixtures/make_msal_python_cache.py", "DocumentSnippets"],
            resources: [.copy("Fixtures/msal-python-cache.json")]
        ),
        // The emulator's own tests: its router, endpoints, server, command and in-process transport.
        .testTarget(
            name: "NativeAuthEmulatorTests",
            dependencies: ["NativeAuthEmulator", "MSAL", "NativeAuthTesting", "TestSupport", "CommandLineOptions"]),
        // The SDK end to end against the emulator (in process and over loopback, a real browser too).
        .testTarget(
            name: "MSALEndToEndTests", dependencies: ["MSAL", "NativeAuthEmulator", "NativeAuthTesting", "TestSupport"],
            exclude: ["real_browser_sign_in.py"]),
        .testTarget(name: "msalnativeauthTests", dependencies: ["msalnativeauth"], path: "Bindings/C/Tests/msalnativeauthTests"),
        .testTarget(
            name: "MultiAPIDemoTests",
            dependencies: ["MultiAPIDemoKit", "MSAL", "MSALSecretService", "NativeAuthEmulator", "NativeAuthTesting", "TestSupport"],
            exclude: ["Golden"]),
        // Client code written as MSAL's documentation, sample app and tests write it (plain
        // delegate spies, screens serving several delegates), built in the Swift 6 language mode;
        // MSALCompatibilitySwift5Tests builds the same files (a link to them) in Swift 5 mode.
        .testTarget(name: "MSALCompatibilityTests", dependencies: ["MSAL", "NativeAuthEmulator"]),
        .testTarget(
            name: "MSALCompatibilitySwift5Tests", dependencies: ["MSAL", "NativeAuthEmulator"],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        // NativeAuthTesting as an app's tests use it: the stub transport and the recording delegate.
        .testTarget(name: "NativeAuthTestingTests", dependencies: ["NativeAuthTesting", "MSAL", "TestSupport"]),
        // Needs a Secret Service: scripts/test-keyring runs it (and DemoKeyringTests) in a private D-Bus session.
        .testTarget(
            name: "MSALSecretServiceTests", dependencies: ["MSALSecretService", "MSAL", "NativeAuthEmulator", "TestSupport"],
            exclude: ["msal_extensions_interop.py"]),
        // MSALRedis against real redis-server processes the tests start and stop themselves (plain,
        // ACL, TLS, AOF, a three-node cluster), and msal-redis-helper as a second process.
        .testTarget(
            name: "MSALRedisTests", dependencies: ["MSALRedis", "MSAL", "NativeAuthEmulator", "NativeAuthTesting", "TestSupport"]),
        // The command-line tool: its parser and exit codes in process, and the built native-auth
        // against the emulator as a subprocess.
        .testTarget(
            name: "NativeAuthCLITests",
            dependencies: [
                "NativeAuthCLI", "NativeAuthAppConfig", "MSAL", "NativeAuthEmulator", "NativeAuthTesting", "TestSupport",
                "CommandLineOptions",
            ]),
        // The Redis example end to end: the built redis-workers against real redis-server processes.
        .testTarget(name: "RedisWorkersTests", dependencies: ["RedisWorkersKit", "MSALRedis", "TestSupport"]),
        // The option parser's rules, on a command of its own.
        .testTarget(name: "CommandLineOptionsTests", dependencies: ["CommandLineOptions"]),
    ]
)
