import Foundation
import MSAL
import NativeAuthEmulator

// MARK: Saved flow states (docs/saved-states.md)

/// The size of a saved state: the code step of a sign-in and the MFA step (with two methods), as
/// the emulator's flows make them, and what the document adds to its continuation token. Then
/// the time to save and restore one, in process.
func savedStateSize(iterations: Int) async throws -> [Row] {
    var configuration = EmulatorConfiguration()
    configuration.passwordHashIterations = 1000
    let router = try EmulatorRouter(configuration: configuration)
    let log = RequestLog(router: router)
    let authority = router.authority(baseURL: "http://127.0.0.1:1")
    let transport = EmulatorTransport(router: router)
    let app = try Demo.app(authority: authority, transport: transport, capabilities: [.mfaRequired])
    let codeApp = try Demo.app(authority: authority, clientId: Demo.codeApp, transport: transport)
    log.clear()

    guard case .codeRequired(let code, _, _, _) = try await codeApp.signIn(parameters: .init(username: "grace@example.com")) else {
        throw EmulatorError("the code sign-in did not ask for a code")
    }
    let parameters = MSALNativeAuthSignInParameters(username: "alan@example.com")
    parameters.password = "Turing-Machine-1936"
    guard case .awaitingMFA(_, let mfa) = try await app.signIn(parameters: parameters) else {
        throw EmulatorError("the MFA sign-in did not ask for a second factor")
    }
    func row(_ name: String, _ state: any MSALNativeAuthSerializableState) throws -> Row {
        let bytes = state.serialized()
        let object = try JSONSerialization.jsonObject(with: bytes) as? [String: Any]
        let token = (object?["continuationToken"] as? String)?.utf8.count ?? 0
        return Row(
            figure: "saved state size: \(name)", measured: "\(bytes.count) bytes (token \(token), document \(bytes.count - token))",
            target: "(reported)", met: nil)
    }
    var rows = [try row("sign-in code step", code), try row("MFA step, two methods", mfa)]

    let bytes = code.serialized()
    var saves: [Double] = []
    var restores: [Double] = []
    for _ in 0..<iterations {
        let start = DispatchTime.now().uptimeNanoseconds
        _ = code.serialized()
        let middle = DispatchTime.now().uptimeNanoseconds
        _ = try codeApp.restoreState(serialized: bytes)
        let end = DispatchTime.now().uptimeNanoseconds
        saves.append(Double(middle - start) / 1000)
        restores.append(Double(end - middle) / 1000)
    }
    saves.sort()
    restores.sort()
    rows.append(
        Row(
            figure: "saved state: serialized() / restoreState p50 µs",
            measured: String(format: "%.1f / %.1f", saves[saves.count / 2], restores[restores.count / 2]), target: "(reported)",
            met: nil))
    return rows
}
