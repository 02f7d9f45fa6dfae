import Foundation
import Glibc
import MSAL

/// Why the keyring could not keep the token cache: the codes of the `MSALSecretService` product's
/// `MSALSecretServiceError`, in the same domain, so an app sees one vocabulary whichever it uses.
struct KeyringError: Error, CustomNSError {
    enum Code: Int {
        case unavailable = 1
        case locked = 2
        case invalidConfiguration = 3
        case operationFailed = 4
    }

    let code: Code
    let message: String

    static var errorDomain: String { "MSALSecretServiceErrorDomain" }
    var errorCode: Int { code.rawValue }
    var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
}

/// The token cache in the desktop keyring for the C interface (`"cache": "keyring"`), through
/// `libmsalnativeauth-keyring.so`: a small C library over libsecret
/// (Bindings/C/Keyring/msal_native_auth_keyring.c) that this library opens with `dlopen` only when
/// an application asks for the keyring. libmsalnativeauth.so itself never links libsecret, so it
/// loads and works on machines without it; there, asking for the keyring is
/// `MSAL_NA_ERR_KEYRING_UNAVAILABLE` with the loader's reason.
///
/// The SDK does the rest (lock file, signal file, merging), as for the `MSALSecretService` product,
/// and the item is the one that product and msal-extensions use for the same schema and attributes.
final class KeyringPersistence: MSALTokenCachePersistence {
    let schemaName: String
    let attributes: [String: String]
    let signalFile: URL
    let label: String
    private let library: KeyringLibrary

    init(schemaName: String, attributes: [String: String], signalFile: URL, label: String) throws(KeyringError) {
        self.schemaName = schemaName
        self.attributes = attributes
        self.signalFile = signalFile
        self.label = label
        library = try KeyringLibrary.shared.get()
    }

    /// Attribute names only: values may name the user.
    var storeDescription: String {
        "the Secret Service (schema \"\(schemaName)\", attributes \(attributes.keys.sorted().joined(separator: ", ")))"
    }

    func checkAvailable() throws {
        try call { names, values, count, message in library.check(schemaName, count, names, values, message) }
    }

    func load() throws -> Data? {
        var bytes: UnsafeMutablePointer<UInt8>?
        var length = 0
        var found: Int32 = 0
        try call { names, values, count, message in
            library.load(schemaName, count, names, values, &bytes, &length, &found, message)
        }
        defer { library.free(bytes) }
        guard found != 0 else { return nil }
        return bytes.map { Data(bytes: $0, count: length) } ?? Data()
    }

    func save(_ data: Data) throws {
        try call { names, values, count, message in
            data.withUnsafeBytes { raw in
                library.save(schemaName, count, names, values, label, raw.bindMemory(to: UInt8.self).baseAddress, data.count, message)
            }
        }
    }

    func setAside(_ data: Data) throws -> String {
        var place: UnsafeMutablePointer<CChar>?
        try call { names, values, count, message in
            data.withUnsafeBytes { raw in
                library.setAside(
                    schemaName, count, names, values, label, raw.bindMemory(to: UInt8.self).baseAddress, data.count, &place, message)
            }
        }
        defer { library.free(place) }
        return place.map { String(cString: $0) } ?? "in the Secret Service"
    }

    /// Calls one function of the library with the attributes as two C arrays, and turns its status
    /// and message into a `KeyringError`.
    private func call(
        _ body: (
            UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<UnsafePointer<CChar>?>?, Int,
            UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
        )
            -> Int32
    ) throws(KeyringError) {
        let sorted = attributes.sorted { $0.key < $1.key }
        let names = sorted.map { strdup($0.key) }
        let values = sorted.map { strdup($0.value) }
        defer { for pointer in names + values { Glibc.free(pointer) } }
        var message: UnsafeMutablePointer<CChar>?
        let status = names.map { UnsafePointer($0) }.withUnsafeBufferPointer { namePointers in
            values.map { UnsafePointer($0) }.withUnsafeBufferPointer { valuePointers in
                body(namePointers.baseAddress, valuePointers.baseAddress, sorted.count, &message)
            }
        }
        defer { library.free(message) }
        guard status != 0 else { return }
        throw KeyringError(
            code: KeyringError.Code(rawValue: Int(status)) ?? .operationFailed,
            message: message.map { String(cString: $0) } ?? "the keyring failed (status \(status))")
    }
}

