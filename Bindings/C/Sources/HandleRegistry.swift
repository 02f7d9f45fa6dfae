import MSAL

/// The live handles the C interface has handed out.
///
/// A handle is an id, never an address: it goes to C as a pointer-sized value that is never
/// dereferenced, and every call looks it up here. Ids count up from a random-looking base and are
/// never reused, so a freed handle, a handle freed twice, a handle of the wrong kind or any other
/// pointer is answered with `MSAL_NA_ERR_INVALID_HANDLE` instead of touching memory.
final class HandleRegistry: Sendable {
    /// What a handle stands for.
    enum Object: Sendable {
        case app(AppEntry)
        case state(FlowState)
        case account(AccountEntry)
        case result(Outcome)

        var kindName: String {
            switch self {
            case .app: "an application"
            case .state: "a flow state"
            case .account: "an account"
            case .result: "a result"
            }
        }
    }

    private struct Table {
        var objects: [UInt: Object] = [:]
        /// Ids start far from small integers and common addresses, and step by 16, so that a
        /// small integer, a NULL-ish value or a misaligned pointer is never a live handle.
        var next: UInt = 0x6d73_616c_0000_0010
    }

    private let table = Guarded(Table())

    static let shared = HandleRegistry()

    func insert(_ object: Object) -> OpaquePointer {
        table.withLock { table in
            let id = table.next
            table.next += 16
            table.objects[id] = object
            return OpaquePointer(bitPattern: id)!
        }
    }

    func lookup(_ handle: OpaquePointer?) -> Object? {
        guard let handle else { return nil }
        let id = UInt(bitPattern: Int(bitPattern: handle))
        return table.withLock { $0.objects[id] }
    }

    enum Removal {
        case removed
        case notLive
        case otherKind(Object)
    }

    /// Removes a handle when it is live and of the kind `matches` accepts, in one step, so that two
    /// threads freeing one handle see one success and one `notLive`.
    func remove(_ handle: OpaquePointer, if matches: (Object) -> Bool) -> Removal {
        let id = UInt(bitPattern: Int(bitPattern: handle))
        return table.withLock { table in
            guard let object = table.objects[id] else { return .notLive }
            guard matches(object) else { return .otherKind(object) }
            table.objects[id] = nil
            return .removed
        }
    }

    /// How many handles are live (for tests and leak checks through `msal_na_live_handles`).
    var count: Int { table.withLock { $0.objects.count } }
}

/// An application and what the C interface needs besides it.
final class AppEntry: Sendable {
    let application: MSALNativeAuthPublicClientApplication
    let configuration: InterfaceConfiguration
    /// The app's request interceptor (`msal_na_app_create_with_interceptor`), detached when the app is freed.
    let interceptor: RequestInterceptorBridge?
    /// Its saved sign-ins on Redis, with `"cache": "redis"` (InterfaceConfiguration+Redis.swift).
    let redisSignIns: RedisSignIns

    init(
        application: MSALNativeAuthPublicClientApplication, configuration: InterfaceConfiguration,
        interceptor: RequestInterceptorBridge? = nil
    ) {
        self.application = application
        self.configuration = configuration
        self.interceptor = interceptor
        self.redisSignIns = RedisSignIns(configuration.redis)
    }
}

/// A signed-in account.
final class AccountEntry: Sendable {
    let result: MSALNativeAuthUserAccountResult
    /// The fast path's parameters per scopes string (Exports+TokenInto.swift).
    let tokenParameters = TokenParametersMemo()

    init(_ result: MSALNativeAuthUserAccountResult) {
        self.result = result
    }
}
