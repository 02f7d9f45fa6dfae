import Foundation

/// Where requested claims should appear. Mirrors MSAL's `MSALClaimsRequestTarget` (plus `userinfo`,
/// which OpenID Connect defines and MSAL for iOS leaves out).
public enum MSALClaimsRequestTarget: UInt, Sendable, CaseIterable {
    case idToken = 0
    case accessToken = 1
    case userinfo = 2

    var key: String {
        switch self {
        case .idToken: return "id_token"
        case .accessToken: return "access_token"
        case .userinfo: return "userinfo"
        }
    }

    init?(key: String) {
        guard let target = Self.allCases.first(where: { $0.key == key }) else { return nil }
        self = target
    }
}

/// A request for specific claims, sent as the `claims` parameter (OpenID Connect Core §5.5).
/// Mirrors MSAL's `MSALClaimsRequest`.
///
/// ```swift
/// var requestError: NSError? = nil
/// let request = MSALClaimsRequest(jsonString: #"{"id_token":{"auth_time":{"essential":true}}}"#, error: &requestError)
/// let individualClaimRequest = MSALIndividualClaimRequest(name: "custom-claim")
/// individualClaimRequest.additionalInfo = MSALIndividualClaimRequestAdditionalInfo()
/// individualClaimRequest.additionalInfo?.essential = 1
/// individualClaimRequest.additionalInfo?.value = "myvalue"
/// try request.requestClaim(individualClaimRequest, for: .idToken)
/// ```
///
/// A claims request makes `getAccessToken` skip the cached access token, as in MSAL.
public final class MSALClaimsRequest: Sendable, CustomStringConvertible {
    /// target → claim name → `null` or the claim's additional information.
    private let claims = Locked<[MSALClaimsRequestTarget: [String: JSONValue]]>([:])

    /// An empty claims request, to be filled with `requestClaim(_:for:)`.
    public init() {}

    /// Parses a claims-request JSON object. Throws an `MSALErrorDomain` error (`.internal` with
    /// `internalErrorInvalidParameter`) when the text is not a JSON object of targets (`id_token`,
    /// `access_token`, `userinfo`) each holding an object of claims.
    public init(jsonString: String) throws {
        let parsed: [MSALClaimsRequestTarget: [String: JSONValue]]
        do throws(SetupError) { parsed = try Self.parse(jsonString) } catch { throw error.nsError }
        claims.withLock { $0 = parsed }
    }

    /// MSAL's Objective-C-style initialiser: on invalid JSON, `error` receives an `NSError`
    /// (domain `MSALErrorDomain`) and the request is empty.
    public convenience init(jsonString: String, error: UnsafeMutablePointer<NSError?>?) {
        self.init()
        do {
            let parsed = try Self.parse(jsonString)
            claims.withLock { $0 = parsed }
        } catch let failure {
            error?.pointee = failure.nsError
        }
    }

    /// Adds (or replaces) the request for one claim in `target`. Throws an `MSALErrorDomain` error when its
    /// additional information cannot be JSON (a value that is not a string, number, Boolean,
    /// array, dictionary or null; or both `value` and `values`).
    ///
    /// Untyped `throws` on purpose: MSAL's documentation catches with `catch let error as NSError`,
    /// which Swift 6.3 cannot compile around a typed-throws call (a compiler crash, measured here).
    public func requestClaim(_ request: MSALIndividualClaimRequest, for target: MSALClaimsRequestTarget) throws {
        let encoded: JSONValue
        do throws(SetupError) { encoded = try request.jsonValue() } catch { throw error.nsError }
        claims.withLock { $0[target, default: [:]][request.name] = encoded }
    }

    /// The claims requested for `target`.
    public func claimsRequests(for target: MSALClaimsRequestTarget) -> [MSALIndividualClaimRequest] {
        let entries = claims.withLock { $0[target] ?? [:] }
        return entries.keys.sorted().map { name in MSALIndividualClaimRequest(name: name, json: entries[name] ?? .null) }
    }

    /// Removes the request for the claim called `name` in `target`; returns whether there was one.
    @discardableResult
    public func removeClaimRequest(withName name: String, for target: MSALClaimsRequestTarget) -> Bool {
        claims.withLock { $0[target]?.removeValue(forKey: name) != nil }
    }

    /// The JSON text sent on the wire (compact, keys sorted).
    public func jsonString() -> String {
        let snapshot = claims.withLock { $0 }
        var object: [String: JSONValue] = [:]
        for (target, entries) in snapshot where !entries.isEmpty {
            object[target.key] = .object(entries)
        }
        return JSONValue.object(object).serialized()
    }

