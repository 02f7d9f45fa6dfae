import Foundation
import MSALRedis

// The second process of the Redis tests (Tests/MSALRedisTests). Usage:
//   msal-redis-helper ping URL
//   msal-redis-helper save URL [KEYHEX]   the state on standard input; prints its id
//   msal-redis-helper take URL ID [KEYHEX] prints the state taken under ID
// Exits 1 with the error's code and message on standard error.

let arguments = CommandLine.arguments
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}
func key(_ index: Int) -> Data? {
    guard arguments.count > index else { return nil }
    let hex = Array(arguments[index].utf8)
    return Data(
        stride(from: 0, to: hex.count - 1, by: 2).compactMap { UInt8(String(decoding: hex[$0..<($0 + 2)], as: UTF8.self), radix: 16) })
}
guard arguments.count >= 3 else { fail("usage: msal-redis-helper COMMAND URL ...") }
do {
    let client = try MSALRedisClient(configuration: MSALRedisConfiguration(url: arguments[2]))
    switch arguments[1] {
    case "ping":
        print(try client.command(["PING"]).string ?? "")
    case "save":
        let store = try MSALRedisSignInStore(client: client, encryptionKey: key(3))
        print(try store.save(FileHandle.standardInput.readDataToEndOfFile()))
    case "take" where arguments.count >= 4:
        let store = try MSALRedisSignInStore(client: client, encryptionKey: key(4))
        FileHandle.standardOutput.write(try store.take(arguments[3]))
    default:
        fail("unknown command \(arguments[1])")
    }
} catch {
    fail("\(error.code) \(error.message)")
}
