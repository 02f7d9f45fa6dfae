import Glibc
import MSAL

// `msal_na_account_get_access_token_into` of Bindings/C/include/msal_native_auth.h: an access token
// copied into the caller's buffer. A token the SDK serves from its cache without suspending
// (`freshCachedAccessToken`, the rules `getAccessToken` itself uses) is copied on the caller's
// thread: no task, no thread hop, no result handle, no string to free. Anything else runs the
// blocking form's work (Operations.accessToken) and copies its token.

@_cdecl("msal_na_account_get_access_token_into")
public func msal_na_account_get_access_token_into(
    _ account: OpaquePointer?, _ scopes: CString?, _ forceRefresh: Int32, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int,
    _ outSize: UnsafeMutablePointer<Int>?, _ outExpiresOn: UnsafeMutablePointer<Int64>?, _ outResult: ResultOut?
) -> Int32 {
    outResult?.pointee = nil
    outSize?.pointee = 0
    outExpiresOn?.pointee = 0
    guard buffer != nil || capacity == 0 else {
        return Dispatcher.deliver(Outcome(InterfaceError(.invalidArgument, "'buffer' is NULL and 'capacity' is not 0")), to: outResult)
    }
    guard capacity >= 0 else {
        return Dispatcher.deliver(Outcome(InterfaceError(.invalidArgument, "'capacity' is larger than any buffer")), to: outResult)
    }
    if forceRefresh == 0, let entry = try? Operations.account(account), let parameters = try? entry.tokenParameters.parameters(scopes),
        let token = entry.result.freshCachedAccessToken(parameters.value)
    {
        LastError.set(nil)
        return TokenCopy.write(token.secret, token.scopes, token.expiresOn.timeIntervalSince1970, buffer, capacity, outSize, outExpiresOn)
    }
    // The full way, as msal_na_account_get_access_token_wait (argument errors included).
    let outcome: Outcome
    do {
        outcome = Dispatcher.outcome(of: try Operations.accessToken(account, scopes, forceRefresh))
    } catch {
        outcome = Outcome(error)
    }
    let code = Dispatcher.deliver(outcome, to: outResult)
    guard code == ErrorCode.ok.rawValue, let token = outcome.accessToken else { return code }
    return TokenCopy.write(
        token, outcome.scopes, outcome.expiresOn?.timeIntervalSince1970 ?? 0, buffer, capacity, outSize, outExpiresOn)
}

/// The answer's layout in the caller's buffer: the token, NUL, the granted scopes space-separated, NUL.
enum TokenCopy {
    static func write(
        _ token: String, _ scopes: [String], _ expiresOn: Double, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int,
        _ outSize: UnsafeMutablePointer<Int>?, _ outExpiresOn: UnsafeMutablePointer<Int64>?
    ) -> Int32 {
        var size = token.utf8.count + 1
        for (index, scope) in scopes.enumerated() { size += scope.utf8.count + (index == 0 ? 0 : 1) }
        size += 1
        outSize?.pointee = size
        outExpiresOn?.pointee = Int64(expiresOn)
        guard let buffer, size <= capacity else {
            return Dispatcher.fail(
                InterfaceError(
                    .bufferTooSmall, "the token and its scopes need \(size) bytes; 'capacity' is \(capacity) (the size is in *out_size)"))
        }
        var position = copy(token, to: buffer)
        buffer[position] = 0
        position += 1
        for (index, scope) in scopes.enumerated() {
            if index > 0 {
                buffer[position] = 0x20
                position += 1
            }
            position += copy(scope, to: buffer + position)
        }
        buffer[position] = 0
        return ErrorCode.ok.rawValue
    }

    /// Copies the UTF-8 bytes of `text` (no NUL); returns how many.
    private static func copy(_ text: String, to destination: UnsafeMutablePointer<CChar>) -> Int {
        let utf8 = text.utf8
        if let copied = utf8.withContiguousStorageIfAvailable({ bytes -> Int in
            if let base = bytes.baseAddress { memcpy(destination, base, bytes.count) }
            return bytes.count
        }) {
            return copied
        }
        var count = 0
        for byte in utf8 {
            destination[count] = CChar(bitPattern: byte)
            count += 1
        }
        return count
    }
}

/// The get-token parameters of the scopes strings an account was last asked for, so that a steady
/// caller's fast-path call parses and allocates nothing: the C string is compared byte for byte
/// with the ones seen (a handful: an app asks for a token per API it calls).
final class TokenParametersMemo: Sendable {
    /// Made once, filled, then only read (by `freshCachedAccessToken`, from any thread).
    struct Parameters: @unchecked Sendable {
        let value: MSALNativeAuthGetAccessTokenParameters
    }

    private struct Entry {
        /// The scopes argument with its NUL; nil for a NULL argument.
        var text: [CChar]?
        var parameters: Parameters
    }

    static let limit = 8
    private let entries = Guarded([Entry]())

    func parameters(_ scopes: CString?) throws(InterfaceError) -> Parameters {
        let known = entries.withLock { entries in
            entries.first { entry in
                guard let scopes else { return entry.text == nil }
                return entry.text.map { text in text.withUnsafeBufferPointer { strcmp($0.baseAddress!, scopes) == 0 } } ?? false
            }?.parameters
        }
        if let known { return known }
        let made = MSALNativeAuthGetAccessTokenParameters()
        made.scopes = try Operations.scopes(scopes)
        let parameters = Parameters(value: made)
        let text = scopes.map { Array(UnsafeBufferPointer(start: $0, count: strlen($0) + 1)) }
        entries.withLock { entries in
            if entries.count >= Self.limit { entries.removeFirst() }
            entries.append(Entry(text: text, parameters: parameters))
        }
        return parameters
    }
}
