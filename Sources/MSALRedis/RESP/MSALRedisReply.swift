import Foundation

/// One reply of a Redis server (RESP2). `MSALRedisClient.run` throws an error reply as
/// `MSALRedisError`; `.error` is what `MSALRedisClient.pipeline` returns in an erring command's
/// place, and what an array (a script's or a transaction's results) may hold.
package enum MSALRedisReply: Sendable, Equatable {
    /// `+OK`, `+PONG`, …
    case simple(String)
    /// An error inside an array: its text.
    case error(String)
    /// `:42`
    case integer(Int64)
    /// A bulk string's bytes.
    case bulk(Data)
    /// `$-1` or `*-1`: no value.
    case null
    /// `*n` and its elements.
    case array([MSALRedisReply])

    /// The bytes of a bulk string, the text of a simple string as UTF-8; `nil` otherwise.
    package var data: Data? {
        switch self {
        case .bulk(let data): return data
        case .simple(let text): return Data(text.utf8)
        default: return nil
        }
    }

    /// `data` as UTF-8 text, when it is.
    package var string: String? { data.flatMap { String(data: $0, encoding: .utf8) } }

    /// The integer of an integer reply.
    package var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The elements of an array reply.
    package var array: [MSALRedisReply]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}
