import Dispatch
import Foundation
import MSAL

/// `msal_na_request_interceptor`: the request URL (valid during the call), a headers handle
/// (valid during the call) and the caller's user data.
public typealias RequestInterceptorCallback = @convention(c) (UnsafePointer<CChar>?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void

/// MSAL's `MSALNativeAuthRequestInterceptor` over a C callback (`msal_na_app_create_with_interceptor`).
///
/// The SDK asks from its concurrency pool; the C callback runs on a queue of its own (C code never
/// runs on the pool), and its headers go back through the completion block, which MSAL gives 5 s
/// (docs/decisions.md). After `detach()` (the application was freed) the callback is never
/// called again: `detach()` waits for a call in progress, and a call after it adds no header.
/// Nor after `msal_na_detach_callbacks` (HostCallbacks.swift), for every application at once.
final class RequestInterceptorBridge: MSALNativeAuthRequestInterceptor, @unchecked Sendable {
    // `@unchecked`: the callback and user data are the app's; `attached` is behind `lock`.

    static let queue = DispatchQueue(label: "msal-native-auth.interceptor")

    private let callback: RequestInterceptorCallback
    private let userData: UnsafeMutableRawPointer?
    /// Recursive: a callback may free its own application (`detach()` on the same thread).
    private let lock = NSRecursiveLock()
    private var attached = true

    init(callback: @escaping RequestInterceptorCallback, userData: UnsafeMutableRawPointer?) {
        self.callback = callback
        self.userData = userData
    }

    func addAdditionalHeaderFields(_ requestUrl: URL?, completionBlock: @escaping @Sendable ([String: String]?) -> Void) {
        Self.queue.async { completionBlock(self.collect(requestUrl)) }
    }

    func detach() {
        lock.lock()
        attached = false
        lock.unlock()
    }

    private func collect(_ url: URL?) -> [String: String]? {
        lock.lock()
        defer { lock.unlock() }
        guard attached else { return nil }
        let (handle, headers) = HeaderCollector.open()
        HostCallbacks.shared.call { (url?.absoluteString ?? "").withCString { callback($0, handle, userData) } }
        return HeaderCollector.close(handle, headers)
    }
}

/// The `msal_na_headers` of one interceptor call: live only during the call (ids never reused, so a
/// handle kept past it is reported, not used).
final class HeaderCollector: Sendable {
    private static let live = Guarded((next: UInt(0x6d73_6864_0000_0010), open: [UInt: HeaderCollector]()))
    /// Names are kept as given; a second header of the same name (any case) replaces the first.
    let headers = Guarded([String: String]())

    static func open() -> (OpaquePointer, HeaderCollector) {
        let collector = HeaderCollector()
        let id = live.withLock { table in
            let id = table.next
            table.next += 16
            table.open[id] = collector
            return id
        }
        return (OpaquePointer(bitPattern: id)!, collector)
    }

    static func close(_ handle: OpaquePointer, _ collector: HeaderCollector) -> [String: String] {
        _ = live.withLock { $0.open.removeValue(forKey: UInt(bitPattern: Int(bitPattern: handle))) }
        return collector.headers.withLock { $0 }
    }

    static func lookup(_ handle: OpaquePointer?) throws(InterfaceError) -> HeaderCollector {
        guard let handle else { throw InterfaceError(.invalidArgument, "'headers' is NULL") }
        guard let collector = live.withLock({ $0.open[UInt(bitPattern: Int(bitPattern: handle))] }) else {
            throw InterfaceError(.invalidHandle, "'headers' is not the handle of an interceptor call in progress")
        }
        return collector
    }

    /// At most this many headers per request, and bytes per value.
    static let maxHeaders = 32
    static let maxValueBytes = 4096

    func add(name: String, value: String) throws(InterfaceError) {
        // MSAL's rule (Sources/MSAL/Application/MSALNativeAuthRequestInterceptor.swift), which the SDK applies again.
        guard RequestInterceptorBridge.isAllowedHeaderName(name) else {
            throw InterfaceError(
                .invalidArgument,
                "'name' \"\(name)\" is not allowed: names start with x-, not with x-ms-, x-client-, x-broker- or x-app-, "
                    + "and use only the characters of an HTTP token")
        }
        guard value.utf8.count <= Self.maxValueBytes else {
            throw InterfaceError(.invalidArgument, "'value' is longer than \(Self.maxValueBytes) bytes")
        }
        guard !value.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) else {
            throw InterfaceError(.invalidArgument, "'value' contains a control character (a line break would split the header)")
        }
        let added = headers.withLock { headers in
            if let same = headers.keys.first(where: { $0.lowercased() == name.lowercased() }) { headers[same] = nil }
            guard headers.count < Self.maxHeaders else { return false }
            headers[name] = value
            return true
        }
        guard added else { throw InterfaceError(.invalidArgument, "more than \(Self.maxHeaders) headers for one request") }
    }
}
