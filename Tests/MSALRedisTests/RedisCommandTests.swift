import Foundation
import Testing

@testable import MSALRedis

/// A command's words, the key a cluster routes it by, and what it shows of itself
/// (Sources/MSALRedis/RESP/RedisCommand.swift).
struct RedisCommandTests {
    static func text(_ command: RedisCommand) -> [String] { command.words.map { String(decoding: $0, as: UTF8.self) } }

    @Test func aKeyedCommandSendsItsKeyFirstAndIsRoutedByIt() {
        let set = RedisCommand("SET", key: "k", Data("v".utf8), "PX", 1500)
        #expect(Self.text(set) == ["SET", "k", "v", "PX", "1500"])
        #expect(set.key == Data("k".utf8))
        #expect(RedisCommand("CLIENT", "ID").key == nil)
    }

    @Test func aScriptCountsItsKeysAndIsRoutedByTheFirst() {
        let script = RedisCommand.eval("return 1", keys: ["{a}:1", "{a}:2"], arguments: ["x"])
        #expect(Self.text(script) == ["EVAL", "return 1", "2", "{a}:1", "{a}:2", "x"])
        #expect(script.key == Data("{a}:1".utf8))
        #expect(RedisCommand.eval("return 1", keys: [], arguments: []).key == nil)
    }

    /// A command's description names it, never its arguments: `AUTH`'s password stays out of logs.
    @Test func itsDescriptionIsItsNameAlone() {
        let auth = MSALRedisCredentials(username: "worker", password: "Correct-Horse-42").command
        #expect(auth.description == "RedisCommand AUTH")
        #expect(!String(describing: auth).contains("Correct-Horse-42") && !"\(auth)".contains("worker"))
    }
}
