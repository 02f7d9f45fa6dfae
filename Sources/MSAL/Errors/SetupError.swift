import Foundation

/// A problem setting the SDK up or reading its cache, inside the SDK. At the public boundary it
/// becomes an `NSError` in `MSALErrorDomain` (see `nsError`), as MSAL reports such problems.
package struct SetupError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Code: Sendable, Equatable {
        /// A configuration value or argument is missing or malformed.
        case invalidParameter
        /// The authority URL cannot be used (wrong scheme, no host, not a CIAM authority).
        case invalidAuthority
        /// A JSON document (for example a claims request) could not be parsed.
        case invalidJSON
        /// The token cache could not be read or written (permissions, a full disk, a lock).
        case cacheUnavailable
        /// No cached account matches.
        case accountNotFound
    }

    package let code: Code
    package let message: String
    /// For `cacheUnavailable`: the `errno` of the failed call, when there was one.
    package let posixCode: Int32?
    /// For `cacheUnavailable`: the error of the store behind the cache (a keyring), when it failed.
    package let underlying: NSError?

    package init(_ code: Code, _ message: String, posixCode: Int32? = nil, underlying: NSError? = nil) {
        self.code = code
        self.message = message
        self.posixCode = posixCode
        self.underlying = underlying
    }

    package var description: String { "\(code): \(message)" }

    /// The error as MSAL reports it: `.internal` with `internalErrorInvalidParameter` for bad
    /// arguments, JSON and authorities, `internalErrorAccountRequired` for a missing account, and a
    /// cache that cannot be read or written as the system's own error (`NSPOSIXErrorDomain`), or
    /// the store's own error (its domain and code, this message, the original under
    /// `NSUnderlyingErrorKey`) when a persistence such as the keyring failed.
    package var nsError: NSError {
        switch code {
        case .invalidParameter, .invalidJSON, .invalidAuthority:
            return StandardErrors.make(.internal, internal: .internalErrorInvalidParameter, description: message)
        case .accountNotFound:
            return StandardErrors.make(.internal, internal: .internalErrorAccountRequired, description: message)
        case .cacheUnavailable:
            if let underlying {
                var userInfo = underlying.userInfo
                userInfo[NSLocalizedDescriptionKey] = message
                userInfo[MSALErrorDescriptionKey] = message
                userInfo[NSUnderlyingErrorKey] = underlying
                return NSError(domain: underlying.domain, code: underlying.code, userInfo: userInfo)
            }
            return NSError(
                domain: NSPOSIXErrorDomain, code: Int(posixCode ?? EIO),
                userInfo: [NSLocalizedDescriptionKey: message, MSALErrorDescriptionKey: message])
        }
    }
}