    /// The same text as `jsonString()`.
    public var description: String { jsonString() }

    /// The wire `claims` of a request: `request` with the client's capabilities added as
    /// `access_token.xms_cc.values` (as MSAL merges `clientApplicationCapabilities`); nil when both are empty.
    package static func wire(_ request: MSALClaimsRequest?, capabilities: [String]) -> String? {
        var object: [String: JSONValue] = [:]
        if let request {
            for (target, entries) in request.claims.withLock({ $0 }) where !entries.isEmpty { object[target.key] = .object(entries) }
        }
        if !capabilities.isEmpty {
            var accessToken = object[MSALClaimsRequestTarget.accessToken.key]?.objectValue ?? [:]
            accessToken["xms_cc"] = .object(["values": .array(capabilities.map { .string($0) })])
            object[MSALClaimsRequestTarget.accessToken.key] = .object(accessToken)
        }
        return object.isEmpty ? nil : JSONValue.object(object).serialized()
    }

    private static func parse(_ text: String) throws(SetupError) -> [MSALClaimsRequestTarget: [String: JSONValue]] {
        guard let parsed = JSONValue.parse(Data(text.utf8)), case .object(let targets) = parsed else {
            throw SetupError(.invalidJSON, "The claims request is not a JSON object")
        }
        var out: [MSALClaimsRequestTarget: [String: JSONValue]] = [:]
        for (key, value) in targets {
            guard let target = MSALClaimsRequestTarget(key: key) else {
                throw SetupError(.invalidJSON, "The claims request target '\(key)' is not one of id_token, access_token, userinfo")
            }
            guard case .object(let entries) = value else {
                throw SetupError(.invalidJSON, "The claims of '\(key)' are not a JSON object")
            }
            for (name, entry) in entries {
                switch entry {
                case .null, .object: continue
                default: throw SetupError(.invalidJSON, "The request for claim '\(name)' must be null or an object")
                }
            }
            out[target] = entries
        }
        return out
    }
}

/// The request for one claim. Mirrors MSAL's `MSALIndividualClaimRequest`.
public final class MSALIndividualClaimRequest {
    /// The claim's name.
    public var name: String
    /// `essential`, `value` or `values`; nil sends the claim as `null` (simply requested).
    public var additionalInfo: MSALIndividualClaimRequestAdditionalInfo?

    /// A request for the claim called `name`, sent as `null` (simply asked for) until
    /// `additionalInfo` is set.
    public init(name: String) {
        self.name = name
    }

    fileprivate init(name: String, json: JSONValue) {
        self.name = name
        if case .object(let members) = json {
            let info = MSALIndividualClaimRequestAdditionalInfo()
            if let essential = members["essential"] {
                switch essential {
                case .bool(let flag): info.essential = NSNumber(value: flag)
                case .number(let number): info.essential = NSNumber(value: number != 0)
                default: break
                }
            }
            info.value = members["value"]?.foundationValue
            if case .array(let items)? = members["values"] { info.values = items.map(\.foundationValue) }
            additionalInfo = info
        }
    }

    fileprivate func jsonValue() throws(SetupError) -> JSONValue {
        guard !name.isEmpty else { throw SetupError(.invalidParameter, "A claim request needs a name") }
        guard let info = additionalInfo else { return .null }
        var members: [String: JSONValue] = [:]
        if let essential = info.essential { members["essential"] = .bool(essential.boolValue) }
        if info.value != nil, info.values != nil {
            throw SetupError(.invalidParameter, "The claim '\(name)' sets both value and values; OpenID Connect allows one")
        }
        if let value = info.value {
            guard let encoded = JSONValue(foundation: value) else {
                throw SetupError(.invalidParameter, "The value of claim '\(name)' cannot be serialised to JSON")
            }
            members["value"] = encoded
        }
        if let values = info.values {
            guard let encoded = JSONValue(foundation: values) else {
                throw SetupError(.invalidParameter, "The values of claim '\(name)' cannot be serialised to JSON")
            }
            members["values"] = encoded
        }
        return .object(members)
    }
}

/// `essential`, `value` and `values` of a claim request. Mirrors MSAL's
/// `MSALIndividualClaimRequestAdditionalInfo`.
public final class MSALIndividualClaimRequestAdditionalInfo {
    /// Whether the claim is essential; any non-zero number means true.
    public var essential: NSNumber?
    /// Ask for the claim with this value (a string, number, Boolean, array, dictionary or NSNull).
    public var value: Any?
    /// Ask for the claim with one of these values, in order of preference.
    public var values: [Any]?

    /// Empty information: set the members the request needs.
    public init() {}
}
