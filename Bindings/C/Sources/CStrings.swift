import Glibc

/// A problem with what C passed in, answered before anything runs.
struct InterfaceError: Error {
    let code: ErrorCode
    let message: String

    init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }
}

/// Strings across the C boundary.
///
/// In: UTF-8 is checked (`invalid UTF-8` is an argument error, never a crash). Out: every string
/// the library returns is a `strdup` copy recorded in a live set, so `msal_na_string_free` frees
/// only what the library handed out and reports a pointer it does not know (freed already, or
/// never the library's) instead of passing it to `free`.
enum CStrings {
    private static let live = Guarded(Set<UInt>())

    /// The Swift string of an argument; nil for NULL when `optional`.
    static func read(_ pointer: UnsafePointer<CChar>?, _ name: String, optional: Bool = false) throws(InterfaceError) -> String? {
        guard let pointer else {
            if optional { return nil }
            throw InterfaceError(.invalidArgument, "'\(name)' is NULL")
        }
        guard let text = String(validatingCString: pointer) else {
            throw InterfaceError(.invalidArgument, "'\(name)' is not valid UTF-8")
        }
        return text
    }

    /// A required, non-NULL argument.
    static func required(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(InterfaceError) -> String {
        // `read` returns a string whenever `optional` is false or it throws.
        try read(pointer, name) ?? ""
    }

    /// A copy the caller frees with `msal_na_string_free`. Embedded NULs are cut at the first one.
    static func make(_ text: String) -> UnsafeMutablePointer<CChar>? {
        guard let copy = strdup(text) else { return nil }
        _ = live.withLock { $0.insert(UInt(bitPattern: copy)) }
        return copy
    }

    static func make(_ text: String?) -> UnsafeMutablePointer<CChar>? {
        text.map { make($0) } ?? nil
    }

    /// Frees a string the library returned; false when the pointer was not a live library string.
    static func free(_ pointer: UnsafeMutablePointer<CChar>?) -> Bool {
        guard let pointer else { return true }
        let known = live.withLock { $0.remove(UInt(bitPattern: pointer)) != nil }
        if known { Glibc.free(pointer) }
        return known
    }

    static var liveCount: Int { live.withLock { $0.count } }
}

/// The message of the last call on this thread that failed synchronously, per thread, as `errno`.
enum LastError {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { value in Glibc.free(value) }
        return key
    }()

    static func set(_ message: String?) {
        let old = pthread_getspecific(key)
        pthread_setspecific(key, message.map { UnsafeRawPointer(strdup($0)) } ?? nil)
        Glibc.free(old)
    }

    static var message: String? {
        guard let value = pthread_getspecific(key) else { return nil }
        return String(cString: value.assumingMemoryBound(to: CChar.self))
    }
}
