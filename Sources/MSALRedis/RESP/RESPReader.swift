import Foundation

/// Reads RESP2 replies from bytes as they arrive, refusing any reply over the limits before
/// allocating it: a bulk string's length and an array's count are checked when their header is
/// read, and a line (simple string, error, integer, header) may be at most `maxLineBytes` long.
/// Nesting deeper than `maxDepth` is refused too (the replies this library reads nest at most four
/// deep: `CLUSTER SLOTS`).
struct RESPReader {
    let maxBulkBytes: Int
    let maxArrayCount: Int
    let maxLineBytes = 64 * 1024
    let maxDepth = 8
    private var buffer: [UInt8] = []
    private var start = 0

    init(maxBulkBytes: Int, maxArrayCount: Int) {
        self.maxBulkBytes = maxBulkBytes
        self.maxArrayCount = maxArrayCount
    }

    /// Whether bytes are waiting that no reply has taken yet.
    var hasPendingBytes: Bool { start < buffer.count }

    /// Appends bytes read from the connection.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole reply, or `nil` when more bytes are needed. Throws `.protocolViolation` or
    /// `.tooLarge`; after a throw the stream cannot be trusted and the connection must be dropped.
    mutating func next() throws(MSALRedisError) -> MSALRedisReply? {
        var position = start
        guard let reply = try parse(&position, depth: 0) else {
            if buffer.count - start > maxBulkBytes + maxLineBytes {
                throw MSALRedisError(.tooLarge, "A Redis reply is longer than the limit of \(maxBulkBytes) bytes")
            }
            return nil
        }
        start = position
        if start > 1 << 20 && start * 2 > buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
        return reply
    }

    private func parse(_ position: inout Int, depth: Int) throws(MSALRedisError) -> MSALRedisReply? {
        guard position < buffer.count else { return nil }
        let kind = buffer[position]
        guard let line = try line(after: position + 1) else { return nil }
        let text = String(decoding: buffer[line.start..<line.end], as: UTF8.self)
        var next = line.end + 2
        switch kind {
        case UInt8(ascii: "+"):
            position = next
            return .simple(text)
        case UInt8(ascii: "-"):
            position = next
            return .error(text)
        case UInt8(ascii: ":"):
            guard let value = Int64(text) else { throw Self.violation("an integer reply that is not a number") }
            position = next
            return .integer(value)
        case UInt8(ascii: "$"):
            guard let length = Int(text), length >= -1 else { throw Self.violation("a bulk length that is not a number") }
            if length == -1 {
                position = next
                return .null
            }
            guard length <= maxBulkBytes else {
                throw MSALRedisError(.tooLarge, "A Redis value of \(length) bytes is longer than the limit of \(maxBulkBytes)")
            }
            guard buffer.count - next >= length + 2 else { return nil }
            guard buffer[next + length] == 13, buffer[next + length + 1] == 10 else {
                throw Self.violation("a bulk string not ended by CRLF")
            }
            let data = Data(buffer[next..<(next + length)])
            position = next + length + 2
            return .bulk(data)
        case UInt8(ascii: "*"):
            guard let count = Int(text), count >= -1 else { throw Self.violation("an array count that is not a number") }
            if count == -1 {
                position = next
                return .null
            }
            guard count <= maxArrayCount else {
                throw MSALRedisError(.tooLarge, "A Redis array of \(count) elements is longer than the limit of \(maxArrayCount)")
            }
            guard depth < maxDepth else { throw Self.violation("arrays nested deeper than \(maxDepth)") }
            var elements: [MSALRedisReply] = []
            elements.reserveCapacity(min(count, 1024))
            for _ in 0..<count {
                guard let element = try parse(&next, depth: depth + 1) else { return nil }
                elements.append(element)
            }
            position = next
            return .array(elements)
        default:
            throw Self.violation("a reply that starts with byte \(kind)")
        }
    }

    /// The range of the line starting at `from`, up to its CRLF; `nil` when the CRLF has not arrived.
    private func line(after from: Int) throws(MSALRedisError) -> (start: Int, end: Int)? {
        var index = from
        let limit = min(buffer.count, from + maxLineBytes + 2)
        while index + 1 < limit {
            if buffer[index] == 13 {
                guard buffer[index + 1] == 10 else { throw Self.violation("a CR not followed by LF") }
                return (from, index)
            }
            index += 1
        }
        if buffer.count - from > maxLineBytes + 1 {
            throw MSALRedisError(.tooLarge, "A Redis reply line is longer than the limit of \(maxLineBytes) bytes")
        }
        return nil
    }

    private static func violation(_ what: String) -> MSALRedisError {
        MSALRedisError(.protocolViolation, "The server sent \(what): not a Redis reply")
    }
}
