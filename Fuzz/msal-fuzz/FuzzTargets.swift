import Foundation
import MSAL
import NativeAuthEmulator

/// libFuzzer entry points for everything that parses outside input. Build and run with
/// `scripts/fuzz` (release, `--sanitize=fuzzer --sanitize=address`); the target is chosen with
/// `MSAL_FUZZ_TARGET`. Every input must end in a value or a typed error: a crash, a hang or a
/// sanitizer report is a finding.
enum FuzzTarget: String, CaseIterable {
    case initiate, challenge, token, errorEnvelope, signUpCompleted, resetSubmit, resetPoll, introspect, registerChallenge
    case idToken, clientInfo, claims, cacheFile, lookupCopy, form, emulator, savedFlowState, v2Answer
}

let target: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["MSAL_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        FileHandle.standardError.write(
            Data("set MSAL_FUZZ_TARGET to one of: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))\n".utf8))
        exit(2)
    }
    return target
}()

/// The authority the V2 targets resolve and check links against (the seeds' authority).
let v2Links = V2Links(authority: URL(string: "https://contoso.ciamlogin.com/contoso.onmicrosoft.com/")!)

let router: EmulatorRouter = {
    var configuration = EmulatorConfiguration()
    configuration.passwordHashIterations = 1
    return try! EmulatorRouter(configuration: configuration)
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    let text = String(decoding: data, as: UTF8.self)
    switch target {
    case .initiate: _ = try? ContinuationTokenResponse(json: data)
    case .challenge: _ = try? ChallengeResponse(json: data)
    case .token: _ = try? TokenResponse(json: data)
    case .errorEnvelope: _ = try? NativeAuthAPIError(json: data)
    case .signUpCompleted: _ = try? SignUpCompletedResponse(json: data)
    case .resetSubmit: _ = try? ResetPasswordSubmitResponse(json: data)
    case .resetPoll: _ = try? ResetPasswordPollResponse(json: data)
    case .introspect: _ = try? IntrospectResponse(json: data)
    case .registerChallenge: _ = try? RegisterChallengeResponse(json: data)
    case .idToken: _ = try? IDToken(raw: text)
    case .clientInfo: _ = try? ClientInfo(encoded: text)
    case .claims:
        if let request = try? MSALClaimsRequest(jsonString: text) { _ = request.jsonString() }
    case .cacheFile:
        // Whatever parses must write out as text that parses to the same document, and every
        // entry's fields must decode (the look-up and the writer both read them).
        if let document = try? TokenCacheDocument(json: data) {
            for section in document.sections.values { for entry in section.values { _ = entry.fields } }
            guard let again = try? TokenCacheDocument(json: document.serialized()), again == document else {
                fatalError("the cache codec does not round-trip this input")
            }
        }
    case .lookupCopy:
        // The look-up copy's reader, fed in chunks of 1 to 64 bytes (the first byte picks): a file
        // the whole parse accepts must not be refused, and its other sections must come out the same.
        let bytes = [UInt8](data)
        let reader = LookupCopyReader.reading(bytes, chunksOf: Int(data.first ?? 0) % 64 + 1)
        if let whole = try? TokenCacheDocument(bytes: bytes) {
            guard !reader.failed, let copy = try? TokenCacheDocument(bytes: reader.output) else {
                fatalError("the look-up copy's reader refused a cache the whole parse accepts")
            }
            for section in [TokenCacheDocument.Section.refreshToken, .idToken, .account, .appMetadata] where whole[section] != copy[section]
            {
                fatalError("the look-up copy's \(section) differs from the whole parse's")
            }
        }
    case .form: _ = FormEncoding.decode(data)
    case .savedFlowState:
        // A saved state that reads must write out as a document that reads back the same.
        if let saved = try? SavedFlowState.decode(data) {
            guard let again = try? SavedFlowState.decode(saved.encoded()), again == saved else {
                fatalError("the saved-state codec does not round-trip this input")
            }
        }
        // A version 2 (native auth V2) document likewise; every link it keeps is on the authority.
        if let saved = try? SavedFlowStateV2.decode(data, links: v2Links) {
            guard let again = try? SavedFlowStateV2.decode(saved.encoded(), links: v2Links), again == saved else {
                fatalError("the V2 saved-state codec does not round-trip this input")
            }
        }
    case .v2Answer:
        // The first byte picks the request the body answers; the status does not change the reading.
        let requests: [V2AnswerDecoder.Request] = [.entry, .interaction, .resume]
        let request = requests[Int(data.first ?? 0) % requests.count]
        _ = V2AnswerDecoder(links: v2Links, logger: MSALLoggerConfig()).decode(status: 200, body: Data(data.dropFirst()), as: request)
    case .emulator:
        // The first byte picks an endpoint; the rest is the form body.
        let endpoints = [
            "/oauth2/v2.0/initiate", "/oauth2/v2.0/challenge", "/oauth2/v2.0/token", "/signup/v1.0/start",
            "/signup/v1.0/challenge", "/signup/v1.0/continue", "/resetpassword/v1.0/start", "/resetpassword/v1.0/submit",
            "/_emulator/faults", "/_emulator/users", "/api/todolist", "/oauth2/v2.0/introspect", "/register/v1.0/introspect",
            "/register/v1.0/challenge", "/register/v1.0/continue",
        ]
        let endpoint = endpoints[Int(data.first ?? 0) % endpoints.count]
        let path =
            endpoint.hasPrefix("/oauth2") || endpoint.hasPrefix("/signup") || endpoint.hasPrefix("/reset")
                || endpoint.hasPrefix("/register")
            ? "/emulator.onmicrosoft.com" + endpoint : endpoint
        let body = data.dropFirst()
        _ = router.handle(
            EmulatorRequest(
                method: endpoint == "/api/todolist" ? "GET" : "POST", path: path,
                headers: [
                    "Content-Type": "application/x-www-form-urlencoded", "Authorization": "Bearer " + String(decoding: body, as: UTF8.self),
                ],
                body: Data(body), baseURL: "http://127.0.0.1"))
        _ = router.handle(EmulatorRequest(method: "DELETE", path: "/_emulator/faults", baseURL: "http://127.0.0.1"))
    }
    return 0
}

#if !MSAL_FUZZING
    /// Without libFuzzer (a normal build): replays the files named on the command line through the
    /// same entry point, so a corpus or a crash file can be rerun anywhere. (scripts/fuzz defines
    /// MSAL_FUZZING, and libFuzzer brings its own `main`.)
    @main
    struct FuzzReplay {
        static func main() {
            for path in CommandLine.arguments.dropFirst() {
                guard let data = FileManager.default.contents(atPath: path) else { continue }
                _ = data.withUnsafeBytes { raw in fuzz(raw.bindMemory(to: UInt8.self).baseAddress, raw.count) }
            }
        }
    }
#endif
