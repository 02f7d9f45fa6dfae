import Foundation
import MSALRedis

// The second process of the Redis tests (Tests/MSALRedisTests). Usage:
//   msal-redis-helper ping URL
// Exits 1 with the error's code and message on standard error.

let arguments = CommandLine.arguments
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}
guard arguments.count >= 3 else { fail("usage: msal-redis-helper COMMAND URL ...") }
do {
    let client = try MSALRedisClient(configuration: MSALRedisConfiguration(url: arguments[2]))
    switch arguments[1] {
    case "ping":
        print(try client.command(["PING"]).string ?? "")
    default:
        fail("unknown command \(arguments[1])")
    }
} catch {
    fail("\(error.code) \(error.message)")
}