/// The functions of `libmsalnativeauth-keyring.so` (its ABI version 1), opened once per process.
struct KeyringLibrary: @unchecked Sendable {
    // `@unchecked`: C function pointers, read-only after `open`.
    typealias Names = UnsafePointer<UnsafePointer<CChar>?>?
    typealias Message = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    typealias Check = @convention(c) (UnsafePointer<CChar>?, Int, Names, Names, Message) -> Int32
    typealias Load =
        @convention(c) (
            UnsafePointer<CChar>?, Int, Names, Names, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, UnsafeMutablePointer<Int>?,
            UnsafeMutablePointer<Int32>?, Message
        ) -> Int32
    typealias Save =
        @convention(c) (UnsafePointer<CChar>?, Int, Names, Names, UnsafePointer<CChar>?, UnsafePointer<UInt8>?, Int, Message) ->
        Int32
    typealias SetAside =
        @convention(c) (
            UnsafePointer<CChar>?, Int, Names, Names, UnsafePointer<CChar>?, UnsafePointer<UInt8>?, Int,
            UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, Message
        ) -> Int32
    typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void
    typealias ABI = @convention(c) () -> Int32

    let check: Check
    let load: Load
    let save: Save
    let setAside: SetAside
    let freePointer: Free

    func free<T>(_ pointer: UnsafeMutablePointer<T>?) {
        freePointer(UnsafeMutableRawPointer(pointer))
    }

    static let fileName = "libmsalnativeauth-keyring.so"

    /// Opened at the first request that succeeds, then kept for the process (a failure is tried again next time).
    static let shared = Guarded<KeyringLibrary?>(nil)

    /// Where it is looked for: `$MSAL_NATIVE_AUTH_KEYRING_LIBRARY`; beside libmsalnativeauth.so; the loader's path.
    static func candidates() -> [String] {
        if let explicit = ProcessInfo.processInfo.environment["MSAL_NATIVE_AUTH_KEYRING_LIBRARY"], !explicit.isEmpty { return [explicit] }
        guard let directory = ownDirectory() else { return [fileName] }
        return [directory + "/" + fileName, fileName]
    }

    /// `dladdr`, a GNU extension that Swift's Glibc module does not export, looked up as
    /// BrowserLauncher looks up `posix_spawn_file_actions_addclosefrom_np`. Its `Dl_info` is four
    /// pointers, the first the file name.
    private typealias DLAddr = @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32

    /// The directory of the file this code was loaded from (libmsalnativeauth.so).
    static func ownDirectory() -> String? {
        guard let lookup = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "dladdr").map({ unsafeBitCast($0, to: DLAddr.self) }) else {
            return nil
        }
        // A C function of this library: its address lies in this library's mapping.
        let function: @convention(c) () -> Void = {}
        let anchor = unsafeBitCast(function, to: UnsafeRawPointer.self)
        let path: String? = withUnsafeTemporaryAllocation(of: UnsafePointer<CChar>?.self, capacity: 4) { info in
            info.initialize(repeating: nil)
            guard lookup(anchor, UnsafeMutableRawPointer(info.baseAddress)) != 0, let name = info[0] else { return nil }
            return String(cString: name)
        }
        return path.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
    }

    static func open() -> Result<KeyringLibrary, KeyringError> {
        var reasons: [String] = []
        for path in candidates() {
            guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
                reasons.append(dlerror().map { String(cString: $0) } ?? path)
                continue
            }
            func symbol<T>(_ name: String, _ type: T.Type) -> T? {
                dlsym(handle, name).map { unsafeBitCast($0, to: type) }
            }
            guard let abi = symbol("msal_na_keyring_abi", ABI.self), abi() == 1, let check = symbol("msal_na_keyring_check", Check.self),
                let load = symbol("msal_na_keyring_load", Load.self), let save = symbol("msal_na_keyring_save", Save.self),
                let setAside = symbol("msal_na_keyring_set_aside", SetAside.self), let free = symbol("msal_na_keyring_free", Free.self)
            else {
                dlclose(handle)
                reasons.append("\(path): not a keyring library of ABI version 1")
                continue
            }
            return .success(KeyringLibrary(check: check, load: load, save: save, setAside: setAside, freePointer: free))
        }
        return .failure(
            KeyringError(
                code: .unavailable,
                message: "the keyring needs \(fileName) and libsecret (libsecret-1-0), which could not be loaded: "
                    + reasons.joined(separator: "; ")))
    }
}

extension Guarded where Value == KeyringLibrary? {
    func get() throws(KeyringError) -> KeyringLibrary {
        let result = withLock { (opened: inout KeyringLibrary?) -> Result<KeyringLibrary, KeyringError> in
            if let opened { return .success(opened) }
            let result = KeyringLibrary.open()
            if case .success(let library) = result { opened = library }
            return result
        }
        return try result.get()
    }
}
