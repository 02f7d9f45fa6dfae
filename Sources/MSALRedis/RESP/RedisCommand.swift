import Foundation

/// One Redis command: the words sent, and the key a cluster routes it by, named where the command
/// is made rather than guessed from its words.
///
/// ```swift
/// // given: client: MSALRedisClient, value: Data
/// let set = RedisCommand("SET", key: "greeting", value, "EX", 60)
/// let get = RedisCommand("GET", key: "greeting")
/// let replies = try client.pipeline([set, get, RedisCommand("PING")])
/// ```
///
/// A command on several keys (`DEL`, a script's `KEYS`) is routed by its first: the keys of one
/// command share a slot (a hash tag), or a cluster refuses it with `CROSSSLOT`.
package struct RedisCommand: Sendable, Equatable, CustomStringConvertible {
    /// The words as sent: the command's name first.
    package let words: [Data]
    /// The key whose slot holds what the command reads or writes; `nil`: any server answers it.
    package let key: Data?

    /// A command on no key (`PING`, `CLUSTER SLOTS`, `CLIENT ID`…): any server answers it.
    package init(_ name: String, _ arguments: any RedisWord...) {
        self.init(name, arguments: arguments)
    }

    /// A command on no key, its arguments as an array.
    package init(_ name: String, arguments: [any RedisWord]) {
        words = [Data(name.utf8)] + arguments.map(\.redisBytes)
        key = nil
    }

    /// A command whose first argument is its key (`GET`, `SET`, `HGETALL`, `DEL`…), routed by it.
    package init(_ name: String, key: any RedisWord, _ arguments: any RedisWord...) {
        self.init(name, key: key, arguments: arguments)
    }

    /// A command on a key, its other arguments as an array.
    package init(_ name: String, key: any RedisWord, arguments: [any RedisWord]) {
        let key = key.redisBytes
        words = [Data(name.utf8), key] + arguments.map(\.redisBytes)
        self.key = key
    }

    /// `EVAL script numkeys keys… arguments…`, routed by its first key.
    package static func eval(_ script: String, keys: [any RedisWord], arguments: [any RedisWord]) -> RedisCommand {
        let words = [Data("EVAL".utf8), Data(script.utf8), Data(String(keys.count).utf8)] + (keys + arguments).map(\.redisBytes)
        return RedisCommand(words: words, key: keys.first?.redisBytes)
    }

    private init(words: [Data], key: Data?) {
        self.words = words
        self.key = key
    }

    /// The command's name, as sent (`GET`), for messages: never its arguments, which may be secrets.
    package var name: String { String(decoding: words[0], as: UTF8.self) }

    /// The name alone (`RedisCommand GET`): a password given to `AUTH` stays out of logs.
    package var description: String { "RedisCommand \(name)" }
}

/// What a command's word is made of: text as UTF-8, bytes as they are, an integer in decimal.
package protocol RedisWord: Sendable {
    /// The word as sent.
    var redisBytes: Data { get }
}

extension String: RedisWord {
    package var redisBytes: Data { Data(utf8) }
}

extension Data: RedisWord {
    package var redisBytes: Data { self }
}

extension Int: RedisWord {
    package var redisBytes: Data { Data(String(self).utf8) }
}
