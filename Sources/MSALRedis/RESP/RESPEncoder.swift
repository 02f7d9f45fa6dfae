import Foundation

/// Commands as RESP arrays of bulk strings, the one form a client sends.
enum RESPEncoder {
    static func encode(_ command: RedisCommand) -> [UInt8] {
        let arguments = command.words
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16 + arguments.reduce(0) { $0 + $1.count + 16 })
        bytes.append(contentsOf: Array("*\(arguments.count)\r\n".utf8))
        for argument in arguments {
            bytes.append(contentsOf: Array("$\(argument.count)\r\n".utf8))
            bytes.append(contentsOf: argument)
            bytes.append(contentsOf: [13, 10])
        }
        return bytes
    }
}
