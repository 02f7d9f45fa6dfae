import Foundation

/// What every V2 state continues with: the flow and the continuation of the answer that made the state.
struct V2StateCore: Sendable {
    let flow: V2Flow
    let continuation: Continuation
    /// When the service issued the continuation token (as the SDK's clock read it): a saved state's
    /// `issuedAt` (Sources/MSAL/V2/SavedState/SavedFlowStateV2.swift).
    let issuedAt: Date

    /// A core starting now on the flow's clock, or at `issuedAt` for a restored state.
    init(flow: V2Flow, continuation: Continuation, issuedAt: Date? = nil) {
        self.flow = flow
        self.continuation = continuation
        self.issuedAt = issuedAt ?? flow.controller.client.environment.clock.now()
    }

    /// Runs one step of the flow: `begin` starts a fresh machine, the controller sends what it asks for.
    func step(_ begin: (inout V2FlowMachine) -> V2FlowMachine.Action) async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        var machine = flow.machine()
        let first = begin(&machine)
        return try await flow.controller.finish(first, &machine, flow)
    }
}

extension V2StateCore {
    /// A sign-in-after state's `signIn`: the resume, then the token request with `scopes` and `claims`.
    func signInAfter(_ link: URL?, scopes: [String]?, claims: MSALClaimsRequest?) async throws(MSALNativeAuthFlowError)
        -> MSALNativeAuthFlowResult
    {
        let own = V2Flow(
            controller: flow.controller, scenario: flow.scenario, username: flow.username, scopes: Scopes.withDefaults(scopes),
            claims: claims?.jsonString())
        var machine = own.machine()
        let first = machine.signInAfter(link, on: continuation)
        return try await own.controller.finish(first, &machine, own)
    }
}
