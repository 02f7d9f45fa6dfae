import Foundation
import MSAL
import MSALRedis

// The second process of the Redis tests (Tests/MSALRedisTests). Usage:
//   msal-redis-helper ping URL
//   msal-redis-helper save URL [KEYHEX]   the state on standard input; prints its id
//   msal-redis-helper take URL ID [KEYHEX] prints the state taken under ID
//   msal-redis-helper tc-write URL CLIENT HOME WRITER COUNT
//       COUNT writes to the token cache partition (CLIENT, HOME): each sets its own access token
//       entry AccessToken:WRITER-i and the shared RefreshToken:shared = WRITER-i
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
        try client.ping()
        print("PONG")
    case "save":
        let store = try MSALRedisSignInStore(client: client, encryptionKey: key(3))
        print(try store.save(FileHandle.standardInput.readDataToEndOfFile()))
    case "take" where arguments.count >= 4:
        let store = try MSALRedisSignInStore(client: client, encryptionKey: key(4))
        FileHandle.standardOutput.write(try store.take(arguments[3]))
    case "tc-write" where arguments.count >= 7:
        let store = try MSALRedisTokenCacheEntryStore(client: client)
        let partition = MSALTokenCachePartition(clientId: arguments[3], homeAccountId: arguments[4])
        let writer = arguments[5]
        for index in 0..<(Int(arguments[6]) ?? 0) {
            let token = MSALTokenCacheEntryValue(data: Data("at-\(writer)-\(index)".utf8), expiresOn: Date().addingTimeInterval(3600))
            let refresh = MSALTokenCacheEntryValue(data: Data("\(writer)-\(index)".utf8), expiresOn: nil)
            do {
                try store.write(
                    MSALTokenCacheEntryWrite(
                        partition: partition, set: ["AccessToken:\(writer)-\(index)": token, "RefreshToken:shared": refresh], remove: []))
            } catch {
                fail("\((error as? MSALRedisError)?.code.rawValue ?? -1) write \(index) failed")
            }
        }
        print("done")
    default:
        fail("unknown command \(arguments[1])")
    }
} catch {
    fail("\(error.code) \(error.message)")
}
