// Cached getAccessToken from Swift, the reference the C and Python figures are held to: the
// application the C interface makes from the same configuration (the client id, authority and
// cache file), `await account.getAccessToken(parameters:)` from a task off the main actor, as
// Benchmarks/msal-benchmarks times it. Prints {"samples": [ns, ...]} for the timed calls.
// Usage: bench-cached-token-swift CLIENT_ID AUTHORITY CACHE_FILE SCOPE ITERATIONS   (bench_cached_token.py)
import Dispatch
import Foundation
import MSAL

let arguments = CommandLine.arguments
guard arguments.count == 6, let authority = URL(string: arguments[2]), let iterations = Int(arguments[5]) else {
    FileHandle.standardError.write(Data("usage: bench-cached-token-swift CLIENT_ID AUTHORITY CACHE_FILE SCOPE ITERATIONS\n".utf8))
    exit(2)
}

func measure() async throws -> [UInt64] {
    let config = MSALNativeAuthPublicClientApplicationConfig(
        clientId: arguments[1], authority: try MSALCIAMAuthority(url: authority), challengeTypes: [.OOB, .password])
    config.tokenCacheLocation = .file(URL(fileURLWithPath: arguments[3]))
    let app = try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config)
    guard let account = app.getNativeAuthUserAccount() else { throw CocoaError(.fileReadNoSuchFile) }
    let parameters = MSALNativeAuthGetAccessTokenParameters()
    parameters.scopes = [arguments[4]]
    for _ in 0..<200 { _ = try await account.getAccessToken(parameters: parameters) }
    var samples: [UInt64] = []
    samples.reserveCapacity(iterations)
    for _ in 0..<iterations {
        let start = DispatchTime.now().uptimeNanoseconds
        _ = try await account.getAccessToken(parameters: parameters)
        samples.append(DispatchTime.now().uptimeNanoseconds - start)
    }
    return samples
}

let done = DispatchSemaphore(value: 0)
nonisolated(unsafe) var outcome: Result<[UInt64], any Error> = .success([])
Task.detached {
    do { outcome = .success(try await measure()) } catch { outcome = .failure(error) }
    done.signal()
}
done.wait()
switch outcome {
case .success(let samples): print("{\"samples\": [" + samples.map(String.init).joined(separator: ",") + "]}")
case .failure(let error):
    FileHandle.standardError.write(Data("setup: \(error)\n".utf8))
    exit(1)
}
